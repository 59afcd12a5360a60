package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.bank.Bech32Codec;
import dev.ratelimit.app.tx.TxException;
import java.io.ByteArrayOutputStream;
import java.util.Map;
import java.util.Optional;

/**
 * Bech32 addresses (the example app's; a receiver on this chain is one, chosen by the
 * counterparty) against a decoder written here from BIP-173's text: the same strings are valid,
 * with the same prefix and payload, and what is valid encodes back to itself. An address is valid
 * with a payload of 1 to 255 bytes in up to 1023 characters, as the Cosmos SDK reads it (BIP-173
 * alone stops at 90). The app takes lower case only, as the Cosmos SDK prints addresses. A refused
 * address is named in a bounded text without raw control characters: the message goes into a
 * durable event.
 */
class Bech32FuzzTest {
  private static final String CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";

  @FuzzTest(maxDuration = "5m")
  void decode_agreesWithBip173(FuzzedDataProvider in) {
    String prefix = in.consumeBoolean() ? "osmo" : "stride"; // the chain's own: configuration
    String text = address(in);

    Optional<Map.Entry<String, byte[]>> expected = reference(text, 90);
    try {
      Map.Entry<String, byte[]> decoded = Bech32Codec.decode(text);
      assertTrue(expected.isPresent(), "BIP-173 refuses it");
      assertEquals(expected.get().getKey(), decoded.getKey());
      assertArrayEquals(expected.get().getValue(), decoded.getValue());
      assertEquals(text, Bech32Codec.encode(decoded.getKey(), decoded.getValue()), "encodes back");
    } catch (IllegalArgumentException e) {
      Expected.assertReason(e);
      assertTrue(expected.isEmpty(), () -> "BIP-173 takes it: " + e.getMessage());
    }

    Optional<Map.Entry<String, byte[]>> sdk = reference(text, 1023);
    boolean valid = sdk.isPresent() && sdk.get().getKey().equals(prefix)
        && sdk.get().getValue().length >= 1 && sdk.get().getValue().length <= 255;
    if (valid) {
      Addresses.validate(prefix, text);
    } else if (!text.isEmpty()) {
      TxException e = assertThrows(TxException.class, () -> Addresses.validate(prefix, text));
      Expected.assertReason(e);
    }
  }

  /** Text to read as an address: a third valid, a third checksummed, a third anything. */
  static String address(FuzzedDataProvider in) {
    return switch (in.consumeInt(0, 2)) {
      // a valid address, maybe with something after it
      case 0 -> Bech32Codec.encode(hrp(in), in.consumeBytes(in.consumeInt(0, 300)))
          + in.consumeRemainingAsString();
      // any 5-bit groups with a valid checksum: the padding rules decide
      case 1 -> withChecksum(hrp(in), in.consumeRemainingAsBytes());
      default -> in.consumeRemainingAsString();
    };
  }

  private static String hrp(FuzzedDataProvider in) {
    return in.consumeBoolean() ? "osmo" : in.consumeAsciiString(12);
  }

  /**
   * BIP-173's decoding of up to {@code maxLength} characters, lower case only: the prefix and the
   * 8-bit payload, or empty.
   */
  private static Optional<Map.Entry<String, byte[]>> reference(String text, int maxLength) {
    if (text.length() < 8 || text.length() > maxLength) {
      return Optional.empty();
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < 33 || c > 126 || (c >= 'A' && c <= 'Z')) {
        return Optional.empty();
      }
    }
    int separator = text.lastIndexOf('1');
    if (separator < 1 || separator + 7 > text.length()) {
      return Optional.empty();
    }
    String hrp = text.substring(0, separator);
    int[] values = new int[hrp.length() * 2 + 1 + text.length() - separator - 1];
    for (int i = 0; i < hrp.length(); i++) {
      values[i] = hrp.charAt(i) >> 5;
      values[hrp.length() + 1 + i] = hrp.charAt(i) & 31;
    }
    int offset = hrp.length() * 2 + 1;
    for (int i = separator + 1; i < text.length(); i++) {
      int v = CHARSET.indexOf(text.charAt(i));
      if (v < 0) {
        return Optional.empty();
      }
      values[offset++] = v;
    }
    if (polymod(values) != 1) {
      return Optional.empty();
    }
    // the payload: the 5-bit groups before the 6 checksum characters, regrouped by 8, no padding
    ByteArrayOutputStream payload = new ByteArrayOutputStream();
    int acc = 0;
    int bits = 0;
    for (int i = separator + 1; i < text.length() - 6; i++) {
      acc = (acc << 5) | CHARSET.indexOf(text.charAt(i));
      bits += 5;
      if (bits >= 8) {
        bits -= 8;
        payload.write((acc >> bits) & 0xff);
      }
    }
    if (bits >= 5 || (acc & ((1 << bits) - 1)) != 0) {
      return Optional.empty(); // BIP-173: at most 4 bits of padding, all zero
    }
    return Optional.of(Map.entry(hrp, payload.toByteArray()));
  }

  /** {@code hrp}, {@code 1}, the low 5 bits of each of {@code groups} and BIP-173's checksum. */
  private static String withChecksum(String hrp, byte[] groups) {
    int[] values = new int[hrp.length() * 2 + 1 + groups.length + 6];
    for (int i = 0; i < hrp.length(); i++) {
      values[i] = hrp.charAt(i) >> 5;
      values[hrp.length() + 1 + i] = hrp.charAt(i) & 31;
    }
    StringBuilder text = new StringBuilder(hrp).append('1');
    for (int i = 0; i < groups.length; i++) {
      values[hrp.length() * 2 + 1 + i] = groups[i] & 31;
      text.append(CHARSET.charAt(groups[i] & 31));
    }
    int checksum = polymod(values) ^ 1;
    for (int i = 0; i < 6; i++) {
      text.append(CHARSET.charAt((checksum >> (5 * (5 - i))) & 31));
    }
    return text.toString();
  }

  /** BIP-173's checksum polynomial over GF(32). */
  private static int polymod(int[] values) {
    int[] generator = {0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3};
    int chk = 1;
    for (int v : values) {
      int b = chk >>> 25;
      chk = (chk & 0x1ffffff) << 5 ^ v;
      for (int i = 0; i < 5; i++) {
        chk ^= ((b >> i) & 1) != 0 ? generator[i] : 0;
      }
    }
    return chk;
  }
}
