package dev.ratelimit.app.bank;

import dev.ratelimit.core.model.Texts;
import java.io.ByteArrayOutputStream;
import java.util.Locale;
import java.util.Objects;

/** Bech32 (BIP-173) encoding of addresses, as the Cosmos SDK writes them. */
final class Bech32 {
  private static final String CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
  private static final int[] GENERATOR = {
    0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3
  };

  private Bech32() {}

  /** The human-readable part and the 8-bit payload of an address. */
  record Decoded(String hrp, byte[] data) {}

  static String encode(String hrp, byte[] data) {
    byte[] five = convertBits(data, 8, 5, true);
    byte[] checksum = checksum(hrp, five);
    StringBuilder sb = new StringBuilder(hrp.length() + 1 + five.length + 6).append(hrp).append('1');
    for (byte b : five) {
      sb.append(CHARSET.charAt(b));
    }
    for (byte b : checksum) {
      sb.append(CHARSET.charAt(b));
    }
    return sb.toString();
  }

  /** BIP-173's limit on the length of a bech32 string. */
  static final int BIP173_MAX_LENGTH = 90;

  /** {@link #decode(String, int)} with BIP-173's limit of 90 characters. */
  static Decoded decode(String text) {
    return decode(text, BIP173_MAX_LENGTH);
  }

  /**
   * Decodes and verifies a bech32 string of at most {@code maxLength} characters (lower case only,
   * as the SDK prints addresses).
   *
   * @throws IllegalArgumentException saying what is wrong
   */
  static Decoded decode(String text, int maxLength) {
    Objects.requireNonNull(text, "address");
    if (text.length() < 8 || text.length() > maxLength) {
      throw new IllegalArgumentException(
          "bech32 length must be in [8, " + maxLength + "], got " + text.length());
    }
    if (!text.equals(text.toLowerCase(Locale.ROOT))) {
      throw new IllegalArgumentException("bech32 address must be lower case");
    }
    int sep = text.lastIndexOf('1');
    if (sep < 1 || sep + 7 > text.length()) {
      throw new IllegalArgumentException("bech32 separator '1' missing or misplaced");
    }
    String hrp = text.substring(0, sep);
    for (int i = 0; i < hrp.length(); i++) {
      char c = hrp.charAt(i);
      if (c < 33 || c > 126) {
        throw new IllegalArgumentException("invalid character in bech32 prefix");
      }
    }
    byte[] values = new byte[text.length() - sep - 1];
    for (int i = 0; i < values.length; i++) {
      int v = CHARSET.indexOf(text.charAt(sep + 1 + i));
      if (v < 0) {
        throw new IllegalArgumentException(
            "invalid bech32 character " + Texts.quote(String.valueOf(text.charAt(sep + 1 + i))));
      }
      values[i] = (byte) v;
    }
    if (polymod(concat(hrpExpand(hrp), values)) != 1) {
      throw new IllegalArgumentException("invalid bech32 checksum");
    }
    byte[] five = new byte[values.length - 6];
    System.arraycopy(values, 0, five, 0, five.length);
    return new Decoded(hrp, convertBits(five, 5, 8, false));
  }

  private static byte[] checksum(String hrp, byte[] five) {
    byte[] values = concat(concat(hrpExpand(hrp), five), new byte[6]);
    int mod = polymod(values) ^ 1;
    byte[] out = new byte[6];
    for (int i = 0; i < 6; i++) {
      out[i] = (byte) ((mod >>> (5 * (5 - i))) & 31);
    }
    return out;
  }

  private static int polymod(byte[] values) {
    int chk = 1;
    for (byte v : values) {
      int top = chk >>> 25;
      chk = ((chk & 0x1ffffff) << 5) ^ (v & 0xff);
      for (int i = 0; i < 5; i++) {
        if (((top >>> i) & 1) != 0) {
          chk ^= GENERATOR[i];
        }
      }
    }
    return chk;
  }

  private static byte[] hrpExpand(String hrp) {
    byte[] out = new byte[hrp.length() * 2 + 1];
    for (int i = 0; i < hrp.length(); i++) {
      out[i] = (byte) (hrp.charAt(i) >>> 5);
      out[i + hrp.length() + 1] = (byte) (hrp.charAt(i) & 31);
    }
    return out;
  }

  private static byte[] convertBits(byte[] in, int from, int to, boolean pad) {
    int acc = 0;
    int bits = 0;
    int max = (1 << to) - 1;
    ByteArrayOutputStream out = new ByteArrayOutputStream(in.length * from / to + 1);
    for (byte b : in) {
      acc = (acc << from) | (b & 0xff);
      bits += from;
      while (bits >= to) {
        bits -= to;
        out.write((acc >>> bits) & max);
      }
    }
    if (pad) {
      if (bits > 0) {
        out.write((acc << (to - bits)) & max);
      }
    } else if (bits >= from || ((acc << (to - bits)) & max) != 0) {
      throw new IllegalArgumentException("invalid bech32 padding");
    }
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
