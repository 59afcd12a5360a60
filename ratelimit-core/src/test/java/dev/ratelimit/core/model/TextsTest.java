package dev.ratelimit.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
    "'', false",
    "61, false",
    "D83D+DE00, false",
    "D800, true",
    "DC00, true",
    "61+D83D, true",
    "DE00+D83D, true",
    "D83D+DE00+D83D+DE00, false",
  })
  void hasLoneSurrogate(String units, boolean lone) {
    assertEquals(lone, Texts.hasUnpairedSurrogate(utf16(units)));
  }

  @ParameterizedTest
  @CsvSource({"0, true", "1F, true", "20, false", "7E, false", "7F, true", "80, false", "85, false"})
  void isControl_asciiControlsAndDelOnly(String hex, boolean control) {
    assertEquals(control, Texts.isControl(Integer.parseInt(hex, 16)));
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
