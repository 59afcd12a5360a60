package dev.ratelimit.middleware.ibc;

import dev.ratelimit.core.host.BlockContext;
import java.util.List;
import java.util.Optional;

/**
 * The callbacks core IBC makes into an application module bound to a port (ibc-go's {@code
 * porttypes.IBCModule}). A middleware implements it too, wrapping the module below and forwarding
 * to it.
 *
 * <p>Every callback gets the block context first. Failures are unchecked exceptions: a failing
 * handshake callback aborts the handshake step, a failing acknowledgement or timeout callback fails
 * the relayer's transaction (so a module should fail only when the packet must stay unprocessed).
 * Core IBC runs each callback in a store branch and discards it on failure.
 */
public interface IbcModule {

  /**
   * Channel handshake step 1 on the initiating chain. The module may check the order, connection
   * hops and counterparty port, and negotiate the version.
   *
   * @param counterparty the other end; its channel id is empty (not known yet)
   * @param version the proposed version, possibly empty (the module then picks its default)
   * @return the version the module agrees to
   * @throws RuntimeException to refuse the channel
   */
  String onChanOpenInit(
      BlockContext ctx,
      Order order,
      List<String> connectionHops,
      String portId,
      String channelId,
      Counterparty counterparty,
      String version);

  /**
   * Channel handshake step 2 on the counterparty chain.
   *
   * @param counterpartyVersion the version the initiating chain proposed
   * @return the version the module agrees to
   * @throws RuntimeException to refuse the channel
   */
  String onChanOpenTry(
      BlockContext ctx,
      Order order,
      List<String> connectionHops,
      String portId,
      String channelId,
      Counterparty counterparty,
      String counterpartyVersion);

  /**
   * Channel handshake step 3 on the initiating chain: the counterparty accepted.
   *
   * @param counterpartyChannelId the channel id the counterparty chose
   * @param counterpartyVersion the version the counterparty agreed to
   * @throws RuntimeException to refuse the channel
   */
  void onChanOpenAck(
      BlockContext ctx,
      String portId,
      String channelId,
      String counterpartyChannelId,
      String counterpartyVersion);

  /**
   * Channel handshake step 4 on the counterparty chain: the channel is open.
   *
   * @throws RuntimeException to refuse the channel
   */
  void onChanOpenConfirm(BlockContext ctx, String portId, String channelId);

  /**
   * A user asks to close the channel on this chain.
   *
   * @throws RuntimeException to refuse closing (ICS-20 always refuses: transfer channels must never
   *     close, or vouchers could be stranded)
   */
  void onChanCloseInit(BlockContext ctx, String portId, String channelId);

  /**
   * The counterparty closed the channel; this end closes too.
   *
   * @throws RuntimeException to fail the relayer's transaction
   */
  void onChanCloseConfirm(BlockContext ctx, String portId, String channelId);

  /**
   * A packet arrived for this module. The module processes it and acknowledges: a returned
   * acknowledgement is written by core IBC at once (an error acknowledgement also makes core IBC
   * discard the module's state changes for the packet); an empty result means the acknowledgement
   * is asynchronous and the module writes it later through {@link
   * Ics4Wrapper#writeAcknowledgement}. Processing errors are reported as error acknowledgements,
   * not exceptions.
   *
   * @param relayer the address of the relayer that delivered the packet
   * @return the acknowledgement, or empty for an asynchronous one
   * @throws RuntimeException only for a failure that must abort the relayer's transaction
   */
  Optional<Acknowledgement> onRecvPacket(BlockContext ctx, Packet packet, String relayer);

  /**
   * The acknowledgement of a packet this chain sent came back (a success, or an error on which the
   * sender must refund).
   *
   * @param acknowledgement the raw acknowledgement bytes as the counterparty committed them (read
   *     them with {@link AcknowledgementCodec})
   * @throws RuntimeException to fail the relayer's transaction (the acknowledgement stays
   *     unprocessed)
   */
  void onAcknowledgementPacket(
      BlockContext ctx, Packet packet, byte[] acknowledgement, String relayer);

  /**
   * A packet this chain sent timed out without being received: the sender must refund, as for an
   * error acknowledgement.
   *
   * @throws RuntimeException to fail the relayer's transaction (the timeout stays unprocessed)
   */
  void onTimeoutPacket(BlockContext ctx, Packet packet, String relayer);
}
