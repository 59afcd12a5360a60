package dev.ratelimit.core;

import java.util.Objects;

/**
 * A rejection by the rate-limit module: carries a stable {@link ErrorCode} and a message with the
 * details (numbers, ids). Unchecked: callers that must not fail (ack paths) catch it explicitly.
 */
public final class RateLimitException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;
  private final String detail;

  public RateLimitException(ErrorCode code, String message) {
    super(Objects.requireNonNull(code, "code").description() + ": " + message);
    this.code = code;
    this.detail = message;
  }

  public RateLimitException(ErrorCode code, String message, Throwable cause) {
    super(Objects.requireNonNull(code, "code").description() + ": " + message, cause);
    this.code = code;
    this.detail = message;
  }

  public ErrorCode code() {
    return code;
  }

  /** The message without the code's description in front, to word it again with more context. */
  public String detail() {
    return detail;
  }
}
