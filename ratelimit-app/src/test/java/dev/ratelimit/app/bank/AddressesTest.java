package dev.ratelimit.app.bank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.tx.TxException;
import org.junit.jupiter.api.Test;

class AddressesTest {
  @Test
  void moduleAddress_isTheCosmosSdkDerivation() {
    // the real gov module accounts of Osmosis and Stride
    assertEquals("osmo10d07y265gmmuvt4z0w9aw880jnsr700jjeq4qp", Addresses.module("osmo", "gov"));
    assertEquals("stride10d07y265gmmuvt4z0w9aw880jnsr700jefnezl", Addresses.module("stride", "gov"));
  }

  @Test
  void escrowAddress_isIbcGosDerivation() {
    // sha256("ics20-1\0transfer/channel-326")[:20], bech32 (computed independently)
    assertEquals("osmo1a6usu3y3t5fcxa4kdtv4cgj7cmav7j0lj83v6j",
        Addresses.escrow("osmo", "transfer", "channel-326"));
    assertEquals("stride16h2ynrzwhxgjnd0hswkvdvq9nav9kklq08fhf4",
        Addresses.escrow("stride", "transfer", "channel-5"));
  }

  @Test
  void validate_checksPrefixChecksumAndLength() {
    String ok = Addresses.named("osmo", "alice");
    Addresses.validate("osmo", ok);
    assertFalse(Addresses.isValid("stride", ok), "wrong prefix");
    String flipped = ok.substring(0, ok.length() - 1) + (ok.endsWith("q") ? "p" : "q");
    assertFalse(Addresses.isValid("osmo", flipped), "bad checksum");
    assertFalse(Addresses.isValid("osmo", ok.toUpperCase(java.util.Locale.ROOT)));
    assertFalse(Addresses.isValid("osmo", "osmo1sender"));
    assertFalse(Addresses.isValid("osmo", ""));
    TxException e = assertThrows(TxException.class, () -> Addresses.validate("osmo", "osmo1bad"));
    assertEquals(7, e.code());
    assertTrue(Addresses.isValid("osmo", Addresses.module("osmo", "gov")));
  }

  /**
   * A refused address is shown quoted, escaped and cut: a counterparty chooses a received
   * packet's receiver, and the message goes into a durable event.
   */
  @Test
  void validate_showsTheAddressEscapedAndCut() {
    TxException bad = assertThrows(TxException.class,
        () -> Addresses.validate("osmo", "osmo1\nforged: line"));
    assertEquals("invalid address \"osmo1\\u000aforged: line\": invalid bech32 character "
        + "\"\\u000a\"", bad.getMessage());
    String huge = "osmo1" + "q".repeat(1_000_000);
    TxException tooLong = assertThrows(TxException.class, () -> Addresses.validate("osmo", huge));
    assertEquals("invalid address \"" + huge.substring(0, 80) + "\"... (1000005 chars): "
        + "bech32 length must be in [8, 1023], got 1000005", tooLong.getMessage());
  }

  /**
   * Any payload of 1 to 255 bytes is an address, as the SDK's {@code VerifyAddressFormat} says:
   * interchain accounts and module-derived accounts have 32 bytes. A 255-byte address is 419
   * characters long, beyond BIP-173's 90, so the SDK's limit of 1023 characters applies.
   */
  @Test
  void validate_takesPayloadsOfOneTo255Bytes() {
    for (int bytes : new int[] {1, 20, 32, 255}) {
      String address = Addresses.of("osmo", filled(bytes));
      assertEquals(Bech32.encode("osmo", filled(bytes)), address);
      assertTrue(Addresses.isValid("osmo", address), bytes + " bytes");
      assertEquals("osmo", Addresses.prefixOf(address));
    }
    assertEquals(419, Bech32.encode("osmo", filled(255)).length());
    String empty = Bech32.encode("osmo", new byte[0]);
    TxException none = assertThrows(TxException.class, () -> Addresses.validate("osmo", empty));
    assertEquals(7, none.code());
    assertEquals("address \"" + empty + "\" holds 0 bytes, expected 1 to 255", none.getMessage());
    String long256 = Bech32.encode("osmo", filled(256));
    TxException tooMany = assertThrows(TxException.class,
        () -> Addresses.validate("osmo", long256));
    assertEquals("address \"" + long256.substring(0, 80) + "\"... (421 chars) holds 256 bytes, "
        + "expected 1 to 255", tooMany.getMessage());
    assertEquals("an address holds 1 to 255 bytes, got 0", assertThrows(
        IllegalArgumentException.class, () -> Addresses.of("osmo", new byte[0])).getMessage());
    assertEquals("an address holds 1 to 255 bytes, got 256", assertThrows(
        IllegalArgumentException.class, () -> Addresses.of("osmo", filled(256))).getMessage());
  }

  @Test
  void validate_readsUpTo1023Characters() {
    // a 1023-character string is read (and refused only for its 632 bytes), one more is not
    String atLimit = Bech32.encode("osmo", filled(632));
    assertEquals(1023, atLimit.length());
    assertTrue(assertThrows(TxException.class, () -> Addresses.validate("osmo", atLimit))
        .getMessage().endsWith(" holds 632 bytes, expected 1 to 255"));
    String beyond = Bech32.encode("osmox", filled(632));
    assertTrue(assertThrows(TxException.class, () -> Addresses.validate("osmox", beyond))
        .getMessage().endsWith(": bech32 length must be in [8, 1023], got 1024"));
  }

  private static byte[] filled(int length) {
    byte[] bytes = new byte[length];
    java.util.Arrays.fill(bytes, (byte) 0xA5);
    return bytes;
  }
}
