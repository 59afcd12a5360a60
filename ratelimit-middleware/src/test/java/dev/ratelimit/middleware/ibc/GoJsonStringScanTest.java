package dev.ratelimit.middleware.ibc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The fast path's string scanner reads eight bytes at a time: it must find exactly what a
 * byte-by-byte scan finds, wherever in a word the closing quote or the first byte that is not
 * printable ASCII falls, including the last bytes of the input.
 */
class GoJsonStringScanTest {

  /** Every byte value at every position of strings of 0-40 bytes, with and without a close. */
  @Test
  void everyByteAtEveryPosition_endsWhereAByteByByteScanEnds() {
    int checked = 0;
    for (int length = 0; length <= 40; length++) {
      for (int at = 0; at <= length; at++) {
        for (int b = 0; b < 256; b++) {
          for (boolean closed : new boolean[] {true, false}) {
            byte[] json = literal(length, closed);
            if (at < length) {
              json[1 + at] = (byte) b;
            }
            assertEquals(byteByByte(json, 0), GoJson.simpleStringEnd(json, 0),
                "length " + length + ", byte " + b + " at " + at + ", closed " + closed);
            checked++;
          }
        }
      }
    }
    assertEquals(2 * 256 * (41 * 42 / 2), checked);
  }

  @Test
  void stringsOpeningInsideTheInput_andSeededRandomBytes() {
    Random r = new Random(0x57_12_2026L);
    for (int i = 0; i < 50_000; i++) {
      byte[] json = new byte[r.nextInt(70)];
      for (int j = 0; j < json.length; j++) {
        // mostly simple bytes, so scans run long; sometimes anything
        json[j] = r.nextInt(12) == 0 ? (byte) r.nextInt(256) : (byte) (0x20 + r.nextInt(0x5F));
      }
      int start = json.length == 0 ? 0 : r.nextInt(json.length);
      if (json.length > 0 && r.nextBoolean()) {
        json[start] = '"';
      }
      assertEquals(byteByByte(json, start), GoJson.simpleStringEnd(json, start),
          "input " + Arrays.toString(json) + " from " + start);
    }
  }

  @Test
  void notSimple_flagsExactlyTheWordsHoldingABadByte() {
    for (int b = 0; b < 256; b++) {
      boolean simple = b >= 0x20 && b < 0x7F && b != '"' && b != '\\';
      for (int at = 0; at < 8; at++) {
        long word = 0x6161616161616161L; // "aaaaaaaa"
        word = (word & ~(0xFFL << (8 * at))) | ((long) b << (8 * at));
        long flags = GoJson.notSimple(word);
        assertEquals(simple, flags == 0, "byte " + b + " at " + at);
        if (!simple) {
          assertEquals(at, Long.numberOfTrailingZeros(flags) >>> 3, "byte " + b + " at " + at);
        }
      }
    }
  }

  private static byte[] literal(int length, boolean closed) {
    byte[] json = new byte[length + 2];
    json[0] = '"';
    for (int i = 1; i <= length; i++) {
      json[i] = (byte) ('a' + i % 26);
    }
    json[length + 1] = closed ? (byte) '"' : (byte) 'z';
    return json;
  }

  /** The definition: printable ASCII but {@code "} and {@code \} up to a closing quote. */
  private static int byteByByte(byte[] json, int start) {
    if (start >= json.length || json[start] != '"') {
      return -1;
    }
    for (int i = start + 1; i < json.length; i++) {
      int b = json[i] & 0xFF;
      if (b == '"') {
        return i;
      }
      if (b < 0x20 || b >= 0x7F || b == '\\') {
        return -1;
      }
    }
    return -1;
  }
}
