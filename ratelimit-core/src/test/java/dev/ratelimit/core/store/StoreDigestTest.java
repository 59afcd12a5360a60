package dev.ratelimit.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Pins the digest encoding: it becomes the app hash, so a change here forks the chain. */
class StoreDigestTest {

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void emptyStore_isSha256OfNothing() {
    assertEquals(
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        StoreDigest.hex(new MemoryKvStore()));
  }

  @Test
  void entries_areLengthPrefixedBigEndianInKeyOrder() {
    MemoryKvStore store = new MemoryKvStore();
    // inserted out of order: the digest follows key order, not insertion order
    store.put(new byte[] {(byte) 0x80, (byte) 0xff}, new byte[0]);
    store.put(utf8("a"), utf8("b"));
    // sha256(00000001 61 00000001 62  00000002 80ff 00000000), computed with sha256sum
    assertEquals(
        "26da959b3550108264f4392f977aabac60c31786cf4b924044e972df9e036e22", StoreDigest.hex(store));
    store.delete(new byte[] {(byte) 0x80, (byte) 0xff});
    // sha256(00000001 61 00000001 62)
    assertEquals(
        "16275ef0f5d0eb9dd9e0a53277549fda5c886358a6872df23c797b13e11455bc", StoreDigest.hex(store));
  }

  @Test
  void lengthPrefixes_separateKeyFromValue() {
    MemoryKvStore abC = new MemoryKvStore();
    abC.put(utf8("ab"), utf8("c"));
    MemoryKvStore aBc = new MemoryKvStore();
    aBc.put(utf8("a"), utf8("bc"));
    assertNotEquals(StoreDigest.hex(abC), StoreDigest.hex(aBc));
  }

  @Test
  void sha256_is32BytesMatchingHex() {
    MemoryKvStore store = new MemoryKvStore();
    store.put(utf8("k"), utf8("v"));
    byte[] digest = StoreDigest.sha256(store);
    assertEquals(32, digest.length);
    assertEquals(Bytes.hex(digest), StoreDigest.hex(store));
  }
}
