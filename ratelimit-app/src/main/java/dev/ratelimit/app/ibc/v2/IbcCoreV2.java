package dev.ratelimit.app.ibc.v2;

import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.ibc.ClientState;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.ibc.IbcCore;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.ibc.Timeouts;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.state.Keys;
import dev.ratelimit.app.state.ValueReader;
import dev.ratelimit.app.state.ValueWriter;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.middleware.ibc.v2.Acknowledgement;
import dev.ratelimit.middleware.ibc.v2.AsyncPackets;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import dev.ratelimit.middleware.ibc.v2.Packet;
import dev.ratelimit.middleware.ibc.v2.PacketStatus;
import dev.ratelimit.middleware.ibc.v2.Payload;
import dev.ratelimit.middleware.ibc.v2.RecvPacketResult;
import dev.ratelimit.middleware.ibc.v2.WriteAcknowledgementWrapper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.inject.Inject;
import javax.inject.Provider;
import javax.inject.Singleton;

/**
 * IBC core's IBC v2 part: ibc-go v10's channel/v2 keeper and the handlers of its messages, over
 * the light clients of {@link IbcCore} whose counterparty is registered ({@link
 * ClientCounterparty}, from genesis).
 *
 * <ul>
 *   <li><b>send</b> ({@link #sendPacket}): the signer must be an address; the timeout (seconds)
 *       after this block's time, at most {@link #MAX_TIMEOUT_DELTA} later, and not yet reached by
 *       our client of the destination; the packet carries exactly one payload. Core assigns the
 *       client's next sequence, stores the commitment and emits {@code send_packet}, then calls
 *       each payload's source-port module: its refusal fails the transaction, so nothing is sent.
 *   <li><b>receive</b> ({@link #recv}): from our client's counterparty only, before the timeout;
 *       the receipt is written, then each payload's destination-port module runs in a branch. A
 *       {@code SUCCESS} or {@code ASYNC} keeps the branch; a {@code FAILURE} discards it, and the
 *       acknowledgement becomes the one universal error acknowledgement ({@link
 *       #universalErrorAcknowledgement()}) whatever the module answered. An {@code ASYNC} packet is
 *       kept ({@link AsyncPackets}) until its acknowledgement is written through {@link
 *       #writeAcknowledgement}; otherwise the acknowledgement is written at once.
 *   <li><b>acknowledgement / timeout</b> ({@link #acknowledge}, {@link #timeout}): the commitment
 *       must match and is deleted, then each payload's source-port module runs in the transaction
 *       (its failure fails the relayer's transaction). After a failed receive every payload gets
 *       the universal error acknowledgement. A timeout needs our client of the destination at or
 *       past the timeout.
 * </ul>
 *
 * Messages about a packet already handled are no-ops, as in ibc-go. Every message first needs its
 * signer (the relayer's, for receive, acknowledgement and timeout) to be an address of this
 * chain's prefix, else it fails with SDK {@code invalid_address} (7) before anything is read or
 * written. Proofs are trusted (see {@link IbcCore}).
 *
 * <p>Store (under {@link IbcCore#PREFIX}, after IBC v1's tables): 7 counterparty by client, 8
 * next send sequence by client (1 when absent, so a chain that sends no IBC v2 packet writes
 * nothing), 9 packet commitment, 10 receipt, 11 acknowledgement commitment, 12 packet awaiting an
 * asynchronous acknowledgement; the last four by client and sequence.
 *
 * <p>Error codes (codespace {@code ibc}, shared with {@link IbcCore} where they mean the same): 4
 * invalid timeout, 5 timeout elapsed, 6 commitment mismatch, 7 no receipt, 8 acknowledgement
 * already written, 9 timeout not reached, 10 client not found, 12 no module for the port, 13 empty
 * application acknowledgement, 14 no counterparty registered, 15 the packet names another
 * counterparty, 16 invalid packet (ibc-go's {@code Packet.ValidateBasic}, payloads of more than
 * {@link IbcCore#MAX_PACKET_DATA_BYTES} bytes included), 17 invalid acknowledgement, 18 no packet
 * awaits an asynchronous acknowledgement.
 */
@Singleton
public final class IbcCoreV2 implements WriteAcknowledgementWrapper, AsyncPackets {
  /** ibc-go's {@code MaxTimeoutDelta}: how far after its send block a packet may time out. */
  public static final Duration MAX_TIMEOUT_DELTA = Duration.ofHours(24);

