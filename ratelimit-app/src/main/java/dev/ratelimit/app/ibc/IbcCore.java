package dev.ratelimit.app.ibc;

import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.state.Keys;
import dev.ratelimit.app.state.ValueReader;
import dev.ratelimit.app.state.ValueWriter;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.IbcModule;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.ibc.Order;
import dev.ratelimit.middleware.ibc.Packet;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.inject.Inject;
import javax.inject.Provider;
import javax.inject.Singleton;

/**
 * IBC core: the channel keeper and the packet handlers of the relayer's messages.
 *
 * <p><b>Below the middleware.</b> As the {@link Ics4Wrapper} the rate-limit middleware forwards
 * to, {@link #sendPacket} checks the channel and the timeout against the counterparty's client,
 * assigns the next sequence, stores the packet commitment and emits {@code send_packet}; {@link
 * #writeAcknowledgement} stores an asynchronous acknowledgement's commitment and emits {@code
 * write_acknowledgement}.
 *
 * <p><b>Above the port's module.</b> The relayer's messages run the module routed for the packet's
 * port (for {@code transfer}: the rate-limit middleware), with ibc-go's semantics: {@link #recv}
 * writes the receipt, runs the module's {@code onRecvPacket} in a branch that is committed only
 * for a success or an asynchronous (absent) acknowledgement, and writes a returned
 * acknowledgement (the receipt and an error acknowledgement are written either way); {@link
 * #acknowledge} and {@link #timeout} delete the packet commitment and run the module's callback in
 * the transaction itself, so a failing callback fails the relayer's transaction and nothing
 * changes. Messages about a packet already handled (a second receive, an acknowledgement or
 * timeout whose commitment is gone) are no-ops, as in ibc-go.
 *
 * <p><b>Signer.</b> Every relayer message ({@link #updateClient}, {@link #recv}, {@link
 * #acknowledge}, {@link #timeout}) first needs its signer to be an address of this chain's prefix
 * ({@link Addresses#validate}, as ibc-go's {@code ValidateBasic}); otherwise it fails with SDK
 * {@code invalid_address} (7) before anything is read or written.
 *
 * <p>Store (under {@code s/ibc/}): 1 channel, 2 client, 3 next send sequence, 4 packet commitment,
 * 5 receipt, 6 acknowledgement commitment; keys by port, channel and sequence. Tables 7 to 12 are
 * IBC v2's ({@link dev.ratelimit.app.ibc.v2.IbcCoreV2}), over the same clients.
 *
 * <p>Error codes (codespace {@code ibc}): 1 channel not found, 2 channel not open, 3 packet does
 * not match the channel, 4 invalid timeout, 5 packet timed out, 6 packet commitment mismatch, 7 no
 * receipt for the acknowledgement, 8 acknowledgement already written, 9 timeout not reached, 10
 * client not found, 11 invalid client update, 12 no module for the port, 13 empty acknowledgement,
 * 16 invalid packet (as ibc-go's {@code Packet.ValidateBasic}: sequence 0, a relayed packet without
 * timeout, data empty or over {@value #MAX_PACKET_DATA_BYTES} bytes).
 */
@Singleton
public final class IbcCore implements Ics4Wrapper, IbcChannels {
  /** Every key of IBC core starts with this. */
  public static final byte[] PREFIX = "s/ibc/".getBytes(StandardCharsets.US_ASCII);

  /** The port ICS-20 transfer binds. */
  public static final String TRANSFER_PORT = "transfer";

  /**
   * ibc-go's {@code MaximumPayloadsSize} (256 KiB): the most data a packet carries, on IBC v1 and
   * (all payloads together) on IBC v2. An ibc-go counterparty refuses a larger packet's receive,
   * so it is refused here on send.
   */
  public static final int MAX_PACKET_DATA_BYTES = 262_144;

  private static final int CHANNEL = 1;
  private static final int CLIENT = 2;
  private static final int NEXT_SEQUENCE_SEND = 3;
  private static final int COMMITMENT = 4;
  private static final int RECEIPT = 5;
  private static final int ACK = 6;
  private static final byte[] RECEIPT_VALUE = {1};

  private final ChainInfo chain;
  private final Map<String, Provider<IbcModule>> router;

  /**
   * @param router the module bound to each port (a provider: the modules in turn send through
   *     this keeper)
   */
  @Inject
  public IbcCore(ChainInfo chain, Map<String, Provider<IbcModule>> router) {
    this.chain = Objects.requireNonNull(chain, "chain");
    this.router = Map.copyOf(router);
  }

