package dev.ratelimit.app.transfer;

import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.bank.BankKeeper;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.state.Keys;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.core.store.StorageException;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec;
import dev.ratelimit.middleware.ibc.Counterparty;
import dev.ratelimit.middleware.ibc.IbcModule;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.ibc.Order;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.inject.RateLimitMiddlewareModule;
import dev.ratelimit.middleware.transfer.DenomResolver;
import dev.ratelimit.middleware.transfer.DenomTrace;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.Hop;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import dev.ratelimit.middleware.transfer.ReceivedDenom;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.inject.Inject;
import javax.inject.Named;
import javax.inject.Singleton;

/**
 * ICS-20 transfer, as ibc-go's v1 transfer module does it.
 *
 * <ul>
 *   <li><b>send</b> ({@link #transfer}): when this chain is the token's source (the denom's trace
 *       does not start with this channel's hop) the coins go to the channel's escrow account;
 *       otherwise (a voucher going back) they are burned. The packet carries the full trace
 *       ({@code ibc/HASH} is looked up in the trace store) and is sent through this app's {@link
 *       Ics4Wrapper}, the rate-limit middleware: a send over quota fails and the transaction is
 *       rolled back, so the sender keeps the coins.
 *   <li><b>receive</b>: packet data decoded by {@link PacketDataCodec}, amount must be positive,
 *       receiver must be an address of this chain, denom resolved by {@link
 *       DenomResolver#recvDenom}: source case → unescrow the local denom, sink case → mint the
 *       voucher {@code ibc/HASH} and store its trace. Success acknowledges {@code
 *       {"result":"AQ=="}}; any failure acknowledges an error {@code {"error":"ABCI code: N: error
 *       handling packet: see events for details"}} (N the failure's code, 1 when it has none) and
 *       writes nothing.
 *   <li><b>acknowledgement</b> classified by {@link AcknowledgementCodec}: an error (including the
 *       IBC v2 universal error acknowledgement) refunds; a timeout refunds; a malformed
 *       acknowledgement fails the relayer's transaction (as ibc-go does), so nothing changes.
 *   <li>Refund: unescrow to the sender when this chain was the source, else mint the vouchers back.
 * </ul>
 *
 * <p>Store (under {@code s/transfer/}): table 1 {@code ibc/HASH -> full trace}.
 */
@Singleton
public final class TransferApp implements IbcModule {
  /** The port ICS-20 binds. */
  public static final String PORT = "transfer";
  /** The ICS-20 application version. */
  public static final String VERSION = "ics20-1";
  /** Every key of the transfer app starts with this. */
  public static final byte[] PREFIX = "s/transfer/".getBytes(StandardCharsets.US_ASCII);

  private static final int DENOM_TRACE = 1;
  private static final String IBC_PREFIX = "ibc/";
  /** The SDK's code for an error without a registered code. */
  private static final int UNREGISTERED_ERROR_CODE = 1;

  private final BankKeeper bank;
  private final Ics4Wrapper ics4;
  private final String accountPrefix;

  /**
   * @param ics4 the rate-limit middleware: every send goes through it
   */
  @Inject
  public TransferApp(
      BankKeeper bank,
      @Named(RateLimitMiddlewareModule.RATE_LIMITED) Ics4Wrapper ics4,
      ChainInfo chain) {
    this.bank = Objects.requireNonNull(bank, "bank");
    this.ics4 = Objects.requireNonNull(ics4, "ics4");
    this.accountPrefix = chain.accountPrefix();
  }

  /** The escrow account of a transfer channel on this chain. */
  public String escrowAddress(String channelId) {
    return Addresses.escrow(accountPrefix, PORT, channelId);
  }

  /** The full trace of a voucher denom {@code ibc/HASH} received by this chain. */
  public Optional<DenomTrace> denomTrace(BlockContext ctx, String ibcDenom) {
    return ctx.store()
        .get(Keys.of(PREFIX, DENOM_TRACE).string(ibcDenom).build())
        .map(raw -> DenomTrace.parse(new String(raw, StandardCharsets.UTF_8)));
  }

  // ---------------------------------------------------------------- send

