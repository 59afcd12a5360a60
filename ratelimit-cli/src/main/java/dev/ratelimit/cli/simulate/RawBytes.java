package dev.ratelimit.cli.simulate;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The bytes a scenario's raw string ({@code data_raw}, {@code acknowledgement}) stands for. A JSON
 * string holds text, so bytes that are not UTF-8 are written as lone surrogates, the convention of
 * Python's {@code surrogateescape}: U+DC80..U+DCFF is the single byte 0x80..0xFF. Any other lone
 * surrogate becomes its three-byte encoding (Python's {@code surrogatepass}), itself not UTF-8.
 * Everything else is UTF-8. {@link String#getBytes} alone would turn a lone surrogate into {@code
 * ?} and hand the module valid input the scenario never meant.
 */
final class RawBytes {
  private RawBytes() {}

  static byte[] of(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 8);
    int text = 0; // start of the run of well-formed text not written yet
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (!Character.isSurrogate(c)) {
        continue;
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++; // a pair: well-formed text
        continue;
      }
      out.writeBytes(s.substring(text, i).getBytes(StandardCharsets.UTF_8));
      if (c >= 0xDC80 && c <= 0xDCFF) {
        out.write(c - 0xDC00);
      } else { // a lone surrogate's own three bytes, which no decoder accepts
        out.write(0xE0 | (c >> 12));
        out.write(0x80 | ((c >> 6) & 0x3F));
        out.write(0x80 | (c & 0x3F));
      }
      text = i + 1;
    }
    out.writeBytes(s.substring(text).getBytes(StandardCharsets.UTF_8));
    return out.toByteArray();
  }
}
