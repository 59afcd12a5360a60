package dev.ratelimit.app.ibc;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.ibc.Packet;
import java.util.Objects;

/** A relayer delivers a packet to its destination ({@code MsgRecvPacket}; proof trusted). */
public record MsgRecvPacket(Packet packet, String relayer) implements Msg {
  public MsgRecvPacket {
    Objects.requireNonNull(packet, "packet");
    Objects.requireNonNull(relayer, "relayer");
  }
}