  private static final byte[] UNIVERSAL_ERROR_ACK = Acknowledgement.universalErrorBytes();
  private static final int COUNTERPARTY = 7;
  private static final int NEXT_SEQUENCE_SEND = 8;
  private static final int COMMITMENT = 9;
  private static final int RECEIPT = 10;
  private static final int ACK = 11;
  private static final int ASYNC_PACKET = 12;
  private static final byte[] RECEIPT_VALUE = {1};

  private final IbcCore core;
  private final ChainInfo chain;
  private final Map<String, Provider<IbcModule>> router;

  /**
   * @param core IBC v1 core, which holds the light clients
   * @param router the IBC v2 module bound to each port (a provider: modules send through this core)
   */
  @Inject
  public IbcCoreV2(IbcCore core, ChainInfo chain, Map<String, Provider<IbcModule>> router) {
    this.core = Objects.requireNonNull(core, "core");
    this.chain = Objects.requireNonNull(chain, "chain");
    this.router = Map.copyOf(router);
  }

  /** IBC v2's universal error acknowledgement (the library's {@link Acknowledgement}'s). */
  public static byte[] universalErrorAcknowledgement() {
    return UNIVERSAL_ERROR_ACK.clone();
  }

  // ---------------------------------------------------------------- genesis and queries

  /**
   * Registers the genesis counterparties; with none, writes nothing.
   *
   * @throws IllegalArgumentException if a counterparty names a client this chain does not have
   */
  public void initGenesis(BlockContext ctx, List<ClientCounterparty> counterparties) {
    for (ClientCounterparty c : counterparties) {
      if (core.client(ctx, c.clientId()).isEmpty()) {
        throw new IllegalArgumentException(
            "counterparty registered for unknown client " + c.clientId());
      }
      ctx.store().put(Keys.of(IbcCore.PREFIX, COUNTERPARTY).string(c.clientId()).build(),
          new ValueWriter().string(c.clientId()).string(c.counterpartyClientId()).build());
    }
  }

  /** The counterparty registered for our client {@code clientId}. */
  public Optional<ClientCounterparty> counterparty(BlockContext ctx, String clientId) {
    return ctx.store().get(Keys.of(IbcCore.PREFIX, COUNTERPARTY).string(clientId).build())
        .map(IbcCoreV2::decodeCounterparty);
  }

  /** Every registered counterparty, by client id. */
  public List<ClientCounterparty> counterparties(BlockContext ctx) {
    List<ClientCounterparty> out = new ArrayList<>();
    try (KvScan scan = ctx.store().scanPrefix(Keys.of(IbcCore.PREFIX, COUNTERPARTY).build())) {
      while (scan.hasNext()) {
        out.add(decodeCounterparty(scan.next().value()));
      }
    }
    return out;
  }

  /** The sequence the next IBC v2 packet sent on our client gets (1 for the first). */
  public long nextSequenceSend(BlockContext ctx, String clientId) {
    return ctx.store().get(Keys.of(IbcCore.PREFIX, NEXT_SEQUENCE_SEND).string(clientId).build())
        .map(v -> new ValueReader(v).u64())
        .orElse(1L);
  }

  /** The commitment of a packet sent on our client, not yet acknowledged or timed out. */
  public Optional<byte[]> packetCommitment(BlockContext ctx, String clientId, long sequence) {
    return ctx.store().get(packetKey(COMMITMENT, clientId, sequence));
  }

  /** Whether a packet was received on our client {@code clientId}. */
  public boolean hasPacketReceipt(BlockContext ctx, String clientId, long sequence) {
    return ctx.store().has(packetKey(RECEIPT, clientId, sequence));
  }

  /** The commitment of the acknowledgement written for a packet received on our client. */
  public Optional<byte[]> packetAcknowledgement(
      BlockContext ctx, String clientId, long sequence) {
    return ctx.store().get(packetKey(ACK, clientId, sequence));
  }

  /** The packet received on our client {@code clientId} that awaits its acknowledgement. */
  @Override
  public Optional<Packet> asyncPacket(BlockContext ctx, String clientId, long sequence) {
    return ctx.store().get(packetKey(ASYNC_PACKET, clientId, sequence))
        .map(PacketCodec::decodePacket);
  }

  // ---------------------------------------------------------------- messages

