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
}
