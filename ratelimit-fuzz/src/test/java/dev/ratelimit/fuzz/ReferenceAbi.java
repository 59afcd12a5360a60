package dev.ratelimit.fuzz;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An independent reading of {@code abi.encode(FungibleTokenPacketData)} for the Solidity struct
 * {@code {string denom; string sender; string receiver; uint256 amount; string memo;}}, from the
 * Solidity ABI specification ("Formal Specification of the Encoding"): the one argument is a
 * dynamic tuple, so the encoding is its offset, then the tuple: a head of five words (a string's
 * offset from the tuple's start, or the uint256 itself) and each string as its length word and its
 * bytes padded with zeros to a whole word. Any offsets within the bytes are read (as a lenient
 * decoder does); then {@code Ics20PayloadCodec}'s canonical-layout rule: the bytes must be exactly
 * what {@code abi.encode} writes for what was read. Shares no code with {@code AbiPacketData}.
 */
final class ReferenceAbi {
  private static final int WORD = 32;

  /** The strings in the struct's order, and their places (words) in the head. */
  private static final String[] STRINGS = {"denom", "sender", "receiver", "memo"};

  private static final int[] HEAD_SLOT = {0, 1, 2, 4};
  private static final int AMOUNT_SLOT = 3;

  private ReferenceAbi() {}

  /** The fields by name, the amount in decimal, or empty when the bytes break a rule. */
  static Optional<Map<String, String>> read(byte[] value) {
    BigInteger length = BigInteger.valueOf(value.length);
    BigInteger tuple = word(value, BigInteger.ZERO);
    if (tuple == null || tuple.add(BigInteger.valueOf(5 * WORD)).compareTo(length) > 0) {
      return Optional.empty();
    }
    Map<String, String> fields = new LinkedHashMap<>();
    byte[][] raw = new byte[STRINGS.length][];
    for (int i = 0; i < STRINGS.length; i++) {
      BigInteger at = tuple.add(word(value, tuple.add(BigInteger.valueOf((long) HEAD_SLOT[i] * WORD))));
      BigInteger n = word(value, at);
      if (n == null) {
        return Optional.empty();
      }
      BigInteger from = at.add(BigInteger.valueOf(WORD));
      if (from.add(n).compareTo(length) > 0) {
        return Optional.empty();
      }
      raw[i] = Arrays.copyOfRange(value, from.intValueExact(), from.add(n).intValueExact());
      Optional<int[]> cps = ReferenceJson.decodeUtf8(raw[i]);
      if (cps.isEmpty()) {
        return Optional.empty();
      }
      fields.put(STRINGS[i], new String(cps.get(), 0, cps.get().length));
    }
    BigInteger amount = word(value, tuple.add(BigInteger.valueOf(AMOUNT_SLOT * WORD)));
    fields.put("amount", amount.toString());
    if (!Arrays.equals(value, write(raw[0], raw[1], raw[2], amount, raw[3]))) {
      return Optional.empty(); // readable, but not the one layout abi.encode writes
    }
    return Optional.of(fields);
  }

  /** The unsigned big-endian word at {@code at}, or null when it is not all within the bytes. */
  private static BigInteger word(byte[] value, BigInteger at) {
    if (at.add(BigInteger.valueOf(WORD)).compareTo(BigInteger.valueOf(value.length)) > 0) {
      return null;
    }
    int from = at.intValueExact();
    return new BigInteger(1, Arrays.copyOfRange(value, from, from + WORD));
  }

  static byte[] write(
      String denom, String sender, String receiver, BigInteger amount, String memo) {
    return write(utf8(denom), utf8(sender), utf8(receiver), amount, utf8(memo));
  }

  /** What {@code abi.encode} writes: the strings' tails in struct order, right after the head. */
  static byte[] write(
      byte[] denom, byte[] sender, byte[] receiver, BigInteger amount, byte[] memo) {
    return write(new byte[][] {denom, sender, receiver, memo}, amount, new int[] {0, 1, 2, 3},
        new int[4]);
  }

  /**
   * A valid but not necessarily canonical encoding: the strings' tails in {@code order} (indices
   * into denom, sender, receiver, memo), each after {@code gapWords[k]} zero words; the head's
   * offsets point at them wherever they are. Order 0-3 without gaps is {@code abi.encode}'s.
   */
  static byte[] write(byte[][] strings, BigInteger amount, int[] order, int[] gapWords) {
    ByteArrayOutputStream tail = new ByteArrayOutputStream();
    BigInteger[] head = new BigInteger[5];
    head[AMOUNT_SLOT] = amount;
    for (int k = 0; k < order.length; k++) {
      tail.writeBytes(new byte[gapWords[k] * WORD]);
      int i = order[k];
      head[HEAD_SLOT[i]] = BigInteger.valueOf(5 * WORD + tail.size());
      tail.writeBytes(word(BigInteger.valueOf(strings[i].length)));
      tail.writeBytes(Arrays.copyOf(strings[i], (strings[i].length + WORD - 1) / WORD * WORD));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(word(BigInteger.valueOf(WORD))); // the tuple starts after this word
    for (BigInteger h : head) {
      out.writeBytes(word(h));
    }
    out.writeBytes(tail.toByteArray());
    return out.toByteArray();
  }

  /** A number in [0, 2^256) as a big-endian word. */
  static byte[] word(BigInteger v) {
    byte[] b = v.toByteArray(); // may carry a leading zero sign byte
    byte[] w = new byte[WORD];
    int n = Math.min(b.length, WORD);
    System.arraycopy(b, b.length - n, w, WORD - n, n);
    return w;
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
