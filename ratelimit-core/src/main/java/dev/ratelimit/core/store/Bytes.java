package dev.ratelimit.core.store;

import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Objects;

/**
 * Byte-array helpers shared by the storage engines. Keys compare as <b>unsigned</b> bytes, which is
 * LevelDB's bytewise order: {@code 0x7f < 0x80 < 0xff}, and a proper prefix sorts before every
 * longer key that starts with it. ({@link Arrays#compare(byte[], byte[])} is signed and would put
 * {@code 0x80..0xff} before {@code 0x00}.)
 */
public final class Bytes {
  /** Unsigned lexicographic order; rejects {@code null}. */
  public static final Comparator<byte[]> ORDER = Bytes::compare;

  private static final HexFormat HEX = HexFormat.of();

  private Bytes() {}

  /**
   * Compares unsigned and lexicographically.
   *
   * @return negative, zero or positive as {@code a} sorts before, equal to or after {@code b}
   * @throws NullPointerException if either array is {@code null}
   */
  public static int compare(byte[] a, byte[] b) {
    Objects.requireNonNull(a, "a");
    Objects.requireNonNull(b, "b");
    return Arrays.compareUnsigned(a, b);
  }

  /**
   * The smallest key greater than every key that starts with {@code prefix}: the prefix with its
   * trailing {@code 0xff} bytes dropped and its last remaining byte incremented. For example {@code
   * 01 02 -> 01 03} and {@code 01 ff ff -> 02}.
   *
   * @return a new array, or {@code null} (no upper bound) when {@code prefix} is empty or all
   *     {@code 0xff}
   * @throws NullPointerException if {@code prefix} is {@code null}
   */
  public static byte[] prefixEnd(byte[] prefix) {
    Objects.requireNonNull(prefix, "prefix");
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xff) {
        byte[] end = Arrays.copyOf(prefix, i + 1);
        end[i]++;
        return end;
      }
    }
    return null;
  }

  /** Lower-case hexadecimal, two digits per byte ({@code ""} for an empty array). */
  public static String hex(byte[] bytes) {
    Objects.requireNonNull(bytes, "bytes");
    return HEX.formatHex(bytes);
  }

  /**
   * Parses hexadecimal (either case, no separators).
   *
   * @throws IllegalArgumentException if the length is odd or a character is not a hex digit
   */
  public static byte[] fromHex(String hex) {
    Objects.requireNonNull(hex, "hex");
    try {
      return HEX.parseHex(hex);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("not an even-length hex string: " + quoteShort(hex), e);
    }
  }

  /**
   * Rejects a range whose lower bound sorts after its upper bound ({@code null} = unbounded), with
   * a message naming both in hex: the check every {@link KvStore#scan} makes, for engines to share.
   *
   * @throws IllegalArgumentException if both bounds are given and {@code fromInclusive} sorts after
   *     {@code toExclusive}
   */
  public static void checkRange(byte[] fromInclusive, byte[] toExclusive) {
    if (fromInclusive != null && toExclusive != null && compare(fromInclusive, toExclusive) > 0) {
      throw new IllegalArgumentException(
          "scan range is inverted: fromInclusive "
              + hex(fromInclusive)
              + " sorts after toExclusive "
              + hex(toExclusive));
    }
  }

  static byte[] requireKey(byte[] key) {
    return Objects.requireNonNull(key, "key must not be null");
  }

  static byte[] requireValue(byte[] value) {
    return Objects.requireNonNull(value, "value must not be null (use delete to remove a key)");
  }

  private static String quoteShort(String s) {
    return s.length() <= 80
        ? '"' + s + '"'
        : '"' + s.substring(0, 80) + "\"... (" + s.length() + " chars)";
  }
}
