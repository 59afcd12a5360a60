package dev.ratelimit.cli;

/** The command line's exit codes. */
public final class ExitCode {
  /** Success; for {@code simulate}, every scenario passed. */
  public static final int OK = 0;

  /**
   * A result that is not an error of the input: a scenario failed, or what a query asked for does
   * not exist (a path with no rate limit, module code 2).
   */
  public static final int FAILED = 1;

  /**
   * Usage and input errors: an unknown flag, a missing argument, a malformed scenario or genesis,
   * a home with no database, an invalid channel or client id.
   */
  public static final int USAGE = 2;

  /**
   * A bug or an environment failure the command could not attribute to its input, such as a node
   * ({@code --node}) that cannot be reached or gives no answer of the expected shape.
   */
  public static final int INTERNAL = 3;

  private ExitCode() {}
}
