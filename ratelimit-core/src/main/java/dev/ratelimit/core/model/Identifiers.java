package dev.ratelimit.core.model;

/**
 * Channel and client identifier rules, exactly as ibc-go's denom-trace parser reads hop ids.
 *
 * <p>A valid hop id is a channel id {@code channel-N} or a client id ({@code 09-localhost}, or
 * {@code prefix-N} with a prefix of letters, digits, {@code _} and inner {@code -}), where N has at
 * most 20 digits and fits an unsigned 64-bit integer. No length limit applies to the prefix.
 */
public final class Identifiers {
  private static final String CHANNEL_PREFIX = "channel-";
  private static final String MAX_UINT64 = "18446744073709551615"; // 2^64 - 1
  private static final String LOCALHOST_CLIENT = "09-localhost";

  private Identifiers() {}

  /** {@code channel-N} with N a uint64. */
  public static boolean isChannelId(String id) {
    // channel-[0-9]{1,20}, checked in place without a regex or a substring: it runs several
    // times per packet
    return id != null && id.startsWith(CHANNEL_PREFIX) && isUint64(id, CHANNEL_PREFIX.length());
  }

  /** {@code 09-localhost} or {@code prefix-N} with N a uint64 (channel ids also match). */
  public static boolean isClientId(String id) {
    if (id == null) {
      return false;
    }
    if (LOCALHOST_CLIENT.equals(id)) {
      return true;
    }
    // The shape [A-Za-z0-9_]+([A-Za-z0-9_-]+[A-Za-z0-9_])?-[0-9]{1,20}, checked by one linear
    // scan: as a java.util.regex the nested quantifiers backtrack quadratically on long ids that
    // fail late (8,000 chars took 0.7 s), and a counterparty controls the denom trace hops a
    // receive parses. The digits hold no '-', so the split is at the last '-'; the prefix is
    // [A-Za-z0-9_-]+ starting and ending with a non-'-'.
    int dash = id.lastIndexOf('-');
    if (dash < 1 || !isUint64(id, dash + 1)) {
      return false;
    }
    if (!isWordChar(id.charAt(0)) || !isWordChar(id.charAt(dash - 1))) {
      return false;
    }
    for (int i = 1; i < dash - 1; i++) {
      char c = id.charAt(i);
      if (c != '-' && !isWordChar(c)) {
        return false;
      }
    }
    return true;
  }

  private static boolean isWordChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  }

  /** A channel id or a client id: what may stand in a rate limit's path or a denom trace hop. */
  public static boolean isChannelOrClientId(String id) {
    return isChannelId(id) || isClientId(id);
  }

  /**
   * Returns {@code id} if it is a valid channel or client id.
   *
   * @throws IllegalArgumentException naming {@code field} when it is not
   */
  public static String requireChannelOrClientId(String id, String field) {
    if (!isChannelOrClientId(id)) {
      throw new IllegalArgumentException(
          field + " must be a channel id (channel-N) or a client id, got " + Texts.quote(id));
    }
    return id;
  }

  /**
   * Whether {@code id} from {@code from} to its end is 1 to 20 ASCII digits whose value fits an
   * unsigned 64-bit integer (leading zeros allowed: they make the value smaller).
   */
  private static boolean isUint64(String id, int from) {
    int digits = id.length() - from;
    if (digits < 1 || digits > MAX_UINT64.length()) {
      return false;
    }
    for (int i = from; i < id.length(); i++) {
      char c = id.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    if (digits < MAX_UINT64.length()) {
      return true;
    }
    // 20 digits: compare as text, the first difference decides
    for (int i = 0; i < digits; i++) {
      char c = id.charAt(from + i);
      char max = MAX_UINT64.charAt(i);
      if (c != max) {
        return c < max;
      }
    }
    return true;
  }
}
