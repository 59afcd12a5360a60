package dev.ratelimit.app.ibc.v2;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.ibc.v2.Payload;
import java.util.List;
import java.util.Objects;

/**
 * A user sends an IBC v2 packet ({@code ibc.core.channel.v2.MsgSendPacket}): core assigns the
 * sequence on {@code sourceClient} and calls each payload's source-port application with the
 * signer.
 *
 * @param timeoutTimestamp the destination block time (unsigned seconds since the epoch) from which
 *     the packet times out: after this block's time, at most {@link IbcCoreV2#MAX_TIMEOUT_DELTA}
 *     later
 */
public record MsgSendPacketV2(
    String sourceClient, long timeoutTimestamp, List<Payload> payloads, String signer)
    implements Msg {
  public MsgSendPacketV2 {
    Objects.requireNonNull(sourceClient, "sourceClient");
    payloads = List.copyOf(payloads);
    Objects.requireNonNull(signer, "signer");
  }
}