  // ---------------------------------------------------------------- genesis and queries

  /** Stores the genesis clients and channels (open; send sequences start at 1). */
  public void initGenesis(BlockContext ctx, List<ClientState> clients, List<ChannelEnd> channels) {
    for (ClientState c : clients) {
      putClient(ctx.store(), c);
    }
    for (ChannelEnd ch : channels) {
      if (client(ctx, ch.clientId()).isEmpty()) {
        throw new IllegalArgumentException(
            "channel " + ch.channelId() + " names unknown client " + ch.clientId());
      }
      putChannel(ctx.store(), ch);
    }
  }

  public Optional<ChannelEnd> channel(BlockContext ctx, String portId, String channelId) {
    return readChannel(ctx.store(), portId, channelId);
  }

  /** Every channel, by port then channel id. */
  public List<ChannelEnd> channels(BlockContext ctx) {
    List<ChannelEnd> out = new ArrayList<>();
    try (KvScan scan = ctx.store().scanPrefix(Keys.of(PREFIX, CHANNEL).build())) {
      while (scan.hasNext()) {
        out.add(decodeChannel(scan.next().value()));
      }
    }
    return out;
  }

  public Optional<ClientState> client(BlockContext ctx, String clientId) {
    return readClient(ctx.store(), clientId);
  }

  /** The sequence the next packet sent on the channel gets (1 for a new channel). */
  public long nextSequenceSend(BlockContext ctx, String portId, String channelId) {
    return ctx.store()
        .get(Keys.of(PREFIX, NEXT_SEQUENCE_SEND).string(portId).string(channelId).build())
        .map(v -> new ValueReader(v).u64())
        .orElse(1L);
  }

  /** The commitment of a sent packet not yet acknowledged or timed out. */
  public Optional<byte[]> packetCommitment(BlockContext ctx, String port, String channel, long seq) {
    return ctx.store().get(packetKey(COMMITMENT, port, channel, seq));
  }

  /** Whether the packet was received on this (destination) chain. */
  public boolean hasPacketReceipt(BlockContext ctx, String port, String channel, long seq) {
    return ctx.store().has(packetKey(RECEIPT, port, channel, seq));
  }

  /** The commitment (SHA-256) of the acknowledgement this chain wrote for a received packet. */
  public Optional<byte[]> packetAcknowledgement(
      BlockContext ctx, String port, String channel, long seq) {
    return ctx.store().get(packetKey(ACK, port, channel, seq));
  }

  // ---------------------------------------------------------------- IbcChannels (rate limiter)

  /** True for a channel on port {@code transfer} or a client, as the context sees them. */
  @Override
  public boolean channelOrClientExists(BlockContext ctx, String channelOrClientId) {
    KvStore s = ctx.store();
    return readChannel(s, TRANSFER_PORT, channelOrClientId).isPresent()
        || readClient(s, channelOrClientId).isPresent();
  }

  /** The chain id behind a transfer channel's client, or behind a client. */
  @Override
  public Optional<String> counterpartyChainId(BlockContext ctx, String channelOrClientId) {
    KvStore s = ctx.store();
    String clientId =
        readChannel(s, TRANSFER_PORT, channelOrClientId)
            .map(ChannelEnd::clientId)
            .orElse(channelOrClientId);
    return readClient(s, clientId).map(ClientState::chainId);
  }

  // ---------------------------------------------------------------- ICS4 wrapper (downstream)

