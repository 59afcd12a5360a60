package dev.ratelimit.reliability;

import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.testing.TestChain;
import dev.ratelimit.gov.AddressCodec;
import dev.ratelimit.gov.MsgRouter;
import dev.ratelimit.gov.ProposalHandler;
import dev.ratelimit.gov.RateLimitMsgHandler;
import dev.ratelimit.middleware.RateLimitMiddleware;
import dev.ratelimit.middleware.ibc.AcceptingHandshakes;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One chain with the real rate-limit stack and hand-written neighbours: the keeper (keys under
 * {@link #MODULE_PREFIX} of a store it shares with the app, as a host wires it), the middleware,
 * the governance handler, router and proposal handler, a {@link RecordingApp} above and a {@link
 * RecordingChannel} below. Both neighbours write to the shared store, so a rolled-back step that
 * leaked an app or channel write would show in the digest.
 */
final class MiddlewareRig implements AutoCloseable {
  static final byte[] MODULE_PREFIX = "s/ratelimit/".getBytes(StandardCharsets.US_ASCII);
  static final String AUTHORITY = "gov-authority";
  static final String PORT = "transfer";
  static final String RELAYER = "relayer";
  static final String SENDER = "alice";
  static final String RECEIVER = "bob";
  static final long TIMEOUT = 1_900_000_000_000_000_000L;

  final TestChain chain;
  final RateLimitKeeper keeper;
  final RecordingApp app = new RecordingApp();
  final RecordingChannel downstream = new RecordingChannel();
  final RateLimitMiddleware middleware;
  final RateLimitMsgHandler handler;
  final MsgRouter router;
  final ProposalHandler proposals;

  /** A chain at {@code genesisTime}, height 1, after InitGenesis of {@code genesis}. */
  MiddlewareRig(Instant genesisTime, Genesis genesis) {
    this(new MemoryKvStore(), genesisTime, Optional.of(genesis));
  }

  MiddlewareRig(Instant genesisTime) {
    this(genesisTime, Genesis.empty());
  }

  /** Without InitGenesis when {@code genesis} is empty (no hour epoch stored). */
  MiddlewareRig(KvStore store, Instant genesisTime, Optional<Genesis> genesis) {
    chain = new TestChain(store, 1, genesisTime, MODULE_PREFIX);
    keeper = chain.keeper();
    genesis.ifPresent(chain::initGenesis);
    middleware = new RateLimitMiddleware(keeper, downstream, () -> app);
    handler = new RateLimitMsgHandler(keeper, AUTHORITY, AddressCodec.nonBlank());
    router = new MsgRouter(handler);
    proposals = new ProposalHandler(router);
  }

  BlockContext ctx() {
    return chain.ctx();
  }

  String digest() {
    return chain.digest();
  }

  @Override
  public void close() {
    chain.close();
  }

  // ---------------------------------------------------------------- setup

  /** Opens {@code channel}, sets the denom's supply and adds a limit through the keeper. */
  RateLimit addLimit(String denom, String channel, int send, int recv, long hours, long supply) {
    chain.channels().add(channel, "counterparty-" + channel);
    chain.bank().set(denom, supply);
    return keeper.addRateLimit(ctx(), new Path(denom, channel), new Quota(send, recv, hours));
  }

  Flow flow(String denom, String channel) {
    return keeper.getRateLimit(ctx(), new Path(denom, channel)).orElseThrow().flow();
  }

  List<PendingPacket> sendMarkers(String denom, String channel) {
    return keeper.getPendingSendPackets(ctx(), new Path(denom, channel));
  }

  List<PendingPacket> recvMarkers(String denom, String channel) {
    return keeper.getPendingRecvPackets(ctx(), new Path(denom, channel));
  }

  static Flow flow(long inflow, long outflow, long channelValue) {
    return new Flow(
        BigInteger.valueOf(inflow), BigInteger.valueOf(outflow), BigInteger.valueOf(channelValue));
  }

  // ---------------------------------------------------------------- packets

  static byte[] data(String denom, long amount) {
    return PacketDataCodec.encode(
        new FungibleTokenPacketData(denom, BigInteger.valueOf(amount), SENDER, RECEIVER));
  }

  /** Sends through the middleware and returns the packet as IBC core would relay it. */
  Packet send(String channel, String denom, long amount) {
    byte[] data = data(denom, amount);
    long seq = middleware.sendPacket(ctx(), PORT, channel, Height.ZERO, TIMEOUT, data);
    return sentPacket(seq, channel, data);
  }

  static Packet sentPacket(long seq, String channel, byte[] data) {
    return new Packet(seq, PORT, channel, PORT, "channel-999", data, Height.ZERO, TIMEOUT);
  }

  /** A packet arriving on our {@code channel} from the counterparty's {@code sourceChannel}. */
  static Packet incoming(long seq, String sourceChannel, String channel, byte[] data) {
    return new Packet(seq, PORT, sourceChannel, PORT, channel, data, Height.ZERO, TIMEOUT);
  }

  Optional<Acknowledgement> recv(Packet packet) {
    return middleware.onRecvPacket(ctx(), packet, RELAYER);
  }

  void ack(Packet packet, byte[] ack) {
    middleware.onAcknowledgementPacket(ctx(), packet, ack, RELAYER);
  }

  void ack(Packet packet, Acknowledgement ack) {
    ack(packet, ack.toJsonBytes());
  }

  void timeout(Packet packet) {
    middleware.onTimeoutPacket(ctx(), packet, RELAYER);
  }

  List<Event> events(String type) {
    return chain.events().ofType(type);
  }

  // ---------------------------------------------------------------- neighbours

  /** What the recording app answers a received packet with. */
  enum RecvBehaviour {
    SUCCESS,
    ERROR,
    /** No acknowledgement now: it is written later through the middleware (packet forwarding). */
    ASYNC
  }

  /**
   * The wrapped app: records every callback; on a receive writes a key (so a rolled-back receive
   * would show) and answers as {@link #behaviour} says.
   */
  static final class RecordingApp extends AcceptingHandshakes {
    RecordingApp() {
      super("ics20-1");
    }

    RecvBehaviour behaviour = RecvBehaviour.SUCCESS;
    final List<Packet> received = new ArrayList<>();
    final List<byte[]> acks = new ArrayList<>();
    final List<Packet> acked = new ArrayList<>();
    final List<Packet> timedOut = new ArrayList<>();

    @Override
    public Optional<Acknowledgement> onRecvPacket(BlockContext ctx, Packet packet, String relayer) {
      received.add(packet);
      ctx.store()
          .put(("app/recv/" + packet.destinationChannel() + "/" + Long.toUnsignedString(
              packet.sequence())).getBytes(StandardCharsets.UTF_8), new byte[] {1});
      return switch (behaviour) {
        case SUCCESS -> Optional.of(Acknowledgement.SUCCESS);
        case ERROR -> Optional.of(Acknowledgement.error("app refused"));
        case ASYNC -> Optional.empty();
      };
    }

    @Override
    public void onAcknowledgementPacket(
        BlockContext ctx, Packet packet, byte[] acknowledgement, String relayer) {
      acked.add(packet);
      acks.add(acknowledgement == null ? null : acknowledgement.clone());
    }

    @Override
    public void onTimeoutPacket(BlockContext ctx, Packet packet, String relayer) {
      timedOut.add(packet);
    }
  }

  /**
   * IBC core below the middleware: assigns sequences per channel and writes a commitment key for
   * each send and an ack key for each written acknowledgement.
   */
  static final class RecordingChannel implements Ics4Wrapper {
    final Map<String, Long> nextSequence = new HashMap<>();
    final List<Packet> ackedPackets = new ArrayList<>();
    final List<Acknowledgement> writtenAcks = new ArrayList<>();
    int sends;

    @Override
    public long sendPacket(
        BlockContext ctx,
        String sourcePort,
        String sourceChannel,
        Height timeoutHeight,
        long timeoutTimestamp,
        byte[] data) {
      long seq = nextSequence.getOrDefault(sourceChannel, 1L);
      ctx.store()
          .put(("ibc/commit/" + sourceChannel + "/" + seq).getBytes(StandardCharsets.UTF_8), data);
      nextSequence.put(sourceChannel, seq + 1);
      sends++;
      return seq;
    }

    @Override
    public void writeAcknowledgement(BlockContext ctx, Packet packet, Acknowledgement ack) {
      if (ack == null) { // as IBC core (and the wrapper's contract)
        throw new IllegalArgumentException("acknowledgement must not be null");
      }
      ctx.store()
          .put(
              ("ibc/ack/" + packet.destinationChannel() + "/" + packet.sequence())
                  .getBytes(StandardCharsets.UTF_8),
              ack.toJsonBytes());
      ackedPackets.add(packet);
      writtenAcks.add(ack);
    }

    @Override
    public Optional<String> getAppVersion(BlockContext ctx, String portId, String channelId) {
      return Optional.of("ics20-1");
    }
  }
}
