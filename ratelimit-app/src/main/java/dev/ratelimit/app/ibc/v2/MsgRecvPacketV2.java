package dev.ratelimit.app.ibc.v2;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.ibc.v2.Packet;
import java.util.Objects;

/** A relayer delivers an IBC v2 packet ({@code MsgRecvPacket}; proof trusted). */
public record MsgRecvPacketV2(Packet packet, String relayer) implements Msg {
  public MsgRecvPacketV2 {
    Objects.requireNonNull(packet, "packet");
    Objects.requireNonNull(relayer, "relayer");
  }
}