  /**
   * Escrows or burns the coins and sends the packet through the rate-limit middleware, all in one
   * branch: any failure (the middleware's quota check included) changes nothing.
   *
   * @return the packet's sequence
   * @throws TxException for a bad sender, amount, denom or insufficient funds; {@link
   *     RateLimitException} when the middleware refuses the packet; IBC core's {@link TxException}
   *     for a bad channel or timeout
   */
  public long transfer(BlockContext ctx, MsgTransfer msg) {
    Addresses.validate(accountPrefix, msg.sender());
    if (Texts.isGoBlank(msg.receiver())) {
      throw TxException.invalidAddress("receiver must not be blank");
    }
    if (msg.amount().signum() <= 0) {
      throw new TxException(TxException.TRANSFER, 5, "amount must be positive, got " + msg.amount());
    }
    DenomTrace trace = localTrace(ctx, msg.denom());
    boolean sink = isSenderSink(trace, PORT, msg.sourceChannel());
    try (BlockContext tx = ctx.branch()) {
      if (sink) {
        bank.burn(tx, msg.sender(), msg.denom(), msg.amount());
      } else {
        bank.send(tx, msg.sender(), escrowAddress(msg.sourceChannel()), msg.denom(), msg.amount());
      }
      byte[] data =
          PacketDataCodec.encode(
              new FungibleTokenPacketData(
                  trace.fullPath(), msg.amount(), msg.sender(), msg.receiver(), msg.memo()));
      long sequence =
          ics4.sendPacket(
              tx, PORT, msg.sourceChannel(), msg.timeoutHeight(), msg.timeoutTimestamp(), data);
      tx.emit(
          Event.of(
              "ibc_transfer",
              "sender", msg.sender(),
              "receiver", msg.receiver(),
              "denom", trace.fullPath(),
              "amount", msg.amount().toString(),
              "memo", msg.memo()));
      tx.commit();
      return sequence;
    }
  }

  private DenomTrace localTrace(BlockContext ctx, String denom) {
    if (denom.startsWith(IBC_PREFIX)) {
      return denomTrace(ctx, denom)
          .orElseThrow(
              () -> new TxException(TxException.TRANSFER, 6, "denom trace not found for " + denom));
    }
    return new DenomTrace(List.of(), denom);
  }

  /** ibc-go's rule: the sender is a sink (burns) iff the trace starts with the sending hop. */
  private static boolean isSenderSink(DenomTrace trace, String port, String channel) {
    return trace.hasTrace() && trace.trace().get(0).equals(new Hop(port, channel));
  }

  // ---------------------------------------------------------------- receive

  @Override
  public Optional<Acknowledgement> onRecvPacket(BlockContext ctx, Packet packet, String relayer) {
    FungibleTokenPacketData data = null;
    try (BlockContext tx = ctx.branch()) {
      data = PacketDataCodec.decode(packet);
      if (data.amount().signum() <= 0) {
        throw new TxException(TxException.TRANSFER, 5, "amount must be positive");
      }
      Addresses.validate(accountPrefix, data.receiver());
      ReceivedDenom denom = DenomResolver.recvDenom(packet, data.denom());
      if (denom.source()) {
        bank.send(
            tx,
            escrowAddress(packet.destinationChannel()),
            data.receiver(),
            denom.localDenom(),
            data.amount());
      } else {
        byte[] traceKey = Keys.of(PREFIX, DENOM_TRACE).string(denom.localDenom()).build();
        if (!tx.store().has(traceKey)) {
          tx.store().put(traceKey, denom.trace().fullPath().getBytes(StandardCharsets.UTF_8));
          tx.emit(Event.of("denomination", "trace_hash", denom.localDenom(),
              "denom", denom.trace().fullPath()));
        }
        bank.mint(tx, data.receiver(), denom.localDenom(), data.amount());
      }
      tx.emit(recvEvent(data, true, ""));
      tx.commit();
      return Optional.of(Acknowledgement.SUCCESS);
    } catch (StorageException e) {
      throw e; // the node's storage failed: never turn that into an acknowledgement
    } catch (RuntimeException e) {
      // The receive is refused: nothing of it is written; the reason goes in a durable event.
      ctx.emitDurable(recvEvent(data, false, String.valueOf(e.getMessage())));
      return Optional.of(Acknowledgement.rateLimitError(codeOf(e)));
    }
  }

  private static int codeOf(RuntimeException e) {
    if (e instanceof TxException t) {
      return t.code();
    }
    if (e instanceof RateLimitException r) {
      return r.code().code();
    }
    return UNREGISTERED_ERROR_CODE;
  }

