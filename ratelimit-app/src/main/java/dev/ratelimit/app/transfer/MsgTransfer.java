package dev.ratelimit.app.transfer;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.ibc.Height;
import java.math.BigInteger;
import java.util.Objects;

/**
 * ICS-20 {@code MsgTransfer} (one coin, port {@code transfer}).
 *
 * @param denom the local denom: a base denom ({@code uosmo}) or a voucher ({@code ibc/<HASH>})
 * @param timeoutHeight the destination height from which the packet times out, {@link Height#ZERO}
 *     for none
 * @param timeoutTimestamp the destination block time (unsigned ns since the epoch) from which the
 *     packet times out, 0 for none; at least one timeout must be set
 */
public record MsgTransfer(
    String sender,
    String sourceChannel,
    String denom,
    BigInteger amount,
    String receiver,
    Height timeoutHeight,
    long timeoutTimestamp,
    String memo)
    implements Msg {
  public MsgTransfer {
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(sourceChannel, "sourceChannel");
    Objects.requireNonNull(denom, "denom");
    Objects.requireNonNull(amount, "amount");
    Objects.requireNonNull(receiver, "receiver");
    Objects.requireNonNull(timeoutHeight, "timeoutHeight");
    Objects.requireNonNull(memo, "memo");
  }

  /** A transfer without memo that times out at a destination block time. */
  public static MsgTransfer of(
      String sender,
      String sourceChannel,
      String denom,
      BigInteger amount,
      String receiver,
      long timeoutTimestamp) {
    return new MsgTransfer(
        sender, sourceChannel, denom, amount, receiver, Height.ZERO, timeoutTimestamp, "");
  }
}
