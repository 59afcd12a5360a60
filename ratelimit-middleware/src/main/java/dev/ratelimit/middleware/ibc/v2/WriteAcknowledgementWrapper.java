package dev.ratelimit.middleware.ibc.v2;

import dev.ratelimit.core.host.BlockContext;

/**
 * How an application writes the acknowledgement of a packet it received asynchronously ({@link
 * PacketStatus#ASYNC}; ibc-go's {@code api.WriteAcknowledgementWrapper}). Core IBC's channel
 * keeper implements it; a middleware implements it too and forwards, so an application that
 * acknowledges asynchronously must be given the outermost wrapper.
 */
public interface WriteAcknowledgementWrapper {

  /**
   * Writes the acknowledgement of the packet received on our client {@code clientId} with {@code
   * sequence}.
   *
   * @throws RuntimeException when no such packet awaits an acknowledgement, or the
   *     acknowledgement is invalid; nothing is committed then
   */
  void writeAcknowledgement(
      BlockContext ctx, String clientId, long sequence, Acknowledgement acknowledgement);
}
