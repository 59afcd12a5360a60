package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Texts;
import java.util.Objects;
import java.util.function.Function;

/**
 * ICS-20 packet data as an IBC v2 payload carries it: the payload names the application version
 * ({@value #VERSION}, the only one ibc-go's transfer reads) and an encoding; the value holds the
 * same {@link FungibleTokenPacketData} in that encoding. The one decoder of payloads, shared by the
 * rate limiter and the transfer app like {@link PacketDataCodec} (SPEC §5, "one shared strict
 * decoder"). The encodings are those of ibc-go's {@code MarshalPacketData} / {@code
 * UnmarshalPacketData}:
 *
 * <ul>
 *   <li>{@value #ENCODING_JSON}, or an empty encoding: exactly {@link PacketDataCodec}'s JSON.
 *   <li>{@value #ENCODING_PROTOBUF}: the protobuf message {@code
 *       ibc.applications.transfer.v1.FungibleTokenPacketData} (fields 1 to 5: denom, amount,
 *       sender, receiver, memo), read strictly: an unknown field number, another wire type than
 *       length-delimited, a field given twice, text that is not UTF-8, and cut or malformed bytes
 *       are refused. Fields may come in any order; a field not given is the empty string (proto3
 *       does not tell them apart). Written with the fields in number order, the empty memo left
 *       out.
 *   <li>{@value #ENCODING_ABI}: Solidity's {@code abi.encode} of IBC Eureka's {@code
 *       FungibleTokenPacketData {string denom; string sender; string receiver; uint256 amount;
 *       string memo;}}, as ibc-go's {@code EncodeABIFungibleTokenPacketData} writes it. Only that
 *       exact layout is read: canonical offsets, lengths within the value, zero padding, nothing
 *       after the memo, UTF-8 text.
 * </ul>
 *
 * <p>Every encoding then applies the same field rules, in one place ({@link
 * PacketDataCodec#fromFields}): a missing or blank denom, amount, sender or receiver is code 9
 * ({@link ErrorCode#INVALID_PACKET_DATA}); an amount text outside ASCII {@code ^(0|[1-9][0-9]*)$}
 * or not below 2^256 is code 10 ({@link ErrorCode#INVALID_AMOUNT}). The same data gives the same
 * answer in every encoding, and a message names the encoding, then the field. Any other version or
 * encoding is code 9 naming it.
 */
public final class Ics20PayloadCodec {
  /** The ICS-20 version whose packet data this reads ({@code transfertypes.V1}). */
  public static final String VERSION = "ics20-1";

  /** JSON, as on a v1 channel; an empty encoding means this one. */
  public static final String ENCODING_JSON = "application/json";

  /** The protobuf message's bytes ({@code transfertypes.EncodingProtobuf}). */
  public static final String ENCODING_PROTOBUF = "application/x-protobuf";

  /** Solidity ABI, as IBC Eureka's ICS-20 app sends it ({@code transfertypes.EncodingABI}). */
  public static final String ENCODING_ABI = "application/x-solidity-abi";

  private static final String ENCODINGS =
      ENCODING_JSON + ", " + ENCODING_PROTOBUF + " or " + ENCODING_ABI;

  private static final int SHOWN = 64; // characters of a version or encoding in a message

  private Ics20PayloadCodec() {}

  /**
   * Decodes a payload's value by its version and encoding. Never fails otherwise, whatever the
   * value.
   *
   * @throws NullPointerException if an argument is {@code null}
   * @throws RateLimitException code 9 (an unknown version or encoding, or a value that is not the
   *     packet data in that encoding) or 10 (an amount outside the grammar or the range), its
   *     message starting with the encoding
   */
  public static FungibleTokenPacketData decode(String version, String encoding, byte[] value) {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(encoding, "encoding");
    Objects.requireNonNull(value, "value");
    if (!version.equals(VERSION)) {
      throw new RateLimitException(
          ErrorCode.INVALID_PACKET_DATA,
          "payload version " + Texts.quote(version, SHOWN) + " is not " + VERSION);
    }
    return switch (encoding) {
      case "", ENCODING_JSON -> decodeAs(ENCODING_JSON, PacketDataCodec::decode, value);
      case ENCODING_PROTOBUF -> decodeAs(ENCODING_PROTOBUF, ProtobufPacketData::decode, value);
      case ENCODING_ABI -> decodeAs(ENCODING_ABI, AbiPacketData::decode, value);
      default ->
          throw new RateLimitException(
              ErrorCode.INVALID_PACKET_DATA,
              "payload encoding " + Texts.quote(encoding, SHOWN) + " is not " + ENCODINGS);
    };
  }

  /**
   * {@code decoder}'s answer; its refusal with the same code, worded again to name the encoding.
   */
  private static FungibleTokenPacketData decodeAs(
      String encoding, Function<byte[], FungibleTokenPacketData> decoder, byte[] value) {
    try {
      return decoder.apply(value);
    } catch (RateLimitException e) {
      throw new RateLimitException(e.code(), encoding + " payload: " + e.detail(), e);
    }
  }

  /**
   * Encodes packet data for a payload of version {@value #VERSION}: JSON as {@link
   * PacketDataCodec#encode}, protobuf and ABI as described above. {@code decode(VERSION, encoding,
   * encode(data, encoding))} equals {@code data} for every encoding.
   *
   * @throws NullPointerException if an argument is {@code null}
   * @throws IllegalArgumentException for an encoding other than those three, the empty one
   *     included: a payload names its encoding (ibc-go's core refuses an empty one; only a reader
   *     takes it as JSON)
   */
  public static byte[] encode(FungibleTokenPacketData data, String encoding) {
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(encoding, "encoding");
    return switch (encoding) {
      case ENCODING_JSON -> PacketDataCodec.encode(data);
      case ENCODING_PROTOBUF -> ProtobufPacketData.encode(data);
      case ENCODING_ABI -> AbiPacketData.encode(data);
      default ->
          throw new IllegalArgumentException(
              "unknown payload encoding " + Texts.quote(encoding, SHOWN) + ": not " + ENCODINGS);
    };
  }
}
