package dev.ratelimit.gov;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.Texts;

/**
 * The stateless checks of the governance messages (SPEC §7, rules 1-7), as pure functions. The
 * handler calls them in rule order, so the first broken rule is the one reported:
 *
 * <ol>
 *   <li>authority not blank and accepted by the host's {@link AddressCodec} ({@code
 *       invalid_address});
 *   <li>denom not empty (a blank denom such as {@code " "} passes, as in Go);
 *   <li>channel_or_client_id a valid channel or client id;
 *   <li>max_percent_send a canonical decimal integer in [0, 100];
 *   <li>max_percent_recv likewise;
 *   <li>not both percentages 0;
 *   <li>duration_hours not 0 (any uint64 up to 2^64 - 1 is a window length).
 * </ol>
 *
 * Rules 2-7 fail as {@code invalid_request}; 4-7 apply to add and update only.
 */
final class MsgValidation {
  private static final int MAX_PERCENT = 100;

  private MsgValidation() {}

  /** Rule 1. */
  static void requireAddress(String authority, AddressCodec codec) {
    if (authority == null || Texts.isGoBlank(authority)) { // Go's TrimSpace, as the SDK tests it
      throw new RateLimitException(
          ErrorCode.INVALID_ADDRESS, "authority must not be blank, got " + Texts.quote(authority));
    }
    try {
      codec.validate(authority);
    } catch (IllegalArgumentException e) {
      throw new RateLimitException(
          ErrorCode.INVALID_ADDRESS,
          "authority " + Texts.quote(authority) + " is not a valid address: " + e.getMessage(),
          e);
    }
  }

  /** Rules 2 and 3. */
  static Path path(String denom, String channelOrClientId) {
    if (denom == null || denom.isEmpty()) {
      throw invalid("denom must not be empty");
    }
    if (!Identifiers.isChannelOrClientId(channelOrClientId)) {
      throw invalid(
          "channel_or_client_id must be a channel id (channel-N) or a client id, got "
              + Texts.quote(channelOrClientId));
    }
    try {
      return new Path(denom, channelOrClientId);
    } catch (IllegalArgumentException e) {
      // Only a Java caller can get here (an unpaired surrogate in the denom): wire strings are
      // valid UTF-8.
      throw new RateLimitException(ErrorCode.INVALID_REQUEST, e.getMessage(), e);
    }
  }

  /** Rules 4 to 7. */
  static Quota quota(String maxPercentSend, String maxPercentRecv, long durationHours) {
    int send = percent(maxPercentSend, "max_percent_send");
    int recv = percent(maxPercentRecv, "max_percent_recv");
    if (send == 0 && recv == 0) {
      throw invalid("max_percent_send and max_percent_recv must not both be 0");
    }
    if (durationHours == 0) { // a uint64: any other value, up to 2^64 - 1, is a window length
      throw invalid("duration_hours must not be 0");
    }
    return new Quota(send, recv, durationHours);
  }

  private static int percent(String text, String field) {
    if (!Amounts.isCanonicalDecimal(text)) {
      throw invalid(
          field
              + " must be a canonical decimal integer in [0, "
              + MAX_PERCENT
              + "], got "
              + Texts.quote(text));
    }
    // Canonical: no leading zero, so more than three digits is above 100 (and may not fit an int).
    if (text.length() > 3 || Integer.parseInt(text) > MAX_PERCENT) {
      throw invalid(field + " must be in [0, " + MAX_PERCENT + "], got " + Texts.quote(text));
    }
    return Integer.parseInt(text);
  }

  private static RateLimitException invalid(String message) {
    return new RateLimitException(ErrorCode.INVALID_REQUEST, message);
  }
}
