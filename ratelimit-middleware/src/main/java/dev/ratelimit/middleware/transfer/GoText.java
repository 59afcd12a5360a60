package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.model.Texts;

/** Text checks as the Go side makes them. */
final class GoText {
  private GoText() {}

  /**
   * True when {@code s} is empty or only white space by Go's {@code unicode.IsSpace} ({@code
   * strings.TrimSpace(s) == ""}, ibc-go's blank test). Go's set differs from {@link
   * Character#isWhitespace}: it includes U+0085, U+00A0, U+2007 and U+202F and excludes
   * U+001C..U+001F.
   */
  static boolean isBlank(String s) {
    return isBlank(s, 0);
  }

  /** {@link #isBlank(String)} of {@code s} from index {@code from} on. */
  static boolean isBlank(String s, int from) {
    for (int i = from; i < s.length(); i++) {
      if (!isGoSpace(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** Go's {@code unicode.IsSpace}; every such code point is in the BMP. */
  static boolean isGoSpace(char c) {
    return switch (c) {
      case '\t',
          '\n',
          '\u000b',
          '\f',
          '\r',
          ' ',
          '\u0085',
          '\u00a0',
          '\u1680',
          '\u2028',
          '\u2029',
          '\u202f',
          '\u205f',
          '\u3000' ->
          true;
      default -> c >= '\u2000' && c <= '\u200a';
    };
  }

  /** True when {@code s} holds a surrogate that is not half of a pair (not valid Unicode). */
  static boolean hasLoneSurrogate(String s) {
    return Texts.firstUnpairedSurrogate(s) >= 0;
  }
}
