package dev.ratelimit.cli.simulate;

import java.io.ByteArrayOutputStream;

/**
 * The bytes a scenario's raw string ({@code data_raw}, {@code acknowledgement}) stands for. A JSON
 * string holds text, so bytes that are not UTF-8 are written as lone surrogates, the convention of
 * Python's {@code surrogateescape}: U+DC80..U+DCFF is the single byte 0x80..0xFF. Any other lone
 * surrogate becomes its three-byte encoding (Python's {@code surrogatepass}), itself not UTF-8.
 * Everything else is UTF-8. {@link String#getBytes} would turn a lone surrogate into {@code ?}
 * and hand the module valid input the scenario never meant.
 */
final class RawBytes {
  private RawBytes() {}

  static byte[] of(String s) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 8);
    for (int i = 0; i < s.length(); ) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        utf8(out, Character.toCodePoint(c, s.charAt(i + 1)));
        i += 2;
        continue;
      }
      if (c >= 0xDC80 && c <= 0xDCFF) {
        out.write(c - 0xDC00);
      } else {
        utf8(out, c); // a lone surrogate too: three bytes no decoder accepts
      }
      i++;
    }
    return out.toByteArray();
  }

  private static void utf8(ByteArrayOutputStream out, int cp) {
    if (cp < 0x80) {
      out.write(cp);
    } else if (cp < 0x800) {
      out.write(0xC0 | (cp >> 6));
      out.write(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out.write(0xE0 | (cp >> 12));
      out.write(0x80 | ((cp >> 6) & 0x3F));
      out.write(0x80 | (cp & 0x3F));
    } else {
      out.write(0xF0 | (cp >> 18));
      out.write(0x80 | ((cp >> 12) & 0x3F));
      out.write(0x80 | ((cp >> 6) & 0x3F));
      out.write(0x80 | (cp & 0x3F));
    }
  }
}
