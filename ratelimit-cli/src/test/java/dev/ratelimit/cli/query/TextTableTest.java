package dev.ratelimit.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class TextTableTest {
  @Test
  void render_alignsColumns_oneLinePerRow() {
    String table = new TextTable("DENOM", "N").row("uatom", "1").row("u", "22").render();

    assertEquals("DENOM  N\nuatom  1\nu      22\n", table);
  }

  @Test
  void aCellWithAControlCharacter_isQuotedAndEscaped_soTheRowStaysOneLine() {
    String table =
        new TextTable("SENDER", "RECEIVER").row("bad\ndenom", "a\"b\t\\").row("ok", "ok").render();

    assertEquals(
        "SENDER            RECEIVER\n"
            + "\"bad\\u000adenom\"  \"a\\\"b\\u0009\\\\\"\n"
            + "ok                ok\n",
        table);
    // a cell without one is shown as it is, quotes and backslashes included
    assertEquals("a\"b\\", TextTable.cell("a\"b\\"));
    assertEquals("\"\\u007f\"", TextTable.cell("\u007f"));
  }

  /** Padding is stripped from a line's end, so spaces a value has at its edges are quoted. */
  @Test
  void aCellWithSpaceAtAnEdge_orEmpty_isQuoted() {
    String table = new TextTable("SENDER", "RECEIVER")
        .row("stride1a", "osmo1b ").row(" stride1a", "osmo1b").row("a b", "").render();
    assertEquals("SENDER       RECEIVER\n"
        + "stride1a     \"osmo1b \"\n"
        + "\" stride1a\"  osmo1b\n"
        + "a b          \"\"\n", table);
    assertEquals("\"uatom\u00a0\"", TextTable.cell("uatom\u00a0")); // no-break space
    assertEquals("\"\u3000x\"", TextTable.cell("\u3000x")); // ideographic space
  }

  @Test
  void terminalControlsBeyondAscii_areEscaped_otherTextIsNot() {
    assertEquals("\"\\u009b31m\"", TextTable.cell("\u009b31m")); // C1: CSI
    assertEquals("\"abc\\u202edef\"", TextTable.cell("abc\u202edef")); // right-to-left override
    assertEquals("\"a\\u2028b\"", TextTable.cell("a\u2028b")); // line separator
    assertEquals("\"\\ud800x\"", TextTable.cell("\ud800x")); // lone surrogate
    assertEquals("\"a\\udb40\\udc41\"", TextTable.cell("a\udb40\udc41")); // tag U+E0041
    assertEquals("caf\u00e9 \ud83d\ude80 \u4e2d", TextTable.cell("caf\u00e9 \ud83d\ude80 \u4e2d"));
  }
}
