package dev.ratelimit.app.ibc;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.ibc.Packet;
import java.util.Objects;

/**
 * A relayer proves that a packet timed out ({@code MsgTimeout}): the source chain's client of the
 * destination must be at or past the packet's timeout height or time. That the destination has no
 * receipt is trusted (the relayer checked it).
 */
public record MsgTimeout(Packet packet, String relayer) implements Msg {
  public MsgTimeout {
    Objects.requireNonNull(packet, "packet");
    Objects.requireNonNull(relayer, "relayer");
  }
}
