package dev.ratelimit.app.transfer;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.transfer.Ics20PayloadCodec;
import java.math.BigInteger;
import java.util.Objects;

/**
 * An ICS-20 transfer over IBC v2 (one coin, ports {@code transfer}): {@link TransferV2} makes it
 * an {@code ics20-1} payload and sends it with IBC core's {@code MsgSendPacket} on {@code
 * sourceClient}, the sender signing, as ibc-go v10 sends a {@code MsgTransfer} whose source is a
 * client.
 *
 * @param denom the local denom: a base denom ({@code uosmo}) or a voucher ({@code ibc/<HASH>})
 * @param timeoutTimestamp the destination block time, in unsigned <b>seconds</b> since the epoch
 *     (IBC v2's unit; IBC v1's {@link MsgTransfer} counts nanoseconds), from which the packet times
 *     out
 * @param encoding the payload's encoding, {@link Ics20PayloadCodec#ENCODING_JSON}
 */
public record MsgTransferV2(
    String sender,
    String sourceClient,
    String denom,
    BigInteger amount,
    String receiver,
    long timeoutTimestamp,
    String memo,
    String encoding)
    implements Msg {
  public MsgTransferV2 {
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(sourceClient, "sourceClient");
    Objects.requireNonNull(denom, "denom");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(receiver, "receiver");
    Objects.requireNonNull(memo, "memo");
    Objects.requireNonNull(encoding, "encoding");
  }

  /** A JSON-encoded transfer without memo. */
  public static MsgTransferV2 of(
      String sender,
      String sourceClient,
      String denom,
      BigInteger amount,
      String receiver,
      long timeoutTimestamp) {
    return new MsgTransferV2(sender, sourceClient, denom, amount, receiver, timeoutTimestamp, "",
        Ics20PayloadCodec.ENCODING_JSON);
  }
}
