package dev.ratelimit.core.model;

/** Error-message helpers: quote caller input so blanks, controls and huge strings stay readable. */
public final class Texts {
  private static final int MAX_SHOWN = 80;

  private Texts() {}

  /**
   * Returns {@code value} if it is well-formed UTF-16 (no unpaired surrogate), so that its UTF-8
   * encoding is lossless and two different strings never share a store key.
   *
   * @throws IllegalArgumentException naming {@code field} otherwise
   */
  public static String requireWellFormed(String value, String field) {
    java.util.Objects.requireNonNull(value, field);
    int at = firstUnpairedSurrogate(value);
    if (at >= 0) {
      throw new IllegalArgumentException(field + " contains an unpaired surrogate at index " + at);
    }
    return value;
  }

  /** The index of the first surrogate that is not half of a pair, or -1 (valid Unicode text). */
  public static int firstUnpairedSurrogate(String value) {
    int n = value.length();
    for (int i = 0; i < n; i++) {
      char c = value.charAt(i);
      if ((c & 0xF800) != 0xD800) { // not a surrogate: the usual case, one test
        continue;
      }
      if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1))) {
        i++;
        continue;
      }
      return i;
    }
    return -1;
  }

  /** {@code "value"} with control characters escaped and long values cut, or {@code null}. */
  public static String quote(String value) {
    if (value == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder("\"");
    int shown = Math.min(value.length(), MAX_SHOWN);
    for (int i = 0; i < shown; i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c == 0x7f) {
        sb.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
      } else if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else {
        sb.append(c);
      }
    }
    sb.append('"');
    if (value.length() > MAX_SHOWN) {
      sb.append("... (").append(value.length()).append(" chars)");
    }
    return sb.toString();
  }
}
