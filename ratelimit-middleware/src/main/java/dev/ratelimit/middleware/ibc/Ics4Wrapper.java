package dev.ratelimit.middleware.ibc;

import dev.ratelimit.core.host.BlockContext;
import java.util.Optional;

/**
 * The ICS4 wrapper (ibc-go's {@code porttypes.ICS4Wrapper}): what an application calls to send
 * packets and write asynchronous acknowledgements. Core IBC's channel keeper implements it; a
 * middleware implements it too, sits between the application and core IBC, and forwards. Every
 * application that sends, or acknowledges asynchronously, must be wired to the outermost wrapper so
 * no packet bypasses a middleware.
 */
public interface Ics4Wrapper {

  /**
   * Sends a packet on {@code sourcePort}/{@code sourceChannel}: core IBC assigns the next sequence
   * and commits the packet.
   *
   * @param timeoutHeight the counterparty height from which the packet times out, {@link
   *     Height#ZERO} for none
   * @param timeoutTimestamp the counterparty time (unsigned nanoseconds since the Unix epoch) from
   *     which the packet times out, 0 for none; at least one timeout must be set
   * @param data the application data (not retained)
   * @return the packet's sequence (unsigned)
   * @throws RuntimeException when the packet cannot be sent (unknown or closed channel, no timeout,
   *     or a middleware refusing it, e.g. {@link dev.ratelimit.core.RateLimitException}); nothing
   *     is committed then
   */
  long sendPacket(
      BlockContext ctx,
      String sourcePort,
      String sourceChannel,
      Height timeoutHeight,
      long timeoutTimestamp,
      byte[] data);

  /**
   * Writes the acknowledgement of a received packet whose {@link IbcModule#onRecvPacket} returned
   * none (asynchronous acknowledgement).
   *
   * @throws RuntimeException when no acknowledgement is pending for the packet, or the
   *     acknowledgement is {@code null}
   */
  void writeAcknowledgement(BlockContext ctx, Packet packet, Acknowledgement ack);

  /** The application version negotiated on a channel, or empty if the channel does not exist. */
  Optional<String> getAppVersion(BlockContext ctx, String portId, String channelId);
}
