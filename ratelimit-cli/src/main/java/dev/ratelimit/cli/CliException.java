package dev.ratelimit.cli;

import java.nio.file.Path;

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

  /**
   * Refuses an empty {@code --home} where a command makes a new home ({@code Path.of("")} would be
   * the working directory).
   */
  static void requireNewHomeNamed(Path home) {
    if (home.toString().isEmpty()) {
      throw usage("--home is empty: give a new or empty directory");
    }
  }

  int exitCode() {
    return exitCode;
  }
}