  /**
   * Sends a packet: the channel must be open and the timeout (height or time, at least one) not
   * already reached by the counterparty's client.
   *
   * @return the packet's sequence
   * @throws TxException codes 1, 2, 4, 5, 10 or 16 (codespace {@code ibc})
   */
  @Override
  public long sendPacket(
      BlockContext ctx,
      String sourcePort,
      String sourceChannel,
      Height timeoutHeight,
      long timeoutTimestamp,
      byte[] data) {
    Objects.requireNonNull(timeoutHeight, "timeoutHeight");
    Objects.requireNonNull(data, "data");
    KvStore s = ctx.store();
    ChannelEnd ch = requireOpenChannel(s, sourcePort, sourceChannel);
    if (timeoutHeight.isZero() && timeoutTimestamp == 0) {
      throw new TxException(TxException.IBC, 4, "packet needs a timeout height or timestamp");
    }
    requireDataSize(data.length);
    ClientState client = requireClient(s, ch.clientId());
    if (Timeouts.passed(timeoutHeight, timeoutTimestamp, client.latestHeight(), client.latestTime())) {
      throw new TxException(
          TxException.IBC, 5,
          "the counterparty is already past the timeout (client at " + client.latestHeight()
              + ", " + client.latestTime() + ")");
    }
    long sequence = nextSequenceSend(ctx, sourcePort, sourceChannel);
    Packet packet =
        new Packet(
            sequence, sourcePort, sourceChannel, ch.counterpartyPortId(),
            ch.counterpartyChannelId(), data, timeoutHeight, timeoutTimestamp);
    s.put(
        Keys.of(PREFIX, NEXT_SEQUENCE_SEND).string(sourcePort).string(sourceChannel).build(),
        new ValueWriter().u64(sequence + 1).build());
    s.put(packetKey(COMMITMENT, sourcePort, sourceChannel, sequence), Commitments.packet(packet));
    ctx.emit(IbcEvents.packetEvent(IbcEvents.SEND_PACKET, packet, ch.order().name(), null));
    return sequence;
  }

  /**
   * Writes the acknowledgement of a received packet (asynchronous path, or the synchronous one
   * from {@link #recv}).
   *
   * @throws TxException code 7 (never received), 8 (already acknowledged) or 13 (empty)
   * @throws IllegalArgumentException if {@code ack} is null
   */
  @Override
  public void writeAcknowledgement(BlockContext ctx, Packet packet, Acknowledgement ack) {
    if (ack == null) {
      throw new IllegalArgumentException("acknowledgement must not be null");
    }
    KvStore s = ctx.store();
    String port = packet.destinationPort();
    String channel = packet.destinationChannel();
    ChannelEnd ch = requireChannel(s, port, channel);
    long seq = packet.sequence();
    if (!s.has(packetKey(RECEIPT, port, channel, seq))) {
      throw new TxException(TxException.IBC, 7, "packet " + seq + " was never received");
    }
    if (s.has(packetKey(ACK, port, channel, seq))) {
      throw new TxException(TxException.IBC, 8, "packet " + seq + " is already acknowledged");
    }
    byte[] bytes = ack.toJsonBytes();
    if (bytes.length == 0) {
      throw new TxException(TxException.IBC, 13, "acknowledgement must not be empty");
    }
    s.put(packetKey(ACK, port, channel, seq), Commitments.acknowledgement(bytes));
    ctx.emit(
        IbcEvents.packetEvent(IbcEvents.WRITE_ACKNOWLEDGEMENT, packet, ch.order().name(), bytes));
  }

  @Override
  public Optional<String> getAppVersion(BlockContext ctx, String portId, String channelId) {
    return channel(ctx, portId, channelId).map(ChannelEnd::version);
  }

  // ---------------------------------------------------------------- relayer messages

  /**
   * Trusted client update: moves the client forward; an older or equal height is a no-op.
   *
   * @throws TxException SDK 7 (signer), IBC 10 or 11
   */
  public void updateClient(BlockContext ctx, MsgUpdateClient msg) {
    Addresses.validate(chain.accountPrefix(), msg.signer());
    KvStore s = ctx.store();
    ClientState client = requireClient(s, msg.clientId());
    if (Timeouts.compare(msg.height(), client.latestHeight()) <= 0) {
      return;
    }
    if (msg.time().isBefore(client.latestTime())) {
      throw new TxException(
          TxException.IBC, 11, "client time must not go back: " + msg.time() + " < "
              + client.latestTime());
    }
    putClient(s, new ClientState(client.clientId(), client.chainId(), msg.height(), msg.time()));
  }

