package dev.ratelimit.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class BytesTest {

  @Test
  void compare_isUnsignedUnlikeArraysCompare() {
    byte[] x7f = {0x7f};
    byte[] x80 = {(byte) 0x80};
    assertTrue(Bytes.compare(x7f, x80) < 0, "0x7f sorts before 0x80");
    assertTrue(Arrays.compare(x7f, x80) > 0, "signed compare gets it backwards");
    assertTrue(Bytes.compare(new byte[] {0}, new byte[] {(byte) 0xff}) < 0);
    assertEquals(0, Bytes.compare(new byte[] {1, (byte) 0x90}, new byte[] {1, (byte) 0x90}));
  }

  @Test
  void compare_properPrefixSortsFirst() {
    assertTrue(Bytes.compare(new byte[0], new byte[] {0}) < 0);
    assertTrue(Bytes.compare(new byte[] {1}, new byte[] {1, 0}) < 0);
    assertTrue(Bytes.compare(new byte[] {1, (byte) 0xff}, new byte[] {2}) < 0);
  }

  @Test
  void order_sortsAsLevelDb() {
    List<byte[]> keys = new ArrayList<>();
    for (String hex : List.of("ff", "80", "00", "7f", "ff00", "", "0000")) {
      keys.add(Bytes.fromHex(hex));
    }
    keys.sort(Bytes.ORDER);
    assertEquals(
        List.of("", "00", "0000", "7f", "80", "ff", "ff00"),
        keys.stream().map(Bytes::hex).toList());
  }

  @ParameterizedTest(name = "prefixEnd({0}) = {1}")
  @CsvSource({
    "01, 02",
    "0102, 0103",
    "7f, 80",
    "fe, ff",
    "01ff, 02",
    "01ffff, 02",
    "00ff00, 00ff01",
    "80ff, 81",
  })
  void prefixEnd_incrementsLastNonFfByteAndDropsTheRest(String prefix, String end) {
    assertEquals(end, Bytes.hex(Bytes.prefixEnd(Bytes.fromHex(prefix))));
  }

  @Test
  void prefixEnd_isNullForEmptyAndAllFf() {
    assertNull(Bytes.prefixEnd(new byte[0]));
    assertNull(Bytes.prefixEnd(Bytes.fromHex("ff")));
    assertNull(Bytes.prefixEnd(Bytes.fromHex("ffffff")));
  }

  @Test
  void prefixEnd_leavesItsArgumentAlone() {
    byte[] prefix = Bytes.fromHex("01ff");
    Bytes.prefixEnd(prefix);
    assertArrayEquals(new byte[] {1, (byte) 0xff}, prefix);
  }

  @Test
  void hex_roundTripsLowerCase() {
    byte[] all = new byte[256];
    for (int i = 0; i < 256; i++) {
      all[i] = (byte) i;
    }
    String hex = Bytes.hex(all);
    assertEquals("000102", hex.substring(0, 6));
    assertEquals("7f80", hex.substring(254, 258));
    assertEquals("feff", hex.substring(508));
    assertArrayEquals(all, Bytes.fromHex(hex));
    assertArrayEquals(new byte[] {(byte) 0xab}, Bytes.fromHex("AB"));
    assertEquals("", Bytes.hex(new byte[0]));
  }

  @Test
  void fromHex_rejectsOddLengthAndNonHex() {
    assertThrows(IllegalArgumentException.class, () -> Bytes.fromHex("abc"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Bytes.fromHex("zz"));
    assertTrue(e.getMessage().contains("\"zz\""), e.getMessage());
  }

  @Test
  void nulls_areRejected() {
    assertThrows(NullPointerException.class, () -> Bytes.compare(null, new byte[0]));
    assertThrows(NullPointerException.class, () -> Bytes.prefixEnd(null));
    assertThrows(NullPointerException.class, () -> Bytes.hex(null));
    assertThrows(NullPointerException.class, () -> Bytes.fromHex(null));
  }
}
