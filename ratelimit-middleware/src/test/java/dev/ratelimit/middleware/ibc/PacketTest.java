package dev.ratelimit.middleware.ibc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PacketTest {
  private static final byte[] DATA =
      "{\"denom\":\"uatom\",\"amount\":\"1\",\"sender\":\"a\",\"receiver\":\"b\"}"
          .getBytes(StandardCharsets.UTF_8);

  private static Packet packet(byte[] data) {
    return new Packet(
        7, "transfer", "channel-0", "transfer", "channel-5", data, new Height(1, 100), 0);
  }

  @Test
  void data_isCopiedInAndOut() {
    byte[] in = DATA.clone();
    Packet p = packet(in);
    in[0] = 'X';
    p.data()[1] = 'Y';
    assertArrayEquals(DATA, p.data());
  }

  @Test
  void equality_usesTheDataContent() {
    Packet a = packet(DATA.clone());
    Packet b = packet(DATA.clone());
    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, packet(new byte[] {1}));
    assertNotEquals(
        a,
        new Packet(
            8, "transfer", "channel-0", "transfer", "channel-5", DATA, new Height(1, 100), 0));
    assertNotEquals(
        a, new Packet(7, "transfer", "channel-0", "transfer", "channel-5", DATA, Height.ZERO, 0));
    assertNotEquals(
        a,
        new Packet(
            7, "transfer", "channel-0", "transfer", "channel-5", DATA, new Height(1, 100), 1));
  }

  @Test
  void toString_showsTheDataAndUnsignedNumbers() {
    Packet p =
        new Packet(
            -1,
            "transfer",
            "channel-0",
            "transfer",
            "channel-5",
            new byte[] {1, 2, 3},
            new Height(-1, 5),
            -1);
    String s = p.toString();
    assertTrue(s.contains("sequence=18446744073709551615"), s);
    assertTrue(s.contains("(3 bytes) AQID"), s);
    assertTrue(s.contains("timeoutHeight=18446744073709551615-5"), s);
    assertTrue(s.contains("timeoutTimestamp=18446744073709551615"), s);
    assertTrue(packet(new byte[100]).toString().contains("(100 bytes)"));
  }

  @Test
  void nullFields_areRejected() {
    Height h = Height.ZERO;
    assertThrows(NullPointerException.class, () -> new Packet(1, null, "c", "p", "c", DATA, h, 0));
    assertThrows(NullPointerException.class, () -> new Packet(1, "p", null, "p", "c", DATA, h, 0));
    assertThrows(NullPointerException.class, () -> new Packet(1, "p", "c", null, "c", DATA, h, 0));
    assertThrows(NullPointerException.class, () -> new Packet(1, "p", "c", "p", null, DATA, h, 0));
    assertThrows(NullPointerException.class, () -> new Packet(1, "p", "c", "p", "c", null, h, 0));
    assertThrows(
        NullPointerException.class, () -> new Packet(1, "p", "c", "p", "c", DATA, null, 0));
  }

  @Test
  void height_zeroAndUnsignedText() {
    assertTrue(Height.ZERO.isZero());
    assertFalse(new Height(0, 1).isZero());
    assertEquals("1-100", new Height(1, 100).toString());
    assertEquals("0-18446744073709551615", new Height(0, -1).toString());
  }

  @Test
  void counterparty_allowsAnEmptyChannelButNotNull() {
    assertEquals("", new Counterparty("transfer", "").channelId());
    assertThrows(NullPointerException.class, () -> new Counterparty(null, ""));
    assertThrows(NullPointerException.class, () -> new Counterparty("transfer", null));
  }
}
