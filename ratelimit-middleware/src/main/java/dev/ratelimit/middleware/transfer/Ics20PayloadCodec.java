package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Texts;
import java.util.Objects;

/**
 * ICS-20 packet data as an IBC v2 payload carries it: the payload names the application version
 * ({@value #VERSION}, the only one ibc-go's transfer reads) and an encoding; the value holds the
 * same {@link FungibleTokenPacketData} in that encoding. The one decoder of payloads, shared by the
 * rate limiter and the transfer app like {@link PacketDataCodec} (SPEC §3).
 *
 * <ul>
 *   <li>{@value #ENCODING_JSON}, or an empty encoding: exactly {@link PacketDataCodec}'s JSON.
 * </ul>
 *
 * <p>Any other version or encoding is code 9 ({@link ErrorCode#INVALID_PACKET_DATA}) naming it.
 */
public final class Ics20PayloadCodec {
  /** The ICS-20 version whose packet data this reads ({@code transfertypes.V1}). */
  public static final String VERSION = "ics20-1";

  /** JSON, as on a v1 channel; an empty encoding means this one. */
  public static final String ENCODING_JSON = "application/json";

  private static final int SHOWN = 64; // characters of a version or encoding in a message

  private Ics20PayloadCodec() {}

  /**
   * Decodes a payload's value by its version and encoding.
   *
   * @throws NullPointerException if an argument is {@code null}
   * @throws RateLimitException code 9 (an unknown version or encoding, or a value that is not the
   *     packet data) or 10 (an amount outside the grammar or the range), as {@link
   *     PacketDataCodec#decode(byte[])}
   */
  public static FungibleTokenPacketData decode(String version, String encoding, byte[] value) {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(encoding, "encoding");
    Objects.requireNonNull(value, "value");
    if (!version.equals(VERSION)) {
      throw new RateLimitException(ErrorCode.INVALID_PACKET_DATA,
          "payload version " + Texts.quote(version, SHOWN) + " is not " + VERSION);
    }
    if (encoding.isEmpty() || encoding.equals(ENCODING_JSON)) {
      return PacketDataCodec.decode(value);
    }
    throw new RateLimitException(ErrorCode.INVALID_PACKET_DATA,
        "payload encoding " + Texts.quote(encoding, SHOWN) + " is not " + ENCODING_JSON);
  }

  /**
   * Encodes packet data for a payload of version {@value #VERSION}.
   *
   * @throws NullPointerException if an argument is {@code null}
   * @throws IllegalArgumentException for an encoding other than those above
   */
  public static byte[] encode(FungibleTokenPacketData data, String encoding) {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(encoding, "encoding");
    if (encoding.isEmpty() || encoding.equals(ENCODING_JSON)) {
      return PacketDataCodec.encode(data);
    }
    throw new IllegalArgumentException("unknown payload encoding " + Texts.quote(encoding, SHOWN));
  }
}
