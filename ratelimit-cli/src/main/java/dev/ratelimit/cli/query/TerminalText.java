package dev.ratelimit.cli.query;

import dev.ratelimit.core.model.Texts;

/**
 * Text that came from elsewhere (a node's answer, a store's strings), made safe to print as one
 * terminal line: besides the ASCII controls, the C1 controls (U+0080-U+009F, U+009B starts an
 * escape sequence on some terminals), format characters (the bidirectional overrides that reorder
 * what is shown, such as U+202E) and the line and paragraph separators are written as Unicode
 * escapes (a backslash, 'u' and four hex digits), and so are unpaired surrogates.
 */
final class TerminalText {
  private TerminalText() {}

  /** Whether {@code c} must not reach a terminal as it is. */
  static boolean unsafe(int c) {
    int type = Character.getType(c);
    return Character.isISOControl(c)
        || type == Character.FORMAT
        || type == Character.LINE_SEPARATOR
        || type == Character.PARAGRAPH_SEPARATOR
        || type == Character.SURROGATE;
  }

  /**
   * JSON text with every unsafe character but its layout (newline, carriage return, tab)
   * written as its Unicode escape: the same JSON (other such characters can only stand
   * inside its strings), safe on a terminal. Protobuf's printer escapes the ASCII controls in
   * strings but leaves C1 controls and bidirectional overrides as they are.
   */
  static String json(String json) {
    if (json.codePoints().noneMatch(TerminalText::unsafeInJson)) {
      return json;
    }
    StringBuilder sb = new StringBuilder(json.length() + 16);
    json.codePoints().forEach(c -> {
      if (unsafeInJson(c)) {
        for (char unit : Character.toChars(c)) {
          sb.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) unit));
        }
      } else {
        sb.appendCodePoint(c);
      }
    });
    return sb.toString();
  }

  private static boolean unsafeInJson(int c) {
    return unsafe(c) && c != '\n' && c != '\r' && c != '\t';
  }

  /** {@code text} as it is when every character is safe, else quoted with those escaped. */
  static String shown(String text, int maxShown) {
    return text.length() <= maxShown && text.codePoints().noneMatch(TerminalText::unsafe)
        ? text
        : Texts.quote(text, maxShown, TerminalText::unsafe);
  }
}
