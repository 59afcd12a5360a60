package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.fail;

import dev.ratelimit.core.RateLimitException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.function.Supplier;

/** What the spec says an input must give, written apart from the code under test. */
final class Expected {
  static final BigInteger LIMIT = BigInteger.ONE.shiftLeft(256);

  private Expected() {}

  /** Go's {@code unicode.IsSpace}, from Go's documentation and its White_Space table. */
  static boolean goSpace(char c) {
    return switch (c) {
      case '\t', '\n', '\u000b', '\f', '\r', ' ', '\u0085', '\u00a0', '\u1680', '\u2028', '\u2029',
          '\u202f', '\u205f', '\u3000' -> true;
      default -> c >= '\u2000' && c <= '\u200a';
    };
  }

  /** Go's {@code strings.TrimSpace(s) == ""}. */
  static boolean goBlank(String s) {
    return s.chars().allMatch(c -> goSpace((char) c));
  }

  /** Whether {@code s} is not valid Unicode (a surrogate that is not half of a pair). */
  static boolean loneSurrogate(String s) {
    return !s.codePoints().allMatch(cp -> cp < 0xD800 || cp > 0xDFFF);
  }

  /** SPEC §5: ASCII {@code ^(0|[1-9][0-9]*)$} and below 2^256. */
  static boolean validAmount(String s) {
    return s.matches("0|[1-9][0-9]*") && s.length() <= 78 && new BigInteger(s).compareTo(LIMIT) < 0;
  }

  /** SHA-256 by the JDK alone (the references share no code with the module's own hashing). */
  static byte[] sha256(String text) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  /**
   * What {@code call} returns, or the code of the {@link RateLimitException} it throws (whose
   * reason is checked): one value to compare with a reference's.
   */
  static Object valueOrCode(Supplier<?> call) {
    try {
      return call.get();
    } catch (RateLimitException e) {
      assertReason(e);
      return e.code();
    }
  }

  /**
   * A rejection names its problem in a bounded text with no raw control character: it goes into
   * events and logs, and the input that caused it may be megabytes of anything.
   */
  static void assertReason(RuntimeException e) {
    String message = e.getMessage();
    if (message == null || message.isBlank() || message.length() > 1000
        || message.chars().anyMatch(c -> c < 0x20 || c == 0x7F)) {
      fail("a rejection's reason must be 1-1000 characters without control characters, got "
          + (message == null
              ? null
              : message.length() + ": " + message.substring(0, Math.min(300, message.length()))));
    }
  }
}
