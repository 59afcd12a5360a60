package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Text fields of the binary payload encodings: well-formed UTF-8 or a refusal, never replacement
 * characters (two different byte strings must not read as the same text).
 */
final class StrictUtf8 {
  private StrictUtf8() {}

  /**
   * The text of {@code length} bytes of {@code value} from {@code from}. Java's decoder, like Go's
   * {@code utf8.Valid}, refuses overlong forms, encoded surrogates, code points past U+10FFFF and
   * cut sequences.
   *
   * @throws RateLimitException code 9 naming {@code field} and the offending byte's index in {@code
   *     value}
   */
  static String decode(byte[] value, int from, int length, String field) {
    ByteBuffer in = ByteBuffer.wrap(value, from, length);
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(in)
          .toString();
    } catch (CharacterCodingException e) {
      throw new RateLimitException(
          ErrorCode.INVALID_PACKET_DATA, field + " is not valid UTF-8 at byte " + in.position());
    }
  }
}
