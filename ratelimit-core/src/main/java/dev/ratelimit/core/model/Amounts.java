package dev.ratelimit.core.model;

import java.math.BigInteger;

/**
 * Token amounts: non-negative integers below 2^256, like the Cosmos SDK {@code Int}. Text forms
 * are canonical ASCII decimals ({@code 0} or no leading zero, no sign): Java's {@link BigInteger}
 * parser accepts {@code +5} and non-ASCII digits, so the grammar is checked first.
 */
public final class Amounts {
  /** 2^256: every stored amount is strictly below it. */
  public static final BigInteger LIMIT = BigInteger.ONE.shiftLeft(256);

  private static final int MAX_DIGITS = 78; // 2^256 has 78 decimal digits
  private static final int MAX_LONG_DIGITS = 18; // every 18-digit decimal fits a long

  private Amounts() {}

  /** True iff {@code value} is in [0, 2^256). */
  public static boolean inRange(BigInteger value) {
    return value != null && value.signum() >= 0 && value.compareTo(LIMIT) < 0;
  }

  /**
   * Returns {@code value} if it is in [0, 2^256).
   *
   * @throws IllegalArgumentException naming {@code field} otherwise
   */
  public static BigInteger require(BigInteger value, String field) {
    if (value == null) {
      throw new IllegalArgumentException(field + " must not be null");
    }
    if (value.signum() < 0) {
      throw new IllegalArgumentException(field + " must not be negative, got " + value);
    }
    if (value.compareTo(LIMIT) >= 0) {
      throw new IllegalArgumentException(field + " must be below 2^256, got " + value);
    }
    return value;
  }

  /** True iff {@code text} matches ASCII {@code ^(0|[1-9][0-9]*)$} (no range check). */
  public static boolean isCanonicalDecimal(String text) {
    if (text == null || text.isEmpty()) {
      return false;
    }
    if (text.length() > 1 && text.charAt(0) == '0') {
      return false;
    }
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /**
   * Parses a canonical decimal amount in [0, 2^256).
   *
   * @throws IllegalArgumentException naming {@code field} when the text is not canonical or out
   *     of range
   */
  public static BigInteger parse(String text, String field) {
    if (!isCanonicalDecimal(text)) {
      throw new IllegalArgumentException(
          field + " must be a canonical decimal integer, got " + Texts.quote(text));
    }
    if (text.length() > MAX_DIGITS) {
      throw new IllegalArgumentException(
          field + " must be below 2^256, got " + text.length() + " digits");
    }
    if (text.length() <= MAX_LONG_DIGITS) { // most amounts: the checked digits summed, no parser
      long value = 0;
      for (int i = 0; i < text.length(); i++) {
        value = 10 * value + (text.charAt(i) - '0');
      }
      return BigInteger.valueOf(value);
    }
    return require(new BigInteger(text), field);
  }
}
