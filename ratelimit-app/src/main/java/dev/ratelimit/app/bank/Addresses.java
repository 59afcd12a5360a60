package dev.ratelimit.app.bank;

import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.model.Sha256;
import dev.ratelimit.core.model.Texts;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Bech32 account addresses ({@code <prefix>1...}, 20-byte payload, checksum verified) and the
 * deterministic addresses of module and escrow accounts. With prefix {@code osmo}, {@code
 * module("gov")} is {@code osmo10d07y265gmmuvt4z0w9aw880jnsr700jjeq4qp}, Osmosis's real
 * governance address.
 */
public final class Addresses {
  private static final int ADDRESS_BYTES = 20;

  private Addresses() {}

  /**
   * A module account's address as the Cosmos SDK derives it ({@code address.Module(name)}): the
   * first 20 bytes of SHA-256 of the name.
   */
  public static String module(String prefix, String moduleName) {
    return Bech32.encode(prefix, first20(Sha256.hash(moduleName.getBytes(StandardCharsets.UTF_8))));
  }

  /**
   * The ICS-20 escrow account of a channel, as ibc-go's {@code GetEscrowAddress}: the first 20
   * bytes of SHA-256 of {@code "ics20-1" 0x00 "<port>/<channel>"}.
   */
  public static String escrow(String prefix, String portId, String channelId) {
    byte[] version = "ics20-1".getBytes(StandardCharsets.UTF_8);
    byte[] contents = (portId + "/" + channelId).getBytes(StandardCharsets.UTF_8);
    byte[] preimage = new byte[version.length + 1 + contents.length];
    System.arraycopy(version, 0, preimage, 0, version.length);
    System.arraycopy(contents, 0, preimage, version.length + 1, contents.length);
    return Bech32.encode(prefix, first20(Sha256.hash(preimage)));
  }

  /**
   * A user account for examples and tests, derived from a name like a module account ({@code
   * named("osmo", "alice")}); any 20 bytes make a valid account.
   */
  public static String named(String prefix, String name) {
    return module(prefix, "account/" + name);
  }

  /** The bech32 prefix of a well-formed address. */
  public static String prefixOf(String address) {
    return Bech32.decode(address).hrp();
  }

  /** Whether {@code address} is a valid account address with this prefix. */
  public static boolean isValid(String prefix, String address) {
    try {
      validate(prefix, address);
      return true;
    } catch (TxException e) {
      return false;
    }
  }

  /**
   * Checks an address: bech32 with a valid checksum, this prefix, a 20-byte payload.
   *
   * @throws TxException SDK {@code invalid_address} (7) saying what is wrong
   */
  public static void validate(String prefix, String address) {
    Objects.requireNonNull(prefix, "prefix");
    if (address == null || address.isEmpty()) {
      throw TxException.invalidAddress("address must not be empty");
    }
    Bech32.Decoded decoded;
    try {
      decoded = Bech32.decode(address);
    } catch (IllegalArgumentException e) {
      throw TxException.invalidAddress(
          "invalid address " + Texts.quote(address) + ": " + e.getMessage());
    }
    if (!decoded.hrp().equals(prefix)) {
      throw TxException.invalidAddress(
          "address " + Texts.quote(address) + " has prefix " + decoded.hrp()
              + ", expected " + prefix);
    }
    if (decoded.data().length != ADDRESS_BYTES) {
      throw TxException.invalidAddress(
          "address " + Texts.quote(address) + " holds " + decoded.data().length
              + " bytes, expected 20");
    }
  }

  /**
   * {@link #validate}, failing as the governance module's {@code AddressCodec} must: with an {@link
   * IllegalArgumentException} (which it reports as {@code invalid_address}).
   */
  public static void requireValid(String prefix, String address) {
    try {
      validate(prefix, address);
    } catch (TxException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  private static byte[] first20(byte[] digest) {
    return Arrays.copyOf(digest, ADDRESS_BYTES);
  }
}
