package dev.ratelimit.middleware.ibc;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * Base64 as Go's protojson reads a {@code bytes} field: the URL alphabet if the text has a {@code
 * -} or {@code _}, else the standard one; padding required when the length is a multiple of 4 and
 * forbidden otherwise; {@code \r} and {@code \n} skipped anywhere; non-zero trailing bits accepted
 * (Go's non-strict decoder). A faithful port of {@code encoding/base64}'s {@code decodeQuantum}.
 */
final class GoBase64 {
  private static final String LETTERS_AND_DIGITS =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  private static final int[] STD = decodeMap(LETTERS_AND_DIGITS + "+/");
  private static final int[] URL = decodeMap(LETTERS_AND_DIGITS + "-_");

  private GoBase64() {}

  /** The decoded bytes, or empty when Go's protojson would reject the text. */
  static Optional<byte[]> decodeProtoJsonBytes(String text) {
    boolean url = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
    byte[] src = text.getBytes(StandardCharsets.UTF_8);
    boolean padded = src.length % 4 == 0;
    return decode(src, url ? URL : STD, padded);
  }

  private static Optional<byte[]> decode(byte[] src, int[] map, boolean padded) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(src.length / 4 * 3 + 3);
    int si = 0;
    while (si < src.length) {
      int[] dbuf = new int[4];
      int dlen = 4;
      for (int j = 0; j < 4; j++) {
        if (si == src.length) {
          if (j == 0) {
            return Optional.of(out.toByteArray()); // only newlines were left
          }
          if (j == 1 || padded) {
            return Optional.empty(); // a lone sextet, or a padded text cut short
          }
          dlen = j;
          break;
        }
        int in = src[si++] & 0xff;
        int sextet = map[in];
        if (sextet >= 0) {
          dbuf[j] = sextet;
          continue;
        }
        if (in == '\n' || in == '\r') {
          j--;
          continue;
        }
        if (!padded || in != '=') {
          return Optional.empty();
        }
        // padding: only after two or three sextets, "==" after two
        if (j < 2) {
          return Optional.empty();
        }
        if (j == 2) {
          si = skipNewlines(src, si);
          if (si == src.length || src[si] != '=') {
            return Optional.empty();
          }
          si++;
        }
        si = skipNewlines(src, si);
        if (si < src.length) {
          return Optional.empty(); // data after the padding
        }
        dlen = j;
        break;
      }
      int val = dbuf[0] << 18 | dbuf[1] << 12 | dbuf[2] << 6 | dbuf[3];
      for (int k = 0; k < dlen - 1; k++) {
        out.write((val >>> (16 - 8 * k)) & 0xff);
      }
    }
    return Optional.of(out.toByteArray());
  }

  private static int skipNewlines(byte[] src, int si) {
    while (si < src.length && (src[si] == '\n' || src[si] == '\r')) {
      si++;
    }
    return si;
  }

  private static int[] decodeMap(String alphabet) {
    int[] map = new int[256];
    Arrays.fill(map, -1);
    for (int i = 0; i < alphabet.length(); i++) {
      map[alphabet.charAt(i)] = i;
    }
    return map;
  }
}