  /**
   * Sends a packet ({@code MsgSendPacket}), then calls each payload's source-port module.
   *
   * @return the packet's sequence
   * @throws TxException SDK 7 (signer), IBC 4, 5, 10, 12, 14 or 16; the module's exception
   */
  public long sendPacket(BlockContext ctx, MsgSendPacketV2 msg) {
    Addresses.validate(chain.accountPrefix(), msg.signer());
    String destinationClient = requireCounterparty(ctx, msg.sourceClient());
    // ibc-go reads the uint64 timeout as an int64 Unix time here: one past 2^63 is elapsed
    long blockSeconds = ctx.time().getEpochSecond();
    if (msg.timeoutTimestamp() <= blockSeconds) {
      throw new TxException(TxException.IBC, 5, "timeout " + msg.timeoutTimestamp()
          + " is not after the block time " + blockSeconds);
    }
    if (msg.timeoutTimestamp() - blockSeconds > MAX_TIMEOUT_DELTA.toSeconds()) {
      throw new TxException(TxException.IBC, 4, "timeout " + msg.timeoutTimestamp()
          + " is more than " + MAX_TIMEOUT_DELTA.toHours() + " h after the block time");
    }
    long sequence = nextSequenceSend(ctx, msg.sourceClient());
    Packet packet = new Packet(
        sequence, msg.sourceClient(), destinationClient, msg.timeoutTimestamp(), msg.payloads());
    validateBasic(packet);
    ClientState client = core.client(ctx, msg.sourceClient()).orElseThrow(
        () -> new TxException(TxException.IBC, 10, "client " + msg.sourceClient() + " not found"));
    if (Timeouts.passedSeconds(packet.timeoutTimestamp(), client.latestTime())) {
      throw new TxException(TxException.IBC, 5, "the counterparty is already past the timeout"
          + " (client at " + client.latestTime() + ")");
    }
    KvStore s = ctx.store();
    s.put(Keys.of(IbcCore.PREFIX, NEXT_SEQUENCE_SEND).string(msg.sourceClient()).build(),
        new ValueWriter().u64(sequence + 1).build());
    s.put(packetKey(COMMITMENT, msg.sourceClient(), sequence), CommitmentsV2.packet(packet));
    ctx.emit(IbcEventsV2.packetEvent(IbcEvents.SEND_PACKET, packet, null));
    for (Payload p : packet.payloads()) {
      route(p.sourcePort())
          .onSendPacket(ctx, msg.sourceClient(), destinationClient, sequence, p, msg.signer());
    }
    return sequence;
  }

  /**
   * Receives a packet ({@code MsgRecvPacket}) and runs each payload's destination-port module.
   *
   * @throws TxException SDK 7 (signer), IBC 5, 12, 14, 15, 16 or 17 (a module answering the
   *     universal error acknowledgement as a success); the module's exception when its callback
   *     throws
   */
  public void recv(BlockContext ctx, MsgRecvPacketV2 msg) {
    Addresses.validate(chain.accountPrefix(), msg.relayer());
    Packet p = msg.packet();
    validateBasic(p);
    requireCounterparty(ctx, p.destinationClient(), p.sourceClient());
    if (Timeouts.passedSeconds(p.timeoutTimestamp(), ctx.time())) {
      throw new TxException(TxException.IBC, 5, "packet timed out at " + ctx.time());
    }
    byte[] receiptKey = packetKey(RECEIPT, p.destinationClient(), p.sequence());
    if (ctx.store().has(receiptKey)) {
      return; // already received: a redundant relay is a no-op
    }
    ctx.store().put(receiptKey, RECEIPT_VALUE);
    ctx.emit(IbcEventsV2.packetEvent(IbcEvents.RECV_PACKET, p, null));
    List<byte[]> appAcks = new ArrayList<>();
    boolean async = false;
    for (Payload payload : p.payloads()) {
      RecvPacketResult result;
      try (BlockContext cb = ctx.branch()) {
        result = Objects.requireNonNull(route(payload.destinationPort()).onRecvPacket(
            cb, p.sourceClient(), p.destinationClient(), p.sequence(), payload, msg.relayer()),
            "the module's RecvPacketResult");
        if (result.status() != PacketStatus.FAILURE) {
          if (Arrays.equals(result.acknowledgement(), UNIVERSAL_ERROR_ACK)) {
            throw new TxException(TxException.IBC, 17,
                "an application acknowledgement must not be the universal error acknowledgement");
          }
          cb.commit(); // a FAILURE leaves the branch to be discarded: the module's writes go
        }
      }
      if (result.status() == PacketStatus.FAILURE) {
        appAcks = List.of(UNIVERSAL_ERROR_ACK); // whatever the module answered
        break;
      }
      appAcks.add(result.acknowledgement());
      async |= result.status() == PacketStatus.ASYNC;
    }
    if (async) {
      ctx.store().put(packetKey(ASYNC_PACKET, p.destinationClient(), p.sequence()),
          PacketCodec.encode(p));
      return;
    }
    Acknowledgement ack = new Acknowledgement(appAcks);
    validate(ack);
    writeAcknowledgement(ctx, p, ack);
  }