  /**
   * Receives a packet (ibc-go's {@code RecvPacket} then the module callback).
   *
   * @throws TxException SDK 7 (signer), IBC 16, 1, 2, 3, 5 or 12; the module's exception when
   *     its callback throws
   */
  public void recv(BlockContext ctx, MsgRecvPacket msg) {
    Addresses.validate(chain.accountPrefix(), msg.relayer());
    Packet p = msg.packet();
    validateBasic(p);
    KvStore s = ctx.store();
    ChannelEnd ch = requireOpenChannel(s, p.destinationPort(), p.destinationChannel());
    if (!ch.counterpartyPortId().equals(p.sourcePort())
        || !ch.counterpartyChannelId().equals(p.sourceChannel())) {
      throw new TxException(
          TxException.IBC, 3,
          "packet comes from " + p.sourcePort() + "/" + p.sourceChannel() + ", channel's"
              + " counterparty is " + ch.counterpartyPortId() + "/" + ch.counterpartyChannelId());
    }
    Height self = new Height(chain.revisionNumber(), ctx.height());
    if (Timeouts.passed(p.timeoutHeight(), p.timeoutTimestamp(), self, ctx.time())) {
      throw new TxException(TxException.IBC, 5, "packet timed out at " + self + ", " + ctx.time());
    }
    byte[] receiptKey = packetKey(RECEIPT, p.destinationPort(), p.destinationChannel(), p.sequence());
    if (s.has(receiptKey)) {
      return; // already received: a redundant relay is a no-op
    }
    s.put(receiptKey, RECEIPT_VALUE);
    ctx.emit(IbcEvents.packetEvent(IbcEvents.RECV_PACKET, p, ch.order().name(), null));
    IbcModule module = route(p.destinationPort());
    Optional<Acknowledgement> ack;
    try (BlockContext cb = ctx.branch()) {
      ack = module.onRecvPacket(cb, p, msg.relayer());
      if (ack.isEmpty() || ack.get().isSuccess()) {
        cb.commit(); // an error acknowledgement discards the module's writes
      }
    }
    if (ack.isPresent()) {
      writeAcknowledgement(ctx, p, ack.get());
    }
  }

  /**
   * Processes the acknowledgement of a packet this chain sent: deletes its commitment and runs the
   * module's callback.
   *
   * @throws TxException SDK 7 (signer), IBC 16, 1, 2, 3, 6 or 12; the module's exception when
   *     its callback throws
   */
  public void acknowledge(BlockContext ctx, MsgAcknowledgement msg) {
    Addresses.validate(chain.accountPrefix(), msg.relayer());
    Packet p = msg.packet();
    validateBasic(p);
    ChannelEnd ch = requireOpenChannel(ctx.store(), p.sourcePort(), p.sourceChannel());
    requireSentToCounterparty(ch, p);
    if (!consumeCommitment(ctx.store(), p)) {
      return; // already acknowledged or timed out
    }
    ctx.emit(IbcEvents.packetEvent(IbcEvents.ACKNOWLEDGE_PACKET, p, ch.order().name(), null));
    route(p.sourcePort()).onAcknowledgementPacket(ctx, p, msg.acknowledgement(), msg.relayer());
  }

  /**
   * Times a packet out: the client of the destination must be at or past the packet's timeout.
   *
   * @throws TxException SDK 7 (signer), IBC 16, 1, 3, 6, 9, 10 or 12; the module's exception
   *     when its callback throws
   */
  public void timeout(BlockContext ctx, MsgTimeout msg) {
    Addresses.validate(chain.accountPrefix(), msg.relayer());
    Packet p = msg.packet();
    validateBasic(p);
    KvStore s = ctx.store();
    ChannelEnd ch = requireChannel(s, p.sourcePort(), p.sourceChannel());
    requireSentToCounterparty(ch, p);
    ClientState client = requireClient(s, ch.clientId());
    if (!Timeouts.passed(p.timeoutHeight(), p.timeoutTimestamp(), client.latestHeight(), client.latestTime())) {
      throw new TxException(
          TxException.IBC, 9,
          "packet " + p.sequence() + " has not timed out: counterparty client at "
              + client.latestHeight() + ", " + client.latestTime());
    }
    if (!consumeCommitment(s, p)) {
      return;
    }
    ctx.emit(IbcEvents.packetEvent(IbcEvents.TIMEOUT_PACKET, p, ch.order().name(), null));
    route(p.sourcePort()).onTimeoutPacket(ctx, p, msg.relayer());
  }

  // ---------------------------------------------------------------- helpers

  /**
   * ibc-go's {@code Packet.ValidateBasic} on a relayed packet, before any state is read. (Its
   * identifier checks are left to the channel lookups, which refuse any id no channel has.)
   */
  private static void validateBasic(Packet p) {
    if (p.sequence() == 0) {
      throw invalidPacket("packet sequence must not be 0");
    }
    if (p.timeoutHeight().isZero() && p.timeoutTimestamp() == 0) {
      throw invalidPacket("packet needs a timeout height or timestamp");
    }
    requireDataSize(p.data().length);
  }

