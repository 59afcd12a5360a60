package dev.ratelimit.core;

import java.util.Objects;

/**
 * A rejection by the rate-limit module: carries a stable {@link ErrorCode} and a message with the
 * details (numbers, ids). Unchecked: callers that must not fail (ack paths) catch it explicitly.
 */
public final class RateLimitException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorCode code;

  public RateLimitException(ErrorCode code, String message) {
    super(Objects.requireNonNull(code, "code").description() + ": " + message);
    this.code = code;
  }

  public RateLimitException(ErrorCode code, String message, Throwable cause) {
    super(Objects.requireNonNull(code, "code").description() + ": " + message, cause);
    this.code = code;
  }

  public ErrorCode code() {
    return code;
  }
}