  /**
   * Writes the asynchronous acknowledgement of a packet received on our client {@code clientId}
   * (ibc-go's {@code WriteAcknowledgement}), below the rate-limit middleware.
   *
   * @throws TxException codes 7, 8, 13, 14, 15, 17 or 18 (no such packet awaits one)
   */
  @Override
  public void writeAcknowledgement(
      BlockContext ctx, String clientId, long sequence, Acknowledgement acknowledgement) {
    if (acknowledgement == null) {
      throw new TxException(TxException.IBC, 17, "acknowledgement must not be null");
    }
    validate(acknowledgement);
    Packet packet = asyncPacket(ctx, clientId, sequence).orElseThrow(() -> new TxException(
        TxException.IBC, 18, "no packet " + clientId + "/" + sequence
            + " awaits an asynchronous acknowledgement"));
    writeAcknowledgement(ctx, packet, acknowledgement);
    ctx.store().delete(packetKey(ASYNC_PACKET, clientId, sequence));
  }

  /**
   * Processes the acknowledgement of a packet this chain sent ({@code MsgAcknowledgement}).
   *
   * @throws TxException SDK 7 (signer), IBC 6, 12, 13, 14, 15, 16 or 17; the module's exception
   */
  public void acknowledge(BlockContext ctx, MsgAcknowledgementV2 msg) {
    Addresses.validate(chain.accountPrefix(), msg.relayer());
    Packet p = msg.packet();
    validateBasic(p);
    validate(msg.acknowledgement());
    requireCounterparty(ctx, p.sourceClient(), p.destinationClient());
    if (!consumeCommitment(ctx.store(), p)) {
      return; // already acknowledged or timed out
    }
    ctx.emit(IbcEventsV2.packetEvent(IbcEvents.ACKNOWLEDGE_PACKET, p, null));
    List<byte[]> appAcks = msg.acknowledgement().appAcknowledgements();
    boolean received = !Arrays.equals(appAcks.get(0), UNIVERSAL_ERROR_ACK);
    for (int i = 0; i < p.payloads().size(); i++) {
      Payload payload = p.payloads().get(i);
      route(payload.sourcePort()).onAcknowledgementPacket(ctx, p.sourceClient(),
          p.destinationClient(), p.sequence(), received ? appAcks.get(i) : UNIVERSAL_ERROR_ACK,
          payload, msg.relayer());
    }
  }

  /**
   * Times a packet this chain sent out ({@code MsgTimeout}): our client of the destination must
   * be at or past its timeout.
   *
   * @throws TxException SDK 7 (signer), IBC 6, 9, 10, 12, 14, 15 or 16; the module's exception
   */
  public void timeout(BlockContext ctx, MsgTimeoutV2 msg) {
    Addresses.validate(chain.accountPrefix(), msg.relayer());
    Packet p = msg.packet();
    validateBasic(p);
    requireCounterparty(ctx, p.sourceClient(), p.destinationClient());
    ClientState client = core.client(ctx, p.sourceClient()).orElseThrow(
        () -> new TxException(TxException.IBC, 10, "client " + p.sourceClient() + " not found"));
    if (!Timeouts.passedSeconds(p.timeoutTimestamp(), client.latestTime())) {
      throw new TxException(TxException.IBC, 9, "packet " + p.sequence()
          + " has not timed out: counterparty client at " + client.latestTime());
    }
    if (!consumeCommitment(ctx.store(), p)) {
      return;
    }
    ctx.emit(IbcEventsV2.packetEvent(IbcEvents.TIMEOUT_PACKET, p, null));
    for (Payload payload : p.payloads()) {
      route(payload.sourcePort()).onTimeoutPacket(ctx, p.sourceClient(), p.destinationClient(),
          p.sequence(), payload, msg.relayer());
    }
  }

  // ---------------------------------------------------------------- helpers

  private void writeAcknowledgement(BlockContext ctx, Packet p, Acknowledgement ack) {
    requireCounterparty(ctx, p.destinationClient(), p.sourceClient());
    KvStore s = ctx.store();
    byte[] ackKey = packetKey(ACK, p.destinationClient(), p.sequence());
    if (s.has(ackKey)) {
      throw new TxException(TxException.IBC, 8, "packet " + p.sequence()
          + " is already acknowledged");
    }
    if (!s.has(packetKey(RECEIPT, p.destinationClient(), p.sequence()))) {
      throw new TxException(TxException.IBC, 7, "packet " + p.sequence() + " was never received");
    }
    s.put(ackKey, CommitmentsV2.acknowledgement(ack));
    ctx.emit(IbcEventsV2.packetEvent(IbcEvents.WRITE_ACKNOWLEDGEMENT, p, ack));
  }

