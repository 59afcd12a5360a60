package dev.ratelimit.app.chain;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ratelimit.core.store.WriteBatch;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** The app hash's encoding: pinned, since changing it forks the chain. */
class AppHashChainTest {
  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.US_ASCII);
  }

  @Test
  void next_isSha256OfThePreviousHashAndTheOperationsInKeyOrder() throws Exception {
    byte[] previous = new byte[32];
    previous[0] = 7;
    // written out of order: hashed in key order, "a" put then "cd" delete
    WriteBatch batch = new WriteBatch().delete(ascii("cd")).put(ascii("a"), ascii("xyz"));

    MessageDigest expected = MessageDigest.getInstance("SHA-256");
    expected.update(previous);
    expected.update(HexFormat.of().parseHex("01" + "00000001" + "61" + "00000003" + "78797a"));
    expected.update(HexFormat.of().parseHex("00" + "00000002" + "6364"));

    assertArrayEquals(expected.digest(), AppHash.next(previous, batch));
  }

  @Test
  void next_pinnedVector() {
    WriteBatch batch = new WriteBatch().put(ascii("k"), ascii("v"));

    // sha256(32 zero bytes, 01, 00000001 "k", 00000001 "v"), computed outside Java
    assertEquals(
        "9ed1c703f09038c7fd4e06e94822779f2564380d60fd9642e444aebbe30c5a4a",
        HexFormat.of().formatHex(AppHash.next(AppHash.BEFORE_GENESIS, batch)));
  }

  @Test
  void next_tellsAnEmptyValueFromADelete_andDependsOnThePreviousHash() {
    byte[] empty =
        AppHash.next(AppHash.BEFORE_GENESIS, new WriteBatch().put(ascii("k"), new byte[0]));
    byte[] deleted = AppHash.next(AppHash.BEFORE_GENESIS, new WriteBatch().delete(ascii("k")));
    byte[] otherParent = new byte[32];
    otherParent[31] = 1;

    assertFalse(Arrays.equals(empty, deleted));
    assertFalse(Arrays.equals(
        deleted, AppHash.next(otherParent, new WriteBatch().delete(ascii("k")))));
    // key and value boundaries are unambiguous: "ab" -> "c" is not "a" -> "bc"
    assertFalse(Arrays.equals(
        AppHash.next(AppHash.BEFORE_GENESIS, new WriteBatch().put(ascii("ab"), ascii("c"))),
        AppHash.next(AppHash.BEFORE_GENESIS, new WriteBatch().put(ascii("a"), ascii("bc")))));
  }

  @Test
  void next_refusesAWrongPreviousLengthAndABatchWritingTheHashKey() {
    WriteBatch batch = new WriteBatch().put(ascii("k"), ascii("v"));
    assertEquals(
        "a previous app hash has 32 bytes, got 31",
        assertThrows(IllegalArgumentException.class, () -> AppHash.next(new byte[31], batch))
            .getMessage());
    assertEquals(
        "a block must not write the app hash's own key",
        assertThrows(
                IllegalArgumentException.class,
                () -> AppHash.next(AppHash.BEFORE_GENESIS, new WriteBatch().delete(AppHash.KEY)))
            .getMessage());
  }
}
