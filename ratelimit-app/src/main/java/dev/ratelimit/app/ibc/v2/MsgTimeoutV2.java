package dev.ratelimit.app.ibc.v2;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.ibc.v2.Packet;
import java.util.Objects;

/**
 * A relayer proves that an IBC v2 packet timed out ({@code MsgTimeout}): our client of the
 * destination must be at or past the packet's timeout. That the destination has no receipt is
 * trusted (the relayer checked it).
 */
public record MsgTimeoutV2(Packet packet, String relayer) implements Msg {
  public MsgTimeoutV2 {
    Objects.requireNonNull(packet, "packet");
    Objects.requireNonNull(relayer, "relayer");
  }
}
