package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Texts;
import java.math.BigInteger;
import java.util.Objects;

/**
 * ICS-20 packet data ({@code FungibleTokenPacketData}, the JSON carried by a v1 transfer channel,
 * or an IBC v2 payload's value). Read and written only through {@link PacketDataCodec} and {@link
 * Ics20PayloadCodec}.
 *
 * @param denom the full denom trace as the sender wrote it ({@code transfer/channel-0/uatom}, or a
 *     base denom); resolve it with {@link DenomResolver}
 * @param amount in [0, 2^256); the transfer app additionally requires it to be positive
 * @param memo {@code ""} when absent
 */
public record FungibleTokenPacketData(
    String denom, BigInteger amount, String sender, String receiver, String memo) {

  /**
   * @throws NullPointerException if a field is {@code null}
   * @throws IllegalArgumentException if {@code denom}, {@code sender} or {@code receiver} is blank
   *     (by Go's {@code strings.TrimSpace}, as ibc-go tests it), a string holds a lone surrogate
   *     (not valid Unicode, so it has no UTF-8 form), or {@code amount} is outside [0, 2^256)
   */
  public FungibleTokenPacketData {
    requireText(denom, "denom", true);
    Amounts.require(Objects.requireNonNull(amount, "amount"), "amount");
    requireText(sender, "sender", true);
    requireText(receiver, "receiver", true);
    requireText(memo, "memo", false);
  }

  /** Packet data without a memo. */
  public FungibleTokenPacketData(String denom, BigInteger amount, String sender, String receiver) {
    this(denom, amount, sender, receiver, "");
  }

  private static void requireText(String value, String field, boolean nonBlank) {
    Objects.requireNonNull(value, field);
    if (nonBlank && Texts.isGoBlank(value)) {
      throw new IllegalArgumentException(field + " must not be blank, got " + Texts.quote(value));
    }
    if (Texts.hasUnpairedSurrogate(value)) {
      throw new IllegalArgumentException(field + " must be valid Unicode (a lone surrogate)");
    }
  }
}
