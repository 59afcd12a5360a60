package dev.ratelimit.cli.query;

import dev.ratelimit.core.model.Texts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain text table: left-aligned columns separated by two spaces, a header row first. A cell
 * holding a control character (a newline in a denom a module blacklisted, say) or another
 * character unsafe on a terminal ({@link TerminalText}) is shown quoted with the character
 * escaped, so every row stays one line and shows what it holds.
 */
public final class TextTable {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  public TextTable(String... header) {
    this.header = List.of(header);
  }

  /** Adds a row; it must have one cell per column. */
  public TextTable row(String... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException(
          "expected " + header.size() + " cells, got " + cells.length + ": " + Arrays.toString(cells));
    }
    rows.add(Arrays.stream(cells).map(TextTable::cell).toList());
    return this;
  }

  /**
   * {@code value} as one line: as it is, or quoted with its control characters escaped; quoted
   * too when it is empty or starts or ends with a space, which a bare cell would not show (the
   * whitelist matches addresses exactly, spaces included).
   */
  static String cell(String value) {
    boolean spaceAtAnEdge = value.isEmpty()
        || isSpace(value.codePointAt(0))
        || isSpace(value.codePointBefore(value.length()));
    return spaceAtAnEdge
        ? Texts.quote(value, Integer.MAX_VALUE, TerminalText::unsafe)
        : TerminalText.shown(value, Integer.MAX_VALUE);
  }

  private static boolean isSpace(int c) {
    return Character.isWhitespace(c) || Character.isSpaceChar(c);
  }

  public boolean isEmpty() {
    return rows.isEmpty();
  }

  /** The table, one line per row (header included), each ending with a newline. */
  public String render() {
    int[] widths = new int[header.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = header.get(i).length();
      for (List<String> r : rows) {
        widths[i] = Math.max(widths[i], r.get(i).length());
      }
    }
    StringBuilder sb = new StringBuilder();
    line(sb, header, widths);
    for (List<String> r : rows) {
      line(sb, r, widths);
    }
    return sb.toString();
  }

  private static void line(StringBuilder sb, List<String> cells, int[] widths) {
    StringBuilder l = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        l.append("  ");
      }
      l.append(cells.get(i));
      if (i < cells.size() - 1) {
        l.append(" ".repeat(widths[i] - cells.get(i).length()));
      }
    }
    sb.append(l.toString().stripTrailing()).append('\n');
  }
}
