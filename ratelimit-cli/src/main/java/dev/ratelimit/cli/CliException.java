package dev.ratelimit.cli;

/** Ends a command with one line on stderr and an {@link ExitCode}. */
final class CliException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int exitCode;

  CliException(int exitCode, String message) {
    super(message);
    this.exitCode = exitCode;
  }

  static CliException usage(String message) {
    return new CliException(ExitCode.USAGE, message);
  }

  int exitCode() {
    return exitCode;
  }
}