  /** Deletes a packet's commitment after checking it matches; false when there is none. */
  private static boolean consumeCommitment(KvStore s, Packet p) {
    return Commitments.consume(s, packetKey(COMMITMENT, p.sourceClient(), p.sequence()),
        CommitmentsV2.packet(p), p.sequence());
  }

  /** Our client's counterparty client id. */
  private String requireCounterparty(BlockContext ctx, String clientId) {
    return counterparty(ctx, clientId).map(ClientCounterparty::counterpartyClientId)
        .orElseThrow(() -> new TxException(TxException.IBC, 14,
            "no counterparty registered for client " + clientId));
  }

  /** Checks that a packet's other end is our client's counterparty. */
  private void requireCounterparty(BlockContext ctx, String ours, String theirs) {
    String registered = requireCounterparty(ctx, ours);
    if (!registered.equals(theirs)) {
      throw new TxException(TxException.IBC, 15, "client " + ours + "'s counterparty is "
          + registered + ", not " + theirs);
    }
  }

  /** ibc-go's {@code Packet.ValidateBasic} (a message's stateless checks). */
  private static void validateBasic(Packet p) {
    if (p.payloads().size() != 1) {
      throw invalidPacket("a packet carries exactly one payload, got " + p.payloads().size());
    }
    long dataBytes = 0;
    for (Payload payload : p.payloads()) {
      dataBytes += payload.value().length;
      if (!isIdentifier(payload.sourcePort(), 2, 128)
          || !isIdentifier(payload.destinationPort(), 2, 128)) {
        throw invalidPacket("invalid port id " + Texts.quote(payload.sourcePort()) + " or "
            + Texts.quote(payload.destinationPort()));
      }
      if (Texts.isGoBlank(payload.version()) || Texts.isGoBlank(payload.encoding())) {
        throw invalidPacket("payload version and encoding must not be blank");
      }
      if (payload.value().length == 0) {
        throw invalidPacket("payload value must not be empty");
      }
    }
    if (dataBytes > IbcCore.MAX_PACKET_DATA_BYTES) {
      throw invalidPacket("payloads must not exceed " + IbcCore.MAX_PACKET_DATA_BYTES
          + " bytes together, got " + dataBytes);
    }
    if (!isIdentifier(p.sourceClient(), 8, 64) || !isIdentifier(p.destinationClient(), 8, 64)) {
      throw invalidPacket("invalid client id " + Texts.quote(p.sourceClient()) + " or "
          + Texts.quote(p.destinationClient()));
    }
    if (p.sequence() == 0) {
      throw invalidPacket("packet sequence must not be 0");
    }
    if (p.timeoutTimestamp() == 0) {
      throw invalidPacket("packet timeout must not be 0");
    }
  }

  /** ibc-go's {@code Acknowledgement.Validate}: exactly one application acknowledgement. */
  private static void validate(Acknowledgement ack) {
    List<byte[]> appAcks = ack.appAcknowledgements();
    if (appAcks.size() != 1) {
      throw new TxException(TxException.IBC, 17,
          "an acknowledgement holds exactly one application acknowledgement, got "
              + appAcks.size());
    }
    if (appAcks.get(0).length == 0) {
      throw new TxException(TxException.IBC, 13, "application acknowledgement must not be empty");
    }
  }

  /** ibc-go's host identifier rule: length in [min, max], {@code [a-zA-Z0-9._+\-#\[\]<>]}. */
  private static boolean isIdentifier(String id, int min, int max) {
    if (id.length() < min || id.length() > max) {
      return false;
    }
    for (int i = 0; i < id.length(); i++) {
      char c = id.charAt(i);
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
          || "._+-#[]<>".indexOf(c) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static TxException invalidPacket(String message) {
    return new TxException(TxException.IBC, 16, message);
  }

  private IbcModule route(String port) {
    Provider<IbcModule> module = router.get(port);
    if (module == null) {
      throw new TxException(TxException.IBC, 12, "no IBC v2 module is bound to port " + port);
    }
    return module.get();
  }

  private static byte[] packetKey(int table, String clientId, long sequence) {
    return Keys.of(IbcCore.PREFIX, table).string(clientId).u64(sequence).build();
  }

  private static ClientCounterparty decodeCounterparty(byte[] raw) {
    ValueReader r = new ValueReader(raw);
    ClientCounterparty c = new ClientCounterparty(r.string(), r.string());
    r.end();
    return c;
  }
}
