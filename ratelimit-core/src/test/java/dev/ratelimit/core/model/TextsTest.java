package dev.ratelimit.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TextsTest {

  /** Go's strings.TrimSpace(s) == "" (unicode.IsSpace). */
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "'', true",
    "20, true",
    "09+0A+0B+0C+0D, true",
    "85, true", // NEL: Go space, not Java whitespace
    "A0, true", // NBSP: Go space, not Java whitespace
    "2007, true", // figure space: Go space, not Java whitespace
    "202F, true", // narrow NBSP: Go space, not Java whitespace
    "1680+2000+200A+2028+2029+205F+3000, true",
    "1C, false", // Java whitespace, not Go space
    "1F, false",
    "200B, false", // zero width space is not white space
    "FEFF, false",
    "61, false",
    "20+61+20, false",
  })
  void isBlank_followsGoUnicodeIsSpace(String units, boolean blank) {
    assertEquals(blank, Texts.isGoBlank(utf16(units)));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "'', -1",
    "61, -1",
    "D83D+DE00, -1",
    "D800, 0",
    "DC00, 0",
    "61+D83D, 1",
    "DE00+D83D, 0",
    "D83D+DE00+D83D+DE00, -1",
    "D83D+DE00+DC00, 2",
    "61+62+D800+DC00+D800+63, 4",
    "E000, -1",
    "FFFF+D83D+DE00, -1",
    "E000+D800, 1",
    "FFFF+61+DC00, 2",
    "4E2D+D83D+DE00+E000+DBFF, 4",
  })
  void firstLoneSurrogate_isFoundAtItsIndex(String units, int index) {
    String s = utf16(units);
    assertEquals(index, Texts.firstUnpairedSurrogate(s));
    assertEquals(index >= 0, Texts.hasUnpairedSurrogate(s));
    if (index >= 0) {
      assertEquals("field contains an unpaired surrogate at index " + index,
          assertThrows(IllegalArgumentException.class, () -> Texts.requireWellFormed(s, "field"))
              .getMessage());
    } else {
      assertSame(s, Texts.requireWellFormed(s, "field"));
    }
  }
  @Test
  void firstLoneSurrogate_agreesWithCodePointsOnEveryShortString() {
    // every string of up to 5 units over the boundaries of the surrogate ranges
    char[] alphabet = {'a', '\u00ff', '\ud7ff', '\ud800', '\udbff', '\udc00', '\udfff', '\ue000'};
    int checked = 0;
    int strings = 1; // of the current length
    for (int length = 0; length <= 5; length++, strings *= alphabet.length) {
      for (int k = 0; k < strings; k++) {
        char[] units = new char[length];
        for (int d = 0, rest = k; d < length; d++, rest /= alphabet.length) {
          units[d] = alphabet[rest % alphabet.length];
        }
        String s = new String(units);
        assertEquals(loneSurrogateByCodePoints(s), Texts.firstUnpairedSurrogate(s), s::toString);
        checked++;
      }
    }
    assertEquals(37449, checked); // 1 + 8 + ... + 8^5
  }

  /** The reference: the first code point the JDK reads as a surrogate, by its char index. */
  private static int loneSurrogateByCodePoints(String s) {
    for (int i = 0; i < s.length(); i += Character.charCount(s.codePointAt(i))) {
      if (Character.isSurrogate((char) s.codePointAt(i)) && s.codePointAt(i) <= 0xFFFF) {
        return i;
      }
    }
    return -1;
  }


  /** Error messages show caller input quoted, escaped (as Go's %q would) and cut at 80 chars. */
  @Test
  void quote_escapesControlsQuotesAndBackslashes_andCutsLongValues() {
    assertEquals("null", Texts.quote(null));
    assertEquals("\"\"", Texts.quote(""));
    assertEquals("\"uatom\"", Texts.quote("uatom"));
    assertEquals("\" ibc/x \"", Texts.quote(" ibc/x "));
    assertEquals("\"a\\u0000b\\u001fc\\u007fd\\u0080\"", Texts.quote("a\u0000b\u001fc\u007fd\u0080"));
    assertEquals("\"say \\\"hi\\\" \\\\ bye\"", Texts.quote("say \"hi\" \\ bye"));
    String eighty = "x".repeat(80);
    assertEquals("\"" + eighty + "\"", Texts.quote(eighty));
    assertEquals("\"" + eighty + "\"... (81 chars)", Texts.quote(eighty + "y"));
    assertEquals("\"ab\"... (3 chars)", Texts.quote("abc", 2));
    assertEquals("\"abc\"", Texts.quote("abc", 3));
  }

  @Test
  void quote_withAPredicate_escapesWhatItHolds_andStillCutsAndEscapesSurrogates() {
    assertEquals("\"a\\u0080b\\u000a\"", Texts.quote("a\u0080b\n", 80, Character::isISOControl));
    assertEquals("\"a\nb\\ud800\"", Texts.quote("a\nb\ud800", 80, c -> false));
    assertEquals("\"\\u0080\"... (2 chars)", Texts.quote("\u0080\u0080", 8, Character::isISOControl));
    // a code point beyond U+FFFF is tested whole and escaped as its pair, or kept whole
    assertEquals("\"a\\udb40\\udc41\"", Texts.quote("a\udb40\udc41", 80, c -> c == 0xE0041));
    assertEquals("\"\ud83d\ude80\"", Texts.quote("\ud83d\ude80", 80, c -> c == 0xE0041));
  }

  /**
   * The cut counts what is shown, escapes included (found by GenesisFuzzTest: 200 DELs quoted
   * became 1,200 characters); an unpaired surrogate is escaped and a pair never split, so the
   * text is always well-formed Unicode.
   */
  @Test
  void quote_boundsTheShownText_andKeepsItWellFormed() {
    assertEquals("\"\\u007f\\u007f\"... (200 chars)", Texts.quote("\u007f".repeat(200), 13));
    assertEquals("\"" + "\\u000a".repeat(13) + "\"... (1000 chars)", Texts.quote("\n".repeat(1000)));
    assertEquals("\"\\\"\\\"\"... (5 chars)", Texts.quote("\"\"\"\"\"", 5));
    assertEquals("\"a\\ud83d\"", Texts.quote("a\ud83d"));
    assertEquals("\"\\ude00b\"", Texts.quote("\ude00b"));
    assertEquals("\"\ud83d\ude00\"", Texts.quote("\ud83d\ude00"));
    assertEquals("\"a\"... (3 chars)", Texts.quote("a\ud83d\ude00", 2));
    assertEquals("\"a\ud83d\ude00\"", Texts.quote("a\ud83d\ude00", 3));
  }

  @ParameterizedTest
  @CsvSource({
    "0, true", "1F, true", "20, false", "7E, false", "7F, true", "80, true", "85, true", "9F, true",
    "A0, false", "2027, false", "2028, true", "2029, true", "202A, false"
  })
  void isControl_c0C1DelAndLineSeparators(String hex, boolean control) {
    assertEquals(control, Texts.isControl(Integer.parseInt(hex, 16)));
  }

  /** Strict UTF-8: the range only, never a replacement character; the first bad byte's index. */
  @Test
  void strictUtf8_readsTheRange_andNamesTheFirstBadByteInTheWholeArray() {
    byte[] bytes = {'x', 'a', (byte) 0xc3, (byte) 0xa9, 'b', (byte) 0xc0, (byte) 0xaf, 'y'};
    assertEquals("a\u00e9b", Texts.strictUtf8(bytes, 1, 4));
    Texts.MalformedUtf8Exception overlong =
        assertThrows(Texts.MalformedUtf8Exception.class, () -> Texts.strictUtf8(bytes, 1, 6));
    assertEquals(5, overlong.at());
    assertEquals("not valid UTF-8 at byte 5", overlong.getMessage());
    byte[] cut = {'a', (byte) 0xe2, (byte) 0x82};
    assertEquals(1, assertThrows(Texts.MalformedUtf8Exception.class,
        () -> Texts.strictUtf8(cut, 0, 3)).at());
  }

  /** UTF-16 code units as hex joined by '+' (every Go space is one unit: all are in the BMP). */
  private static String utf16(String units) {
    StringBuilder sb = new StringBuilder();
    if (!units.isEmpty()) {
      for (String hex : units.split("\\+")) {
        sb.append((char) Integer.parseInt(hex, 16));
      }
    }
    return sb.toString();
  }
}
