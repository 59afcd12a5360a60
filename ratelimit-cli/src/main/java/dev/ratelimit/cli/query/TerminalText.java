package dev.ratelimit.cli.query;

import dev.ratelimit.core.model.Texts;

/**
 * Text that came from elsewhere (a node's answer, a store's strings), made safe to print as one
 * terminal line: besides the ASCII controls, the C1 controls (U+0080-U+009F, U+009B starts an
 * escape sequence on some terminals), format characters (the bidirectional overrides that reorder
 * what is shown, such as U+202E) and the line and paragraph separators are escaped as {@code
 * \\uXXXX}, and so are unpaired surrogates.
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

  /** {@code text} as it is when every character is safe, else quoted with those escaped. */
  static String shown(String text, int maxShown) {
    return text.length() <= maxShown && text.codePoints().noneMatch(TerminalText::unsafe)
        ? text
        : Texts.quote(text, maxShown, TerminalText::unsafe);
  }
}