  private static Event recvEvent(FungibleTokenPacketData data, boolean success, String error) {
    return Event.of(
        "fungible_token_packet",
        "module", PORT,
        "sender", data == null ? "" : data.sender(),
        "receiver", data == null ? "" : data.receiver(),
        "denom", data == null ? "" : data.denom(),
        "amount", data == null ? "" : data.amount().toString(),
        "success", Boolean.toString(success),
        "error", error);
  }

  // ---------------------------------------------------------------- acknowledgement, timeout

  /**
   * Refunds on an error acknowledgement; does nothing more on a success.
   *
   * @throws IllegalArgumentException for a malformed acknowledgement (the relayer's transaction
   *     fails, as in ibc-go)
   */
  @Override
  public void onAcknowledgementPacket(
      BlockContext ctx, Packet packet, byte[] acknowledgement, String relayer) {
    switch (AcknowledgementCodec.classify(acknowledgement)) {
      case SUCCESS -> ctx.emit(ackEvent(packet, true));
      case ERROR -> {
        refund(ctx, packet);
        ctx.emit(ackEvent(packet, false));
      }
      case MALFORMED ->
          throw new IllegalArgumentException(
              "cannot read the acknowledgement of packet " + packet.sequence()
                  + " on " + packet.sourceChannel());
    }
  }

  @Override
  public void onTimeoutPacket(BlockContext ctx, Packet packet, String relayer) {
    refund(ctx, packet);
    ctx.emit(Event.of("timeout", "module", PORT, "refund_sequence",
        Long.toUnsignedString(packet.sequence())));
  }

  private static Event ackEvent(Packet packet, boolean success) {
    return Event.of(
        "fungible_token_packet",
        "module", PORT,
        "acknowledgement_sequence", Long.toUnsignedString(packet.sequence()),
        "success", Boolean.toString(success));
  }

  /** Gives a failed send back to its sender: unescrow when this chain was the source, else mint. */
  private void refund(BlockContext ctx, Packet packet) {
    FungibleTokenPacketData data = PacketDataCodec.decode(packet);
    DenomTrace trace = DenomTrace.parse(data.denom());
    String localDenom = DenomResolver.sendDenom(data.denom());
    if (isSenderSink(trace, packet.sourcePort(), packet.sourceChannel())) {
      bank.mint(ctx, data.sender(), localDenom, data.amount());
    } else {
      bank.send(
          ctx, escrowAddress(packet.sourceChannel()), data.sender(), localDenom, data.amount());
    }
  }

  // ---------------------------------------------------------------- handshake

  @Override
  public String onChanOpenInit(
      BlockContext ctx,
      Order order,
      List<String> connectionHops,
      String portId,
      String channelId,
      Counterparty counterparty,
      String version) {
    checkChannel(order, portId);
    if (!version.isEmpty() && !version.equals(VERSION)) {
      throw new IllegalArgumentException("ICS-20 version must be " + VERSION + ", got " + version);
    }
    return VERSION;
  }

  @Override
  public String onChanOpenTry(
      BlockContext ctx,
      Order order,
      List<String> connectionHops,
      String portId,
      String channelId,
      Counterparty counterparty,
      String counterpartyVersion) {
    checkChannel(order, portId);
    if (!counterpartyVersion.equals(VERSION)) {
      throw new IllegalArgumentException(
          "counterparty ICS-20 version must be " + VERSION + ", got " + counterpartyVersion);
    }
    return VERSION;
  }

  @Override
  public void onChanOpenAck(
      BlockContext ctx,
      String portId,
      String channelId,
      String counterpartyChannelId,
      String counterpartyVersion) {
    if (!counterpartyVersion.equals(VERSION)) {
      throw new IllegalArgumentException(
          "counterparty ICS-20 version must be " + VERSION + ", got " + counterpartyVersion);
    }
  }

  @Override
  public void onChanOpenConfirm(BlockContext ctx, String portId, String channelId) {}

  /** ICS-20 channels never close: vouchers in flight would be stranded. */
  @Override
  public void onChanCloseInit(BlockContext ctx, String portId, String channelId) {
    throw new IllegalStateException("ICS-20 channels cannot be closed by a user");
  }

  @Override
  public void onChanCloseConfirm(BlockContext ctx, String portId, String channelId) {}

  private static void checkChannel(Order order, String portId) {
    if (order != Order.UNORDERED) {
      throw new IllegalArgumentException("ICS-20 channels are unordered, got " + order);
    }
    if (!PORT.equals(portId)) {
      throw new IllegalArgumentException("ICS-20 binds port " + PORT + ", got " + portId);
    }
  }
}
