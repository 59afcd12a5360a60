package dev.ratelimit.cli.simulate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RawBytesTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "'ascii', 'ab', 6162",
    "'two-byte', '\u00e9', c3a9",
    "'three-byte', '\u4e2d', e4b8ad",
    "'surrogate pair: four bytes', '\ud83d\ude00', f09f9880",
    "'U+DC80 is the byte 0x80', 'a\udc80b', 618062",
    "'U+DCFF is the byte 0xFF', '\udcff', ff",
    "'escaped bytes in a row', '\udcc3\udca9', c3a9",
    "'lone high surrogate: its three bytes', 'x\ud800', 78eda080",
    "'lone low surrogate below U+DC80: its three bytes', '\udc7f', edb1bf",
    "'high surrogate before an escaped byte', '\ud83d\udc80', f09f9280",
    "'reversed pair', '\ude00\ud83d', edb880eda0bd",
  })
  void of(String name, String text, String hex) {
    assertArrayEquals(HexFormat.of().parseHex(hex), RawBytes.of(text), name);
  }

  @Test
  void textWithoutLoneSurrogates_isItsUtf8() {
    Random random = new Random(22);
    for (int n = 0; n < 2_000; n++) {
      StringBuilder sb = new StringBuilder();
      for (int i = random.nextInt(12); i > 0; i--) {
        int cp;
        do {
          cp = random.nextBoolean() ? random.nextInt(0x800) : random.nextInt(0x110000);
        } while (cp >= 0xD800 && cp <= 0xDFFF);
        sb.appendCodePoint(cp);
      }
      String s = sb.toString();
      assertArrayEquals(s.getBytes(StandardCharsets.UTF_8), RawBytes.of(s), s);
    }
  }
}
