package dev.ratelimit.app.transfer;

import dev.ratelimit.app.ibc.v2.IbcCoreV2;
import dev.ratelimit.app.ibc.v2.MsgSendPacketV2;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import dev.ratelimit.middleware.ibc.v2.Payload;
import dev.ratelimit.middleware.ibc.v2.RecvPacketResult;
import dev.ratelimit.middleware.transfer.DenomResolver;
import dev.ratelimit.middleware.transfer.DenomTrace;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.Ics20PayloadCodec;
import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalInt;
import javax.inject.Inject;
import javax.inject.Singleton;

/**
 * ICS-20 transfer's IBC v2 module, as ibc-go v10's {@code transfer/v2} does it, over client ids
 * where {@link TransferApp} has channels and with its bank logic (escrow accounts of {@code
 * transfer/<client>}, vouchers traced through {@code transfer/<client>}). Payloads are read only
 * by {@link Ics20PayloadCodec} and denoms by {@link DenomResolver}, as the rate-limit middleware
 * reads them.
 *
 * <ul>
 *   <li><b>send</b>: both payload ports must be {@code transfer} and both ends client ids; the
 *       sender must be the signer, the base denom free of {@code /} (IBC v2 packets carry the trace
 *       in the denom, with no channel id to split it by); then escrow, or burn a voucher going back.
 *   <li><b>receive</b>: the same checks, then as {@link TransferApp}: unescrow or mint; {@code
 *       SUCCESS} with {@code {"result":"AQ=="}}, else {@code FAILURE} (IBC core then acknowledges
 *       with the universal error acknowledgement and drops what the receive wrote).
 *   <li><b>acknowledgement</b>: the universal error acknowledgement or an ICS-20 error
 *       acknowledgement refunds (ibc-go v10 refuses the latter: it fails the relayer's
 *       transaction); a malformed one fails the relayer's transaction. <b>timeout</b>: refund.
 * </ul>
 */
@Singleton
public final class TransferV2 implements IbcModule {
  private final TransferApp transfer;
  private final IbcCoreV2 core;

  @Inject
  public TransferV2(TransferApp transfer, IbcCoreV2 core) {
    this.transfer = Objects.requireNonNull(transfer, "transfer");
    this.core = Objects.requireNonNull(core, "core");
  }

  /**
   * Sends {@code msg} as an IBC v2 packet through core ({@code MsgSendPacket}), whose route for
   * port {@code transfer} (the rate-limit middleware, then {@link #onSendPacket}) moves the coins.
   *
   * @return the packet's sequence
   * @throws TxException for a bad sender, receiver, amount or denom, SDK 18 (invalid request) for
   *     an encoding other than the codec's three; IBC core's for a bad client or timeout; {@link
   *     dev.ratelimit.core.RateLimitException} when the middleware refuses
   */
  public long transfer(BlockContext ctx, MsgTransferV2 msg) {
    transfer.requireSendable(msg.sender(), msg.receiver(), msg.memo(), msg.amount());
    BigInteger amount = transfer.amountToSend(ctx, msg.sender(), msg.denom(), msg.amount());
    DenomTrace trace = transfer.localTrace(ctx, msg.denom());
    FungibleTokenPacketData data = new FungibleTokenPacketData(
        trace.fullPath(), amount, msg.sender(), msg.receiver(), msg.memo());
    byte[] value;
    try {
      value = Ics20PayloadCodec.encode(data, msg.encoding());
    } catch (IllegalArgumentException unknownEncoding) { // the codec's only refusal on encode
      throw TxException.invalidRequest(unknownEncoding.getMessage());
    }
    Payload payload = new Payload(TransferApp.PORT, TransferApp.PORT, Ics20PayloadCodec.VERSION,
        msg.encoding(), value);
    return core.sendPacket(ctx, new MsgSendPacketV2(
        msg.sourceClient(), msg.timeoutTimestamp(), List.of(payload), msg.sender()));
  }

  /**
   * Escrows or burns what the payload sends.
   *
   * @throws TxException IBC 16 (ports or client ids), SDK 4 (sender is not the signer), SDK 7,
   *     transfer 3 (a base denom with {@code /}) or 5 (amount); the codec's {@link
   *     dev.ratelimit.core.RateLimitException}
   */
  @Override
  public void onSendPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      Payload payload,
      String signer) {
    FungibleTokenPacketData data = read(payload, sourceClient, destinationClient);
    transfer.requireSendable(data.sender(), data.receiver(), data.memo(), data.amount());
    // bech32 of one prefix: the same account iff the same text, once lower-cased
    if (!data.sender().toLowerCase(Locale.ROOT).equals(signer.toLowerCase(Locale.ROOT))) {
      throw new TxException(TxException.SDK, 4,
          "sender " + data.sender() + " is not the signer " + signer);
    }
    DenomTrace trace = DenomTrace.parse(data.denom());
    if (trace.baseDenom().indexOf('/') >= 0) {
      throw new TxException(TxException.TRANSFER, 3,
          "base denom " + trace.baseDenom() + " cannot contain '/' in an IBC v2 packet");
    }
    transfer.takeCoins(ctx, sourceClient, trace, data.sender(),
        DenomResolver.sendDenom(data.denom()), data.amount());
    ctx.emit(TransferApp.transferEvent(data));
  }

  @Override
  public RecvPacketResult onRecvPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      Payload payload,
      String relayer) {
    OptionalInt refused = transfer.receive(ctx,
        () -> read(payload, sourceClient, destinationClient), payload.sourcePort(), sourceClient,
        payload.destinationPort(), destinationClient);
    return refused.isEmpty()
        ? RecvPacketResult.success(Acknowledgement.SUCCESS.toJsonBytes())
        : RecvPacketResult.failure(
            Acknowledgement.rateLimitError(refused.getAsInt()).toJsonBytes());
  }

  /**
   * Refunds on an error acknowledgement, the universal one included.
   *
   * @throws IllegalArgumentException for a malformed acknowledgement (the relayer's transaction
   *     fails)
   */
  @Override
  public void onAcknowledgementPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      byte[] acknowledgement,
      Payload payload,
      String relayer) {
    transfer.acknowledged(ctx, sourceClient, sequence, acknowledgement,
        () -> read(payload, sourceClient, destinationClient));
  }

  @Override
  public void onTimeoutPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      Payload payload,
      String relayer) {
    transfer.timedOut(ctx, sourceClient, sequence, read(payload, sourceClient, destinationClient));
  }

  /**
   * A transfer payload's packet data: both ports {@code transfer} and both ends client ids
   * (without a channel handshake, nothing else binds the two applications), read by the codec.
   */
  private static FungibleTokenPacketData read(
      Payload payload, String sourceClient, String destinationClient) {
    if (!payload.sourcePort().equals(TransferApp.PORT)
        || !payload.destinationPort().equals(TransferApp.PORT)) {
      throw new TxException(TxException.IBC, 16, "transfer payload ports must be "
          + TransferApp.PORT + ", got " + payload.sourcePort() + " and "
          + payload.destinationPort());
    }
    if (!Identifiers.isClientId(sourceClient) || !Identifiers.isClientId(destinationClient)) {
      throw new TxException(TxException.IBC, 16, "transfer over IBC v2 needs client ids, got "
          + sourceClient + " and " + destinationClient);
    }
    return Ics20PayloadCodec.decode(payload.version(), payload.encoding(), payload.value());
  }
}
