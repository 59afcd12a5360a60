package dev.ratelimit.middleware.ibc.v2;

import dev.ratelimit.core.host.BlockContext;

/**
 * The callbacks IBC core makes to an application for a packet's payload (ibc-go's {@code
 * core/api.IBCModule}; its core takes packets of exactly one payload). A middleware implements it too, sits between core and the
 * application, and forwards. The client ids are this chain's view: on send and on ack/timeout,
 * {@code sourceClient} is ours; on receive, {@code destinationClient} is.
 */
public interface IbcModule {

  /**
   * A payload is being sent: core has assigned {@code sequence}; the application checks and
   * moves the funds (escrow or burn) in {@code ctx}.
   *
   * @param signer the address that signed the send
   * @throws RuntimeException to refuse the send; core then discards all of it
   */
  void onSendPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      Payload payload,
      String signer);

  /**
   * A payload was received.
   *
   * @return the outcome; on {@link PacketStatus#FAILURE} core discards the writes made in {@code
   *     ctx}
   */
  RecvPacketResult onRecvPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      Payload payload,
      String relayer);

  /** A payload this chain sent timed out: refund. */
  void onTimeoutPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      Payload payload,
      String relayer);

  /**
   * A payload this chain sent was acknowledged.
   *
   * @param acknowledgement the receiving application's acknowledgement of this payload, or the
   *     universal error acknowledgement when the receive failed
   */
  void onAcknowledgementPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      byte[] acknowledgement,
      Payload payload,
      String relayer);
}
