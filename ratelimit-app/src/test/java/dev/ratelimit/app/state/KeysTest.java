package dev.ratelimit.app.state;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class KeysTest {
  private static final byte[] P = {'p', '/'};

  @Test
  void pinnedBytes() {
    assertArrayEquals(
        new byte[] {'p', '/', 2, 'a', 0, (byte) 0xFF, 'b', 0, 0, 0, 0, 0, 0, 0, 1, 7},
        Keys.of(P, 2).string("a\0b").u64(263).build());
  }

  @Test
  void channel1_isNotAPrefixOfChannel11_andOrderIsLogical() {
    byte[] c1 = Keys.of(P, 1).string("channel-1").u64(5).build();
    byte[] c11 = Keys.of(P, 1).string("channel-11").u64(1).build();
    byte[] c1prefix = Keys.of(P, 1).string("channel-1").build();
    assertTrue(startsWith(c1, c1prefix));
    assertTrue(!startsWith(c11, c1prefix));
    assertTrue(Arrays.compareUnsigned(c1, c11) < 0);
    assertTrue(Arrays.compareUnsigned(
        Keys.of(P, 1).u64(255).build(), Keys.of(P, 1).u64(256).build()) < 0);
  }

  @Test
  void readerRoundTrips() {
    byte[] key = Keys.of(P, 3).string("x\0y").string("").u64(Long.MAX_VALUE).build();
    Keys.Reader r = Keys.reader(key, P.length + 1);
    assertEquals("x\0y", r.string());
    assertEquals("", r.string());
    assertEquals(Long.MAX_VALUE, r.u64());
    Keys.Reader numbers = Keys.reader(Keys.of(P, 3).u64(-1L).u64(7).build(), P.length + 1);
    assertEquals(-1L, numbers.u64());
    assertEquals(7, numbers.u64());
  }

  private static boolean startsWith(byte[] a, byte[] prefix) {
    return a.length >= prefix.length
        && Arrays.equals(Arrays.copyOf(a, prefix.length), prefix);
  }
}
