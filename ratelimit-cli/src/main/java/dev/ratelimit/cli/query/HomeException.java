package dev.ratelimit.cli.query;

/**
 * A node home that cannot be read as asked: no such directory, no database in it, a corrupt
 * {@code config/channels.json}. An input error for the command line (exit 2).
 */
public final class HomeException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public HomeException(String message) {
    super(message);
  }

  public HomeException(String message, Throwable cause) {
    super(message, cause);
  }
}
