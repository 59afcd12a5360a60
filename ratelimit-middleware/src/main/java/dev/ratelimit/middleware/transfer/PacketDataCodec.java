package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.middleware.ibc.GoJson;
import dev.ratelimit.middleware.ibc.Packet;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * The one strict ICS-20 packet data codec, shared by the rate-limit middleware and the transfer
 * app: if they read a packet differently, a limit could be bypassed.
 *
 * <p>Decoding accepts any key order and rejects, with code {@link ErrorCode#INVALID_PACKET_DATA}
 * (9): {@code null}; bytes that are not valid UTF-8; anything but exactly one JSON object with
 * nothing after it; duplicate keys; keys other than {@code denom}, {@code amount}, {@code sender},
 * {@code receiver}, {@code memo} (exact case, as ibc-go rejects unknown fields); values that are
 * not JSON strings ({@code null} included); a missing or blank {@code denom}, {@code amount},
 * {@code sender} or {@code receiver}; a string with an escaped lone surrogate (no valid text).
 * Then, with code {@link ErrorCode#INVALID_AMOUNT} (10): an amount that does not match ASCII {@code
 * ^(0|[1-9][0-9]*)$} (checked before any number parsing, so {@code +5}, {@code 010}, {@code 0x64},
 * {@code 1_000}, {@code -1} and non-ASCII digits fail, though Go or {@link BigInteger} read some of
 * them) or is 2^256 or more. Structural problems are reported before the amount's.
 *
 * <p>Encoding writes what ibc-go v10+ writes: compact, keys in field order {@code denom, amount,
 * sender, receiver, memo}, {@code memo} left out when empty, Go's string escaping ({@link
 * GoJson#quote}). {@code encode(decode(x))} gives {@code x} back for every {@code x} written that
 * way.
 */
public final class PacketDataCodec {
  /**
   * The keys in field order (the protobuf field numbers 1 to 5); all but the last ({@code memo})
   * are required.
   */
  static final List<String> KEYS = List.of("denom", "amount", "sender", "receiver", "memo");

  private static final GoJson.FieldNames FIELD_NAMES = GoJson.FieldNames.of(KEYS);

  static final int DENOM = 0;
  static final int AMOUNT = 1;
  static final int SENDER = 2;
  static final int RECEIVER = 3;
  static final int MEMO = 4;

  private PacketDataCodec() {}

  /**
   * Decodes ICS-20 packet data by the rules above. Never fails otherwise, whatever the input
   * (deeply nested, huge, binary).
   *
   * @throws RateLimitException with code 9 ({@link ErrorCode#INVALID_PACKET_DATA}) or 10 ({@link
   *     ErrorCode#INVALID_AMOUNT}) and a message naming the key and what was found
   */
  public static FungibleTokenPacketData decode(byte[] data) {
    if (data == null) {
      throw new RateLimitException(ErrorCode.INVALID_PACKET_DATA, "packet data is null");
    }
    return fromFields(GoJson.readStringFields(data, FIELD_NAMES, ErrorCode.INVALID_PACKET_DATA));
  }

  /**
   * {@link #decode(byte[])} of {@code packet}'s data, without copying it out of the packet.
   *
   * @throws NullPointerException if {@code packet} is {@code null}
   * @throws RateLimitException as {@link #decode(byte[])}
   */
  public static FungibleTokenPacketData decode(Packet packet) {
    return fromFields(GoJson.readStringFields(packet, FIELD_NAMES, ErrorCode.INVALID_PACKET_DATA));
  }

  /**
   * The packet data from its fields' text, in {@link #KEYS} order, {@code null} for a field not
   * given: the one place of the field rules (missing or blank required fields, then the amount's
   * grammar and range), shared by every encoding {@link Ics20PayloadCodec} reads.
   *
   * @throws RateLimitException code 9 or 10, as {@link #decode(byte[])}
   */
  static FungibleTokenPacketData fromFields(String[] fields) {
    for (int i = DENOM; i <= RECEIVER; i++) {
      if (fields[i] == null) {
        throw new RateLimitException(
            ErrorCode.INVALID_PACKET_DATA, "missing key \"" + KEYS.get(i) + "\"");
      }
    }
    // the amount's text is checked like the others' (9) before its number (10)
    if (Texts.isGoBlank(fields[AMOUNT])) {
      throw new RateLimitException(
          ErrorCode.INVALID_PACKET_DATA, "\"amount\" is blank: " + Texts.quote(fields[AMOUNT]));
    }
    if (Texts.hasUnpairedSurrogate(fields[AMOUNT])) {
      throw new RateLimitException(
          ErrorCode.INVALID_PACKET_DATA,
          "\"amount\" is not valid Unicode text (an escaped lone surrogate)");
    }
    BigInteger amount = null;
    IllegalArgumentException badAmount = null;
    try {
      amount = Amounts.parse(fields[AMOUNT], "amount");
    } catch (IllegalArgumentException e) {
      badAmount = e;
    }
    // The record checks the texts (blank, lone surrogates) once; those problems are reported
    // before the amount's, so it is built first, with 0 standing in for a bad amount.
    FungibleTokenPacketData decoded;
    try {
      decoded =
          new FungibleTokenPacketData(
              fields[DENOM],
              badAmount == null ? amount : BigInteger.ZERO,
              fields[SENDER],
              fields[RECEIVER],
              fields[MEMO] == null ? "" : fields[MEMO]);
    } catch (IllegalArgumentException e) {
      throw new RateLimitException(ErrorCode.INVALID_PACKET_DATA, e.getMessage());
    }
    if (badAmount != null) {
      throw new RateLimitException(ErrorCode.INVALID_AMOUNT, badAmount.getMessage());
    }
    return decoded;
  }

  /**
   * Encodes packet data as ibc-go v10+ does (see above), UTF-8.
   *
   * @throws NullPointerException if {@code data} is {@code null}
   */
  public static byte[] encode(FungibleTokenPacketData data) {
    Objects.requireNonNull(data, "data");
    StringBuilder sb =
        new StringBuilder(
            64
                + data.denom().length()
                + data.sender().length()
                + data.receiver().length()
                + data.memo().length());
    sb.append("{\"denom\":")
        .append(GoJson.quote(data.denom()))
        .append(",\"amount\":\"")
        .append(data.amount().toString())
        .append("\",\"sender\":")
        .append(GoJson.quote(data.sender()))
        .append(",\"receiver\":")
        .append(GoJson.quote(data.receiver()));
    if (!data.memo().isEmpty()) {
      sb.append(",\"memo\":").append(GoJson.quote(data.memo()));
    }
    return sb.append('}').toString().getBytes(StandardCharsets.UTF_8);
  }
}
