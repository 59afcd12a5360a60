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
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;
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
 *       rolled back, so the sender keeps the coins. ibc-go's bounds apply: a receiver of at most
 *       {@value #MAX_RECEIVER_BYTES} bytes, a memo of at most {@value #MAX_MEMO_BYTES}; an
 *       amount of 2^256 - 1 sends the sender's whole balance.
 *   <li><b>receive</b>: packet data decoded by {@link PacketDataCodec}, amount must be positive,
 *       receiver and memo within the send's bounds, receiver an address of this chain, denom
 *       resolved by {@link DenomResolver#recvDenom}: source case → unescrow the local denom, sink
 *       case → mint the voucher {@code ibc/HASH} and store its trace. Success acknowledges {@code
 *       {"result":"AQ=="}}; any failure acknowledges an error {@code {"error":"ABCI code: N: error
 *       handling packet: see events for details"}} (N the failure's code, 1 when it has none) and
 *       writes nothing.
 *   <li><b>acknowledgement</b> classified by {@link AcknowledgementCodec}: an error (including the
 *       IBC v2 universal error acknowledgement) refunds; a timeout refunds; a malformed
 *       acknowledgement fails the relayer's transaction (as ibc-go does), so nothing changes.
 *   <li>Refund: unescrow to the sender when this chain was the source, else mint the vouchers back.
 * </ul>
 *
 * <p>Store (under {@code s/transfer/}): table 1 {@code ibc/HASH -> full trace}. Its IBC v2 side,
 * {@link TransferV2}, moves coins with the same methods, over client ids where this has channels.
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
  /** ibc-go's {@code MaximumReceiverLength}. */
  static final int MAX_RECEIVER_BYTES = 2048;
  /** ibc-go's {@code MaximumMemoLength}. */
  static final int MAX_MEMO_BYTES = 32768;
  /** ibc-go's {@code UnboundedSpendLimit()}: a transfer of this amount sends the whole balance. */
  static final BigInteger UNBOUNDED_AMOUNT = BigInteger.ONE.shiftLeft(256).subtract(BigInteger.ONE);
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
    requireSendable(msg.sender(), msg.receiver(), msg.memo(), msg.amount());
    BigInteger amount = amountToSend(ctx, msg.sender(), msg.denom(), msg.amount());
    DenomTrace trace = localTrace(ctx, msg.denom());
    try (BlockContext tx = ctx.branch()) {
      takeCoins(tx, msg.sourceChannel(), trace, msg.sender(), msg.denom(), amount);
      FungibleTokenPacketData data =
          new FungibleTokenPacketData(
              trace.fullPath(), amount, msg.sender(), msg.receiver(), msg.memo());
      long sequence =
          ics4.sendPacket(
              tx, PORT, msg.sourceChannel(), msg.timeoutHeight(), msg.timeoutTimestamp(),
              PacketDataCodec.encode(data));
      tx.emit(transferEvent(data));
      tx.commit();
      return sequence;
    }
  }

  /**
   * What a send needs before any coin moves (IBC v1 and v2 alike): a sender address of this
   * chain, a receiver and memo within ibc-go's bounds, a positive amount.
   *
   * @throws TxException SDK 7 for an address, transfer 11 for the memo, transfer 5 for the amount
   */
  void requireSendable(String sender, String receiver, String memo, BigInteger amount) {
    Addresses.validate(accountPrefix, sender);
    if (Texts.isGoBlank(receiver)) {
      throw TxException.invalidAddress("receiver must not be blank");
    }
    requireBounded(receiver, memo);
    if (amount.signum() <= 0) {
      throw new TxException(TxException.TRANSFER, 5, "amount must be positive, got " + amount);
    }
  }

  /**
   * ibc-go's bounds on the texts of a transfer, sent or received: a receiver of at most {@value
   * #MAX_RECEIVER_BYTES} bytes and a memo of at most {@value #MAX_MEMO_BYTES} (UTF-8, as Go counts
   * a string). A packet over them would be refused by an ibc-go counterparty.
   *
   * @throws TxException SDK 7 for the receiver, transfer 11 for the memo
   */
  private static void requireBounded(String receiver, String memo) {
    if (utf8LongerThan(receiver, MAX_RECEIVER_BYTES)) {
      throw TxException.invalidAddress("receiver must not exceed " + MAX_RECEIVER_BYTES
          + " bytes, got " + receiver.getBytes(StandardCharsets.UTF_8).length);
    }
    if (utf8LongerThan(memo, MAX_MEMO_BYTES)) {
      throw new TxException(TxException.TRANSFER, 11, "memo must not exceed " + MAX_MEMO_BYTES
          + " bytes, got " + memo.getBytes(StandardCharsets.UTF_8).length);
    }
  }

  private static boolean utf8LongerThan(String text, int maxBytes) {
    // a UTF-16 unit takes at most 3 UTF-8 bytes (a surrogate pair 4 for 2 units): most texts
    // are decided without encoding them
    return text.length() > maxBytes
        || (text.length() > maxBytes / 3
            && text.getBytes(StandardCharsets.UTF_8).length > maxBytes);
  }

  /**
   * The amount a {@code MsgTransfer} sends: as given, or for ibc-go's "unbounded" amount 2^256 - 1
   * the sender's whole balance of the denom.
   *
   * @throws TxException transfer 5 when that balance is 0
   */
  BigInteger amountToSend(BlockContext ctx, String sender, String denom, BigInteger amount) {
    if (!amount.equals(UNBOUNDED_AMOUNT)) {
      return amount;
    }
    BigInteger balance = bank.balance(ctx, sender, denom);
    if (balance.signum() == 0) {
      throw new TxException(TxException.TRANSFER, 5, "empty spendable balance for " + denom);
    }
    return balance;
  }

  /**
   * Takes a send's coins from the sender: vouchers going back over the hop they came in by
   * ({@code transfer/channelOrClient}) are burned, anything else goes to that hop's escrow.
   */
  void takeCoins(
      BlockContext ctx,
      String channelOrClient,
      DenomTrace trace,
      String sender,
      String localDenom,
      BigInteger amount) {
    if (isSenderSink(trace, PORT, channelOrClient)) {
      bank.burn(ctx, sender, localDenom, amount);
    } else {
      bank.send(ctx, sender, escrowAddress(channelOrClient), localDenom, amount);
    }
  }

  /** The event of a transfer sent. */
  static Event transferEvent(FungibleTokenPacketData data) {
    return Event.of(
        "ibc_transfer",
        "sender", data.sender(),
        "receiver", data.receiver(),
        "denom", data.denom(),
        "amount", data.amount().toString(),
        "memo", data.memo());
  }

  /** The trace of a local denom: a voucher's stored trace, or a base denom without one. */
  DenomTrace localTrace(BlockContext ctx, String denom) {
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
    OptionalInt refused = receive(ctx, () -> PacketDataCodec.decode(packet), packet.sourcePort(),
        packet.sourceChannel(), packet.destinationPort(), packet.destinationChannel());
    return Optional.of(refused.isEmpty()
        ? Acknowledgement.SUCCESS
        : Acknowledgement.rateLimitError(refused.getAsInt()));
  }

  /**
   * Receives a transfer over {@code destinationPort/destinationChannel} (a channel, or in IBC v2
   * a client) in a branch of {@code ctx}: the packet data is read by {@code data} (which may also
   * refuse the packet), the amount must be positive, the receiver and memo within ibc-go's bounds
   * and the receiver an address of this chain; then the local denom is unescrowed (source case) or
   * its voucher minted (sink case, its trace stored). A success commits the branch and returns
   * empty; any failure writes nothing, emits the reason in a durable event and returns its ABCI
   * code (1 when it has none).
   *
   * @throws StorageException if the node's storage fails: never an acknowledgement
   */
  OptionalInt receive(
      BlockContext ctx,
      Supplier<FungibleTokenPacketData> data,
      String sourcePort,
      String sourceChannel,
      String destinationPort,
      String destinationChannel) {
    FungibleTokenPacketData read = null;
    try (BlockContext tx = ctx.branch()) {
      read = data.get();
      if (read.amount().signum() <= 0) {
        throw new TxException(TxException.TRANSFER, 5, "amount must be positive");
      }
      requireBounded(read.receiver(), read.memo());
      Addresses.validate(accountPrefix, read.receiver());
      ReceivedDenom denom = DenomResolver.recvDenom(
          sourcePort, sourceChannel, destinationPort, destinationChannel, read.denom());
      if (denom.source()) {
        bank.send(
            tx,
            escrowAddress(destinationChannel),
            read.receiver(),
            denom.localDenom(),
            read.amount());
      } else {
        byte[] traceKey = Keys.of(PREFIX, DENOM_TRACE).string(denom.localDenom()).build();
        if (!tx.store().has(traceKey)) {
          tx.store().put(traceKey, denom.trace().fullPath().getBytes(StandardCharsets.UTF_8));
          tx.emit(Event.of("denomination", "trace_hash", denom.localDenom(),
              "denom", denom.trace().fullPath()));
        }
        bank.mint(tx, read.receiver(), denom.localDenom(), read.amount());
      }
      tx.emit(recvEvent(read, true, ""));
      tx.commit();
      return OptionalInt.empty();
    } catch (StorageException e) {
      throw e; // the node's storage failed: never turn that into an acknowledgement
    } catch (RuntimeException e) {
      // The receive is refused: nothing of it is written; the reason goes in a durable event.
      ctx.emitDurable(recvEvent(read, false, String.valueOf(e.getMessage())));
      return OptionalInt.of(codeOf(e));
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
    acknowledged(ctx, packet.sourceChannel(), packet.sequence(), acknowledgement,
        () -> PacketDataCodec.decode(packet));
  }

  @Override
  public void onTimeoutPacket(BlockContext ctx, Packet packet, String relayer) {
    timedOut(ctx, packet.sourceChannel(), packet.sequence(), PacketDataCodec.decode(packet));
  }

  /**
   * Settles the acknowledgement of a transfer sent over {@code transfer/channelOrClient}: an
   * error refunds ({@code data} is read only then), a success does nothing more.
   *
   * @throws IllegalArgumentException for a malformed acknowledgement (the relayer's transaction
   *     fails, as in ibc-go)
   */
  void acknowledged(
      BlockContext ctx,
      String channelOrClient,
      long sequence,
      byte[] acknowledgement,
      Supplier<FungibleTokenPacketData> data) {
    switch (AcknowledgementCodec.classify(acknowledgement)) {
      case SUCCESS -> ctx.emit(ackEvent(sequence, true));
      case ERROR -> {
        refund(ctx, channelOrClient, data.get());
        ctx.emit(ackEvent(sequence, false));
      }
      case MALFORMED ->
          throw new IllegalArgumentException(
              "cannot read the acknowledgement of packet " + sequence + " on " + channelOrClient);
    }
  }

  /** Refunds a transfer sent over {@code transfer/channelOrClient} that timed out. */
  void timedOut(
      BlockContext ctx, String channelOrClient, long sequence, FungibleTokenPacketData data) {
    refund(ctx, channelOrClient, data);
    ctx.emit(Event.of("timeout", "module", PORT, "refund_sequence",
        Long.toUnsignedString(sequence)));
  }

  private static Event ackEvent(long sequence, boolean success) {
    return Event.of(
        "fungible_token_packet",
        "module", PORT,
        "acknowledgement_sequence", Long.toUnsignedString(sequence),
        "success", Boolean.toString(success));
  }

  /** Gives a failed send back to its sender: unescrow when this chain was the source, else mint. */
  private void refund(BlockContext ctx, String channelOrClient, FungibleTokenPacketData data) {
    DenomTrace trace = DenomTrace.parse(data.denom());
    String localDenom = DenomResolver.sendDenom(data.denom());
    if (isSenderSink(trace, PORT, channelOrClient)) {
      bank.mint(ctx, data.sender(), localDenom, data.amount());
    } else {
      bank.send(
          ctx, escrowAddress(channelOrClient), data.sender(), localDenom, data.amount());
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
