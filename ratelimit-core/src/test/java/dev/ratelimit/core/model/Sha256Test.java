package dev.ratelimit.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The per-thread digest starts every hash clean: FIPS 180-2 vectors, repeated and interleaved. */
class Sha256Test {
  private static final String EMPTY =
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  private static final String ABC =
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
  private static final String TWO_BLOCKS = // "abcdbcde...nopq", 56 bytes: padding takes a 2nd block
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1";

  @Test
  void knownVectors_repeatedAndInterleaved_andAfterANullInput() {
    for (int round = 0; round < 3; round++) {
      assertEquals(ABC, hex("abc"));
      assertEquals(EMPTY, hex(""));
      assertEquals(TWO_BLOCKS, hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"));
      assertThrows(NullPointerException.class, () -> Sha256.hash(null));
    }
    assertEquals(ABC, hex("abc"));
  }

  private static String hex(String text) {
    return HexFormat.of().formatHex(Sha256.hash(text.getBytes(StandardCharsets.US_ASCII)));
  }
}
