package dev.ratelimit.app.ibc.v2;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.ibc.v2.Acknowledgement;
import dev.ratelimit.middleware.ibc.v2.Packet;
import java.util.Objects;

/**
 * A relayer brings an IBC v2 packet's acknowledgement back to its source ({@code
 * MsgAcknowledgement}; proof trusted).
 */
public record MsgAcknowledgementV2(Packet packet, Acknowledgement acknowledgement, String relayer)
    implements Msg {
  public MsgAcknowledgementV2 {
    Objects.requireNonNull(packet, "packet");
    Objects.requireNonNull(acknowledgement, "acknowledgement");
    Objects.requireNonNull(relayer, "relayer");
  }
}
