package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.middleware.ibc.GoJson;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * ICS-20 packet data as Solidity's {@code abi.encode} writes the struct {@code
 * IICS20TransferMsgs.FungibleTokenPacketData {string denom; string sender; string receiver; uint256
 * amount; string memo;}} of IBC Eureka's ICS-20 app (cosmos/solidity-ibc-eureka), the {@code
 * application/x-solidity-abi} payload encoding, as ibc-go's {@code
 * EncodeABIFungibleTokenPacketData} writes it (one tuple argument of those five fields, in that
 * order; note the amount's place).
 *
 * <p>Layout, in 32-byte words: the tuple's offset (32); the tuple's head: the offsets of denom,
 * sender and receiver, the amount (big-endian), the offset of memo, offsets counted from the
 * tuple's start; then each string in that order: its byte length, its UTF-8 bytes, zeros to the
 * next word.
 */
final class AbiPacketData {
  private static final int WORD = 32;

  /** Where the tuple starts: after the word holding its offset. */
  private static final int BASE = WORD;

  /** The tuple's head: five words. */
  private static final int HEAD = 5 * WORD;

  /** The amount's word in the head. */
  private static final int AMOUNT_SLOT = 3;

  /** The strings, in tuple order, as {@link PacketDataCodec#KEYS} indices ... */
  private static final int[] STRINGS = {
    PacketDataCodec.DENOM, PacketDataCodec.SENDER, PacketDataCodec.RECEIVER, PacketDataCodec.MEMO
  };

  /** ... and the head words holding their offsets. */
  private static final int[] SLOTS = {0, 1, 2, 4};

  private AbiPacketData() {}

  /**
   * Decodes strictly and within the input's bounds: refuses (code 9) anything but the one layout
   * {@code abi.encode} writes: offsets other than the canonical ones (so no two byte strings mean
   * the same data), a length past the end, non-zero padding, bytes after the last string, text that
   * is not UTF-8. The amount is a uint256, so it is never out of range; then {@link
   * PacketDataCodec#fromFields} applies the field rules (a blank denom, sender or receiver is code
   * 9).
   */
  static FungibleTokenPacketData decode(byte[] value) {
    requireWord(value, 0, BASE, "the tuple's offset");
    String[] fields = new String[PacketDataCodec.KEYS.size()];
    int next = HEAD; // the canonical offset of the next string, from the tuple's start
    for (int i = 0; i < STRINGS.length; i++) {
      String field = PacketDataCodec.KEYS.get(STRINGS[i]);
      requireWord(value, BASE + SLOTS[i] * WORD, next, field + "'s offset");
      int lengthAt = BASE + next;
      int length = length(value, lengthAt, field);
      int at = lengthAt + WORD;
      long padded = roundUp(length);
      if (padded > value.length - at) {
        throw refused(field + "'s padding" + pastEnd(value));
      }
      int padEnd = at + (int) padded;
      for (int k = at + length; k < padEnd; k++) {
        if (value[k] != 0) {
          throw refused(field + " has a non-zero padding byte at byte " + k);
        }
      }
      fields[STRINGS[i]] = GoJson.utf8(value, at, length,
          ErrorCode.INVALID_PACKET_DATA, field + " is ");
      next += WORD + (int) padded;
    }
    int end = BASE + next;
    if (value.length != end) {
      throw refused(
          "the " + value.length + "-byte value goes on after the memo, which ends at byte " + end);
    }
    int amountAt = BASE + AMOUNT_SLOT * WORD;
    BigInteger amount = new BigInteger(1, Arrays.copyOfRange(value, amountAt, amountAt + WORD));
    fields[PacketDataCodec.AMOUNT] = amount.toString();
    return PacketDataCodec.fromFields(fields);
  }

  /** Refuses unless the word at {@code at} is there and holds {@code expected}. */
  private static void requireWord(byte[] value, int at, int expected, String what) {
    requirePresent(value, at, what);
    BigInteger word = word(value, at);
    if (!word.equals(BigInteger.valueOf(expected))) {
      throw refused(what + " (at byte " + at + ") is " + word + ", not the canonical " + expected);
    }
  }

  /** The string length at {@code at}, refused unless its bytes fit before the end. */
  private static int length(byte[] value, int at, String field) {
    requirePresent(value, at, field + "'s length");
    BigInteger length = word(value, at);
    if (length.compareTo(BigInteger.valueOf(value.length - at - WORD)) > 0) {
      throw refused(field + "'s length " + length + " (at byte " + at + ")" + pastEnd(value));
    }
    return length.intValue();
  }

  private static void requirePresent(byte[] value, int at, String what) {
    if (at > value.length - WORD) {
      throw refused(what + " (at byte " + at + ")" + pastEnd(value));
    }
  }

  private static String pastEnd(byte[] value) {
    return " runs past the end of the " + value.length + "-byte value";
  }

  /** The unsigned 256-bit word at {@code at} (at most 78 decimal digits in a message). */
  private static BigInteger word(byte[] value, int at) {
    return new BigInteger(1, Arrays.copyOfRange(value, at, at + WORD));
  }

  /** {@code length} rounded up to whole words (in a long: no overflow near 2^31). */
  private static long roundUp(int length) {
    return ((long) length + WORD - 1) / WORD * WORD;
  }

  private static RateLimitException refused(String message) {
    return new RateLimitException(ErrorCode.INVALID_PACKET_DATA, message);
  }

  /**
   * Encodes as {@code abi.encode} does (the layout above; an empty string is its zero length word
   * alone).
   *
   * @throws NullPointerException if {@code data} is {@code null}
   */
  static byte[] encode(FungibleTokenPacketData data) {
    String[] strings = {data.denom(), data.sender(), data.receiver(), data.memo()}; // tuple order
    byte[][] utf8 = new byte[strings.length][];
    long size = BASE + HEAD;
    for (int i = 0; i < strings.length; i++) {
      utf8[i] = strings[i].getBytes(StandardCharsets.UTF_8);
      size += WORD + roundUp(utf8[i].length);
    }
    byte[] out = new byte[Math.toIntExact(size)];
    putInt(out, 0, BASE);
    int next = HEAD;
    for (int i = 0; i < utf8.length; i++) {
      putInt(out, BASE + SLOTS[i] * WORD, next);
      putInt(out, BASE + next, utf8[i].length);
      System.arraycopy(utf8[i], 0, out, BASE + next + WORD, utf8[i].length);
      next += WORD + (int) roundUp(utf8[i].length);
    }
    byte[] amount = data.amount().toByteArray(); // a leading sign byte (0) beyond 32 is dropped
    int n = Math.min(amount.length, WORD);
    System.arraycopy(amount, amount.length - n, out, BASE + AMOUNT_SLOT * WORD + WORD - n, n);
    return out;
  }

  /** A non-negative int as the low bytes of the (zero) word at {@code at}. */
  private static void putInt(byte[] out, int at, int value) {
    for (int k = 0; k < Integer.BYTES; k++) {
      out[at + WORD - 1 - k] = (byte) (value >>> (8 * k));
    }
  }
}
