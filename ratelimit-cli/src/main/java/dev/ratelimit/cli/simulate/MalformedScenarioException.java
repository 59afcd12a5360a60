package dev.ratelimit.cli.simulate;

/**
 * A scenario file that does not follow the format: bad JSON, an unknown op or key, a value of the
 * wrong type, time or height going backwards. The message is one line naming the file, the
 * scenario and the step ({@code file: scenario name: step N (op): problem}).
 */
public final class MalformedScenarioException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public MalformedScenarioException(String message) {
    super(oneLine(message));
  }

  public MalformedScenarioException(String message, Throwable cause) {
    super(oneLine(message), cause);
  }

  static String oneLine(String s) {
    return s == null ? "" : s.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
  }
}
