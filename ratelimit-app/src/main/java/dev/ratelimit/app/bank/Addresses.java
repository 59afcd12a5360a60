package dev.ratelimit.app.bank;

import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.model.Sha256;
import dev.ratelimit.core.model.Texts;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

/**
 * Bech32 account addresses ({@code <prefix>1...}, checksum verified, a payload of 1 to 255 bytes
 * as the Cosmos SDK's {@code VerifyAddressFormat} allows) and the deterministic addresses of
 * module and escrow accounts. With prefix {@code osmo}, {@code
 * module("gov")} is {@code osmo10d07y265gmmuvt4z0w9aw880jnsr700jjeq4qp}, Osmosis's real
 * governance address.
 */
public final class Addresses {
  /** The bytes of an address this module derives: module, escrow and named accounts. */
  private static final int DERIVED_ADDRESS_BYTES = 20;
  /**
   * The SDK's {@code address.MaxAddrLen}: longer payloads than the usual 20 bytes are real, such as
   * the 32-byte addresses of interchain accounts and of module-derived accounts.
   */
  private static final int MAX_ADDRESS_BYTES = 255;
  /** The SDK reads addresses with {@code bech32.Decode(text, 1023)}, not BIP-173's 90. */
  private static final int MAX_BECH32_LENGTH = 1023;

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

  /**
   * The address of {@code payload} with this prefix, as the SDK's {@code AccAddress.String()}.
   *
   * @throws IllegalArgumentException if the payload is not 1 to 255 bytes
   */
  public static String of(String prefix, byte[] payload) {
    if (payload.length == 0 || payload.length > MAX_ADDRESS_BYTES) {
      throw new IllegalArgumentException(
          "an address holds 1 to " + MAX_ADDRESS_BYTES + " bytes, got " + payload.length);
    }
    return Bech32.encode(prefix, payload);
  }

  /** The bech32 prefix of a well-formed address. */
  public static String prefixOf(String address) {
    return Bech32.decode(address, MAX_BECH32_LENGTH).hrp();
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
   * Checks an address: bech32 with a valid checksum, this prefix, a payload of 1 to 255 bytes.
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
      decoded = Bech32.decode(address, MAX_BECH32_LENGTH);
    } catch (IllegalArgumentException e) {
      throw TxException.invalidAddress(
          "invalid address " + Texts.quote(address) + ": " + e.getMessage());
    }
    if (!decoded.hrp().equals(prefix)) {
      throw TxException.invalidAddress(
          "address " + Texts.quote(address) + " has prefix " + decoded.hrp()
              + ", expected " + prefix);
    }
    int bytes = decoded.data().length;
    if (bytes == 0 || bytes > MAX_ADDRESS_BYTES) {
      throw TxException.invalidAddress(
          "address " + Texts.quote(address) + " holds " + bytes + " bytes, expected 1 to "
              + MAX_ADDRESS_BYTES);
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
    return Arrays.copyOf(digest, DERIVED_ADDRESS_BYTES);
  }
}
