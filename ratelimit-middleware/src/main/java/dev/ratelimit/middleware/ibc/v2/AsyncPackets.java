package dev.ratelimit.middleware.ibc.v2;

import dev.ratelimit.core.host.BlockContext;
import java.util.Optional;

/**
 * The packets received with an asynchronous acknowledgement still to write, as IBC core keeps
 * them (ibc-go's {@code GetAsyncPacket}): an acknowledgement names only the client and sequence,
 * and a middleware needs the packet's payload to settle it. A packet is held from the moment its
 * receive returned {@link PacketStatus#ASYNC} until its acknowledgement is written, never while
 * the receive still runs.
 */
@FunctionalInterface
public interface AsyncPackets {

  /** The packet received on our client {@code clientId} with {@code sequence}, if it awaits one. */
  Optional<Packet> asyncPacket(BlockContext ctx, String clientId, long sequence);
}
