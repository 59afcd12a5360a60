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
        + "bech32 length must be in [8, 90], got 1000005", tooLong.getMessage());
  }
}
