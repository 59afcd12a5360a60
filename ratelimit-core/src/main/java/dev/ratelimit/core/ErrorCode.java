package dev.ratelimit.core;

/**
 * Stable error codes of the {@code ratelimit} codespace (1-7 as the Go module's registry), plus
 * the three generic classes of the Cosmos SDK codespace that governance messages can fail with.
 *
 * <p>Callers compare codes, never message text.
 */
public enum ErrorCode {
  RATE_LIMIT_ALREADY_EXISTS(Codespace.RATELIMIT, 1, "rate limit already exists"),
  RATE_LIMIT_NOT_FOUND(Codespace.RATELIMIT, 2, "rate limit not found"),
  ZERO_CHANNEL_VALUE(Codespace.RATELIMIT, 3, "channel value is zero"),
  QUOTA_EXCEEDED(Codespace.RATELIMIT, 4, "quota exceeded"),
  INVALID_CLIENT_STATE(Codespace.RATELIMIT, 5, "unable to determine client state from channel id"),
  CHANNEL_NOT_FOUND(Codespace.RATELIMIT, 6, "channel does not exist"),
  DENOM_BLACKLISTED(Codespace.RATELIMIT, 7, "denom is blacklisted"),
  INVALID_CHANNEL_OR_CLIENT_ID(Codespace.RATELIMIT, 8, "invalid channel or client id"),
  INVALID_PACKET_DATA(Codespace.RATELIMIT, 9, "invalid packet data"),
  INVALID_AMOUNT(Codespace.RATELIMIT, 10, "invalid amount"),
  FLOW_OVERFLOW(Codespace.RATELIMIT, 11, "flow overflow"),
  INVALID_GENESIS(Codespace.RATELIMIT, 12, "invalid genesis"),
  HOUR_EPOCH_INVALID(Codespace.RATELIMIT, 13, "hour epoch missing or invalid"),
  INVALID_ACKNOWLEDGEMENT(Codespace.RATELIMIT, 14, "invalid acknowledgement"),

  /** The signer is not the configured authority (SDK ErrUnauthorized). */
  UNAUTHORIZED(Codespace.SDK, 4, "unauthorized"),
  /** The authority address is blank or fails the host's address codec (SDK ErrInvalidAddress). */
  INVALID_ADDRESS(Codespace.SDK, 7, "invalid address"),
  /** A message field fails stateless validation (SDK ErrInvalidRequest). */
  INVALID_REQUEST(Codespace.SDK, 18, "invalid request");

  /** Where a code is registered. */
  public enum Codespace {
    RATELIMIT("ratelimit"),
    SDK("sdk");

    private final String id;

    Codespace(String id) {
      this.id = id;
    }

    public String id() {
      return id;
    }
  }

  private final Codespace codespace;
  private final int code;
  private final String description;

  ErrorCode(Codespace codespace, int code, String description) {
    this.codespace = codespace;
    this.code = code;
    this.description = description;
  }

  public Codespace codespace() {
    return codespace;
  }

  /** The numeric code within {@link #codespace()}. */
  public int code() {
    return code;
  }

  public String description() {
    return description;
  }

  /** Lower-case name of a generic class ({@code unauthorized}), or the number as text. */
  public String label() {
    return codespace == Codespace.SDK
        ? name().toLowerCase(java.util.Locale.ROOT)
        : Integer.toString(code);
  }

  /** The {@code ratelimit} codespace entry with this number. */
  public static ErrorCode ofRateLimitCode(int code) {
    for (ErrorCode c : values()) {
      if (c.codespace == Codespace.RATELIMIT && c.code == code) {
        return c;
      }
    }
    throw new IllegalArgumentException("no ratelimit error code " + code);
  }
}
