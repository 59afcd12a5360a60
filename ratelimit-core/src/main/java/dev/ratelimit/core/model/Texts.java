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

  /**
   * The text of {@code length} bytes of {@code bytes} from {@code from}, if they are well-formed
   * UTF-8 as Go's {@code utf8.Valid} reads it (Java's decoder refuses the same: overlong forms,
   * encoded surrogates, code points past U+10FFFF, cut sequences); never replacement characters,
   * so two different byte strings never read as the same text. The one strict UTF-8 reader of the
   * project (packet data, payloads, scenario and genesis files, a node's answers).
   *
   * @throws MalformedUtf8Exception naming the offending byte's index in {@code bytes}
   */
  public static String strictUtf8(byte[] bytes, int from, int length) {
    java.nio.ByteBuffer in = java.nio.ByteBuffer.wrap(bytes, from, length);
    try {
      return java.nio.charset.StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
          .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
          .decode(in)
          .toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new MalformedUtf8Exception(in.position());
    }
  }

  /** Bytes that are not well-formed UTF-8 ({@link #strictUtf8}), from byte {@link #at()} on. */
  public static final class MalformedUtf8Exception extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;
    private final int at;

    MalformedUtf8Exception(int at) {
      super("not valid UTF-8 at byte " + at);
      this.at = at;
    }

    /** The index, in the whole array, of the first byte that is not well-formed UTF-8. */
    public int at() {
      return at;
    }
  }

  /** The index of the first surrogate that is not half of a pair, or -1 (valid Unicode text). */
  public static int firstUnpairedSurrogate(String value) {
    // Two loops, so that the usual text costs next to nothing on a node, whose traffic has
    // surrogate pairs (emoji in memos): HotSpot drops this loop, which only compares each char
    // with the first surrogate, for a Latin-1 string; one loop doing both jobs ran char by char
    // once a pair had gone through it (docs/PERFORMANCE.md, "The JIT's profile").
    int n = value.length();
    for (int i = 0; i < n; i++) {
      if (value.charAt(i) >= Character.MIN_SURROGATE) {
        return firstUnpairedSurrogate(value, i);
      }
    }
    return -1;
  }

  /** {@link #firstUnpairedSurrogate(String)} from index {@code from}, a possible surrogate. */
  private static int firstUnpairedSurrogate(String value, int from) {
    int n = value.length();
    for (int i = from; i < n; i++) {
      char c = value.charAt(i);
      if (!Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(value.charAt(i + 1))) {
        i++;
        continue;
      }
      return i;
    }
    return -1;
  }

  /** {@code "value"} with control characters escaped and long values cut, or {@code null}. */
  public static String quote(String value) {
    return quote(value, MAX_SHOWN);
  }

  /**
   * {@code "value"} with control characters, unpaired surrogates, quotes and backslashes escaped,
   * cut to at most {@code maxShown} characters between the quotes (escapes count, so a value of
   * control characters cannot make the text six times longer; a surrogate pair is never split),
   * with the value's length said when cut; or {@code null}.
   */
  public static String quote(String value, int maxShown) {
    return quote(value, maxShown, Texts::isControl);
  }

  /**
   * {@link #quote(String, int)} escaping every code point {@code escaped} holds (a caller that
   * prints another machine's text on a terminal escapes more than the control characters); a
   * code point beyond U+FFFF is escaped as its two surrogates.
   */
  public static String quote(String value, int maxShown, java.util.function.IntPredicate escaped) {
    if (value == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder("\"");
    int i = 0;
    while (i < value.length()) {
      char c = value.charAt(i);
      boolean pair = Character.isHighSurrogate(c) && i + 1 < value.length()
          && Character.isLowSurrogate(value.charAt(i + 1));
      String piece;
      if (pair) {
        piece = escaped.test(value.codePointAt(i))
            ? String.format(java.util.Locale.ROOT, "\\u%04x\\u%04x", (int) c,
                (int) value.charAt(i + 1))
            : value.substring(i, i + 2);
      } else if (escaped.test(c) || Character.isSurrogate(c)) {
        piece = String.format(java.util.Locale.ROOT, "\\u%04x", (int) c);
      } else if (c == '"' || c == '\\') {
        piece = "\\" + c;
      } else {
        piece = String.valueOf(c);
      }
      if (sb.length() - 1 + piece.length() > maxShown) {
        break;
      }
      sb.append(piece);
      i += pair ? 2 : 1;
    }
    sb.append('"');
    if (i < value.length()) {
      sb.append("... (").append(value.length()).append(" chars)");
    }
    return sb.toString();
  }

  /**
   * A character that can break or rewrite a line of a log or an event: a C0 control (below
   * U+0020), DEL, a C1 control (U+0080..U+009F, among them U+0085, "next line") or the line and
   * paragraph separators U+2028 and U+2029. {@link #quote} escapes it.
   */
  public static boolean isControl(int c) {
    return c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == 0x2028 || c == 0x2029;
  }

  /**
   * True when {@code s} is empty or only white space by Go's {@code unicode.IsSpace} ({@code
   * strings.TrimSpace(s) == ""}: ibc-go's blank test, and the Cosmos SDK's empty address). Go's
   * set differs from {@link Character#isWhitespace} and {@link String#isBlank}: it includes
   * U+0085, U+00A0, U+2007 and U+202F and excludes U+001C..U+001F.
   */
  public static boolean isGoBlank(String s) {
    return isGoBlank(s, 0);
  }

  /** {@link #isGoBlank(String)} of {@code s} from index {@code from} on. */
  public static boolean isGoBlank(String s, int from) {
    for (int i = from; i < s.length(); i++) {
      if (!isGoSpace(s.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  /** Go's {@code unicode.IsSpace}; every such code point is in the BMP. */
  public static boolean isGoSpace(char c) {
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
  public static boolean hasUnpairedSurrogate(String s) {
    return firstUnpairedSurrogate(s) >= 0;
  }
}