  /**
   * ibc-go's check that a packet acknowledged or timed out went to the channel's counterparty: its
   * commitment does not cover the destination.
   */
  private static void requireSentToCounterparty(ChannelEnd ch, Packet p) {
    if (!ch.counterpartyPortId().equals(p.destinationPort())
        || !ch.counterpartyChannelId().equals(p.destinationChannel())) {
      throw new TxException(TxException.IBC, 3, "packet went to " + p.destinationPort() + "/"
          + p.destinationChannel() + ", channel's counterparty is " + ch.counterpartyPortId() + "/"
          + ch.counterpartyChannelId());
    }
  }

  /** Packet data: not empty, at most {@link #MAX_PACKET_DATA_BYTES}. */
  private static void requireDataSize(int bytes) {
    if (bytes == 0) {
      throw invalidPacket("packet data must not be empty");
    }
    if (bytes > MAX_PACKET_DATA_BYTES) {
      throw invalidPacket(
          "packet data must not exceed " + MAX_PACKET_DATA_BYTES + " bytes, got " + bytes);
    }
  }

  private static TxException invalidPacket(String message) {
    return new TxException(TxException.IBC, 16, message);
  }

  /** Deletes a packet's commitment after checking it matches; false when there is none. */
  private static boolean consumeCommitment(KvStore s, Packet p) {
    return Commitments.consume(s, packetKey(COMMITMENT, p.sourcePort(), p.sourceChannel(),
        p.sequence()), Commitments.packet(p), p.sequence());
  }

  private IbcModule route(String port) {
    Provider<IbcModule> module = router.get(port);
    if (module == null) {
      throw new TxException(TxException.IBC, 12, "no module is bound to port " + port);
    }
    return module.get();
  }

  private static ChannelEnd requireChannel(KvStore s, String port, String channel) {
    return readChannel(s, port, channel)
        .orElseThrow(
            () -> new TxException(TxException.IBC, 1, "channel " + port + "/" + channel + " not found"));
  }

  private static ChannelEnd requireOpenChannel(KvStore s, String port, String channel) {
    ChannelEnd ch = requireChannel(s, port, channel);
    if (ch.state() != ChannelEnd.State.OPEN) {
      throw new TxException(TxException.IBC, 2, "channel " + port + "/" + channel + " is not open");
    }
    return ch;
  }

  private static ClientState requireClient(KvStore s, String clientId) {
    return readClient(s, clientId)
        .orElseThrow(() -> new TxException(TxException.IBC, 10, "client " + clientId + " not found"));
  }

  private static byte[] packetKey(int table, String port, String channel, long sequence) {
    return Keys.of(PREFIX, table).string(port).string(channel).u64(sequence).build();
  }

  private static Optional<ChannelEnd> readChannel(KvStore s, String port, String channel) {
    return s.get(Keys.of(PREFIX, CHANNEL).string(port).string(channel).build())
        .map(IbcCore::decodeChannel);
  }

  private static void putChannel(KvStore s, ChannelEnd ch) {
    s.put(
        Keys.of(PREFIX, CHANNEL).string(ch.portId()).string(ch.channelId()).build(),
        new ValueWriter()
            .string(ch.portId())
            .string(ch.channelId())
            .string(ch.state().name())
            .string(ch.order().name())
            .string(ch.counterpartyPortId())
            .string(ch.counterpartyChannelId())
            .string(ch.clientId())
            .string(ch.version())
            .build());
  }

  private static ChannelEnd decodeChannel(byte[] raw) {
    ValueReader r = new ValueReader(raw);
    ChannelEnd ch =
        new ChannelEnd(
            r.string(),
            r.string(),
            ChannelEnd.State.valueOf(r.string()),
            Order.valueOf(r.string()),
            r.string(),
            r.string(),
            r.string(),
            r.string());
    r.end();
    return ch;
  }

  private static Optional<ClientState> readClient(KvStore s, String clientId) {
    return s.get(Keys.of(PREFIX, CLIENT).string(clientId).build())
        .map(
            raw -> {
              ValueReader r = new ValueReader(raw);
              ClientState c =
                  new ClientState(
                      r.string(),
                      r.string(),
                      new Height(r.u64(), r.u64()),
                      Instant.ofEpochSecond(r.u64(), r.u64()));
              r.end();
              return c;
            });
  }

  private static void putClient(KvStore s, ClientState c) {
    s.put(
        Keys.of(PREFIX, CLIENT).string(c.clientId()).build(),
        new ValueWriter()
            .string(c.clientId())
            .string(c.chainId())
            .u64(c.latestHeight().revisionNumber())
            .u64(c.latestHeight().revisionHeight())
            .u64(c.latestTime().getEpochSecond())
            .u64(c.latestTime().getNano())
            .build());
  }
}
