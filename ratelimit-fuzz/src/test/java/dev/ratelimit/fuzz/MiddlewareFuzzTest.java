package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.testing.TestChain;
import dev.ratelimit.middleware.RateLimitMiddleware;
import dev.ratelimit.middleware.ibc.AcceptingHandshakes;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec.AckClass;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * One to four packet steps through the real middleware, against SPEC §2-§6 on a model written
 * here: each step's outcome (a send's code or sequence, a receive's acknowledgement), its events,
 * and every flow and pending marker after it (the store byte for byte when nothing may change).
 * A later step may settle what an earlier one sent or received, after a BeginBlock that reset
 * its window (SPEC §4) or a change of a denom's supply. The chain starts with limits where the
 * arithmetic is easy to get wrong: flows near 2^63 and near 2^256, a percentage that does not
 * divide, 0 %, a channel value of 0, a blacklisted denom with a limit, a client id; and with
 * pending markers for the acknowledgements to find. The fuzzer chooses the
 * step, its ids, sequence, data and acknowledgement, mostly well formed so that the accounting is
 * reached, with amounts at and around each limit's remaining capacity.
 */
class MiddlewareFuzzTest {
  private static final Instant BLOCK_TIME = Instant.parse("2024-01-05T04:30:00Z");
  private static final String ATOM = DenomFuzzTest.ibcHash("transfer/channel-0/uatom");
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
  private static final BigInteger MAX = Expected.LIMIT.subtract(BigInteger.ONE);
  private static final BigInteger HUNDRED = BigInteger.valueOf(100);
  private static final Set<String> BLACKLIST = Set.of("ubad", "unolimit");
  private static final WhitelistedAddressPair WHITELISTED =
      new WhitelistedAddressPair("alice", "bob");

  private static final List<RateLimit> LIMITS = List.of(
      limit("ustrd", "channel-0", 10, 10, 1, big(30), big(50), big(1000)),
      limit(ATOM, "channel-0", 33, 33, 24, big(0), big(7), big(999_999_999_999_999_999L)),
      limit("ulong", "channel-0", 100, 100, 1,
          LONG_MAX.subtract(big(5)), LONG_MAX.subtract(big(7)), LONG_MAX),
      limit("ubig", "channel-0", 100, 100, 1,
          BigInteger.ONE.shiftLeft(255), MAX.subtract(big(9)), MAX),
      limit("uzero", "channel-0", 0, 1, 1, big(0), big(0), big(500)),
      limit("uosmo", "channel-0", 1, 1, 1, big(5), big(5), big(0)),
      limit("ubad", "channel-0", 10, 10, 1, big(0), big(0), big(1000)),
      limit("ustrd", "channel-1", 1, 100, 1, big(0), big(0), big(1000)),
      limit("ustrd", "07-tendermint-0", 50, 50, 1, big(0), big(0), big(1000)));
  private static final List<PendingPacket> SEND_MARKERS = List.of(
      new PendingPacket("channel-0", "ustrd", 5),
      new PendingPacket("channel-0", "ustrd", 6),
      new PendingPacket("channel-0", ATOM, 5),
      new PendingPacket("channel-0", "ulong", 5),
      new PendingPacket("channel-0", "ubig", 5),
      new PendingPacket("channel-1", "ustrd", 5));
  private static final List<PendingPacket> RECV_MARKERS = List.of(
      new PendingPacket("channel-0", "ustrd", 7),
      new PendingPacket("channel-0", ATOM, 7),
      new PendingPacket("channel-0", "ubig", 7),
      new PendingPacket("07-tendermint-0", "ustrd", 7));
  private static final Genesis GENESIS = new Genesis(
      LIMITS, List.of(WHITELISTED), List.copyOf(new TreeSet<>(BLACKLIST)), SEND_MARKERS,
      RECV_MARKERS, Optional.of(new HourEpoch(100, Instant.parse("2024-01-05T04:00:00Z"), 1)));

  private static final String[] IDS = {
    "channel-0", "channel-1", "07-tendermint-0", "channel-2", "channel-9", "channel-00"};
  private static final String[] DENOMS = {
    "ustrd", "ulong", "ubig", "uzero", "uosmo", "ubad", "unolimit", "uatom", ATOM,
    "transfer/channel-0/uatom", "transfer/channel-9/ustrd", "transfer/channel-9/ulong",
    "transfer/channel-9/ubig", "transfer/channel-9/ubad", "transfer/channel-9/uzero",
    "transfer/channel-9/transfer/channel-0/uatom", "transfer/channel-9/",
    "transfer/channel-0/ustrd"};
  private static final long[] SEQUENCES = {5, 6, 7, 8, 0};
  /** Block intervals around an hour's end and a day's. */
  private static final long[] MINUTES = {0, 29, 30, 31, 89, 90, 91, 20 * 60 - 30, 20 * 60 - 29};

  private enum Step { SEND, RECV, ACK, TIMEOUT, WRITE_ACK, BEGIN_BLOCK, SUPPLY }

  /**
   * How the app answers a receive: an ack returned, none yet, or none returned because it wrote
   * one through the middleware during its own onRecvPacket (SPEC §5's writeAcknowledgement).
   */
  private enum AppAck { SUCCESS, ERROR, ASYNC, WRITES_SUCCESS, WRITES_ERROR }

  /** The answers a step picks first; the saved inputs were picked by this order of consumes. */
  private static final AppAck[] RETURNED = {AppAck.SUCCESS, AppAck.ERROR, AppAck.ASYNC};

  /**
   * Whether an app that acks asynchronously writes its ack during the receive, read from the
   * fuzzer only once the app is called (so no saved input reads anything more before that).
   */
  private static final class AsyncMode {
    private final FuzzedDataProvider in;
    private AppAck chosen;

    AsyncMode(FuzzedDataProvider in) {
      this.in = in;
    }

    AppAck get() {
      if (chosen == null) {
        chosen = new AppAck[] {AppAck.ASYNC, AppAck.WRITES_SUCCESS, AppAck.WRITES_ERROR}
            [in.consumeInt(0, 2)];
      }
      return chosen;
    }

    boolean wroteAck() {
      return chosen != null && chosen != AppAck.ASYNC;
    }
  }

  @FuzzTest(maxDuration = "5m")
  void steps_agreeWithTheModel(FuzzedDataProvider in) {
    Model model = new Model();
    try (TestChain chain = new TestChain(new MemoryKvStore(), 2, BLOCK_TIME)) {
      chain.initGenesis(GENESIS);
      model.supply.forEach(chain.bank()::set);
      int steps = in.consumeInt(1, 4);
      for (int i = 0; i < steps && in.remainingBytes() > 0; i++) {
        step(in, model, chain);
      }
    }
  }

  /** One step from the fuzzer, then the chain's events, flows, markers and store checked. */
  private static void step(FuzzedDataProvider in, Model model, TestChain chain) {
    Step step = in.pickValue(Step.values());
    long sequence =
        in.consumeBoolean() ? SEQUENCES[in.consumeInt(0, SEQUENCES.length - 1)] : in.consumeLong();
    String port = in.consumeInt(0, 7) > 0 ? "transfer" : in.consumeString(12);
    String channel = id(in);
    String counterpartyPort = in.consumeInt(0, 7) > 0 ? "transfer" : in.consumeString(12);
    String counterpartyChannel = id(in);
    AppAck appAck = in.pickValue(RETURNED);
    byte[] ack = switch (in.consumeInt(0, 4)) {
      case 0 -> "{\"result\":\"AQ==\"}".getBytes(StandardCharsets.UTF_8);
      case 1 -> "{\"error\":\"refused\"}".getBytes(StandardCharsets.UTF_8);
      case 2 -> Expected.sha256("UNIVERSAL_ERROR_ACKNOWLEDGEMENT");
      default -> in.consumeBytes(64);
    };
    byte[] data =
        in.consumeInt(0, 7) == 0 ? in.consumeBytes(in.consumeInt(0, 300)) : packetData(in);

    chain.events().clear();
    model.events.clear();
    model.appCalls = 0;
    Model.State before = model.state();
    String digestBefore = chain.digest();
    AsyncMode asyncMode = new AsyncMode(in);
    App app = new App(appAck, asyncMode);
    Channel downstream = new Channel(sequence);
    RateLimitMiddleware middleware = new RateLimitMiddleware(chain.keeper(), downstream, app);
    app.middleware = middleware;
    BlockContext ctx = chain.ctx();
    switch (step) {
      case BEGIN_BLOCK -> {
        long minutes = in.consumeBoolean()
            ? MINUTES[in.consumeInt(0, MINUTES.length - 1)]
            : in.consumeLong(0, 72 * 60);
        Instant time = chain.time().plus(Duration.ofMinutes(minutes));
        model.beginBlock(time);
        chain.beginBlock(time);
      }
      case SUPPLY -> {
        String denom = LIMITS.get(in.consumeInt(0, LIMITS.size() - 1)).path().denom();
        BigInteger supply = switch (in.consumeInt(0, 3)) {
          case 0 -> BigInteger.ZERO;
          // Jazzer 0.24's consumeLong(0, Long.MAX_VALUE) returned a negative number here
          case 1 -> big(in.consumeLong() & Long.MAX_VALUE);
          case 2 -> new BigInteger(1, in.consumeBytes(32));
          default -> MAX;
        };
        model.supply.put(denom, supply);
        chain.bank().set(denom, supply);
      }
      case SEND -> {
        Optional<ErrorCode> refused = model.send(channel, data, sequence);
        if (refused.isPresent()) {
          RateLimitException e = assertThrows(RateLimitException.class,
              () -> middleware.sendPacket(ctx, port, channel, Height.ZERO, 1L, data));
          assertEquals(refused.get(), e.code(), e::getMessage);
          Expected.assertReason(e);
        } else {
          assertEquals(
              sequence, middleware.sendPacket(ctx, port, channel, Height.ZERO, 1L, data));
        }
      }
      case RECV -> {
        Packet p = packet(sequence, counterpartyPort, counterpartyChannel, port, channel, data);
        Optional<Acknowledgement> expected = model.recv(p, appAck, asyncMode);
        assertEquals(expected, middleware.onRecvPacket(ctx, p, "relayer"));
        assertEquals(model.appCalls, app.calls, "the app was called iff the packet passed");
        assertEquals(asyncMode.wroteAck() ? 1 : 0, downstream.acks, "an ack written goes down");
      }
      case ACK, TIMEOUT -> {
        Packet p = packet(sequence, port, channel, counterpartyPort, counterpartyChannel, data);
        if (step == Step.ACK) {
          model.ack(p, AcknowledgementFuzzTest.expectedClass(ack));
          middleware.onAcknowledgementPacket(ctx, p, ack, "relayer");
        } else {
          model.settleSend(p, true);
          middleware.onTimeoutPacket(ctx, p, "relayer");
        }
        assertEquals(1, app.calls, "the app is always called");
      }
      case WRITE_ACK -> {
        Packet p = packet(sequence, counterpartyPort, counterpartyChannel, port, channel, data);
        boolean success = appAck == AppAck.SUCCESS;
        model.settleRecv(p, success);
        middleware.writeAcknowledgement(
            ctx, p, success ? Acknowledgement.SUCCESS : Acknowledgement.error("failed"));
        assertEquals(1, downstream.acks, "the ack always goes down to IBC core");
      }
    }
    List<String> events = chain.events().events().stream().map(MiddlewareFuzzTest::shown).toList();
    if (step == Step.BEGIN_BLOCK) { // in store order, which the model does not keep
      assertEquals(model.events.stream().sorted().toList(), events.stream().sorted().toList());
    } else {
      assertEquals(model.events, events, "events");
    }
    Genesis after = chain.keeper().exportGenesis(chain.ctx());
    assertEquals(model.state(), new Model.State(
        after.rateLimits().stream().collect(Collectors.toMap(RateLimit::path, RateLimit::flow)),
        new HashSet<>(after.pendingSendPackets()), new HashSet<>(after.pendingRecvPackets()),
        after.hourEpoch().orElseThrow().epochNumber()), "flows, pending markers and epoch");
    if (model.state().equals(before)) {
      assertEquals(digestBefore, chain.digest(), "nothing may be written");
    }
  }

  /** The model of SPEC §2-§5 on {@link #GENESIS}. */
  private static final class Model {
    final Map<Path, BigInteger[]> flows = new HashMap<>(); // {inflow, outflow, channel value}
    final Set<PendingPacket> sends = new HashSet<>(SEND_MARKERS);
    final Set<PendingPacket> recvs = new HashSet<>(RECV_MARKERS);
    final List<String> events = new ArrayList<>();
    final Map<String, BigInteger> supply = new HashMap<>();
    long epochNumber = GENESIS.hourEpoch().orElseThrow().epochNumber();
    Instant epochStart = GENESIS.hourEpoch().orElseThrow().epochStartTime();
    int appCalls;

    Model() {
      for (RateLimit l : LIMITS) {
        Flow f = l.flow();
        flows.put(l.path(), new BigInteger[] {f.inflow(), f.outflow(), f.channelValue()});
        supply.put(l.path().denom(), f.channelValue()); // each denom's limits share one value
      }
    }

    /**
     * SPEC §4: every hour the block time has passed (strictly) since the epoch started; a limit
     * whose window ended starts afresh at the supply (kept when zero, with an event) and loses
     * its markers.
     */
    void beginBlock(Instant time) {
      long seconds = Duration.between(epochStart, time).toSeconds();
      long hours = seconds > 0 ? (seconds - 1) / 3600 : 0;
      if (hours == 0) {
        return;
      }
      long before = epochNumber;
      epochNumber += hours;
      epochStart = epochStart.plus(Duration.ofHours(hours));
      for (Map.Entry<Path, BigInteger[]> e : flows.entrySet()) {
        Path path = e.getKey();
        long duration = quota(path).durationHours();
        if (epochNumber / duration == before / duration) {
          continue;
        }
        BigInteger s = supply.getOrDefault(path.denom(), BigInteger.ZERO);
        BigInteger[] f = e.getValue();
        if (s.signum() == 0) {
          events.add(RateLimitEvents.CHANNEL_VALUE_KEPT + " " + path);
        }
        e.setValue(new BigInteger[] {BigInteger.ZERO, BigInteger.ZERO, s.signum() == 0 ? f[2] : s});
        sends.removeIf(m -> m.channelOrClientId().equals(path.channelOrClientId())
            && m.denom().equals(path.denom()));
        recvs.removeIf(m -> m.channelOrClientId().equals(path.channelOrClientId())
            && m.denom().equals(path.denom()));
      }
    }

    Optional<ErrorCode> send(String channel, byte[] data, long sequence) {
      Object resolved = resolve(data, channel, ftpd -> DenomFuzzTest.expectedSend(ftpd.denom()));
      if (resolved instanceof ErrorCode c) {
        return Optional.of(c);
      }
      Counted counted = (Counted) resolved;
      Optional<ErrorCode> refused = check(true, counted);
      if (refused.isPresent()) {
        return refused;
      }
      if (sequence == 0) {
        return Optional.of(invalid(ErrorCode.INVALID_PACKET_DATA));
      }
      if (count(true, counted)) {
        sends.add(new PendingPacket(channel, counted.denom, sequence));
      }
      return Optional.empty();
    }

    Optional<Acknowledgement> recv(Packet p, AppAck returned, AsyncMode asyncMode) {
      Object resolved = resolve(p.data(), p.destinationChannel(), ftpd -> recvDenom(p, ftpd));
      if (resolved instanceof Counted && p.sequence() == 0) {
        resolved = invalid(ErrorCode.INVALID_PACKET_DATA);
      }
      if (resolved instanceof ErrorCode c) {
        return Optional.of(Acknowledgement.rateLimitError(c.code()));
      }
      Counted counted = (Counted) resolved;
      Optional<ErrorCode> refused = check(false, counted);
      if (refused.isPresent()) {
        return Optional.of(Acknowledgement.rateLimitError(refused.get().code()));
      }
      appCalls++;
      AppAck appAck = returned == AppAck.ASYNC ? asyncMode.get() : returned;
      switch (appAck) {
        case SUCCESS -> {
          count(false, counted);
          return Optional.of(Acknowledgement.SUCCESS);
        }
        case ERROR -> {
          return Optional.of(App.ERROR); // rolled back: the inflow, the app's writes
        }
        default -> { // no ack returned: a marker, settled at once when the app wrote its ack
          if (count(false, counted)) {
            recvs.add(new PendingPacket(p.destinationChannel(), counted.denom, p.sequence()));
          }
          if (appAck != AppAck.ASYNC) {
            settleRecv(p, appAck == AppAck.WRITES_SUCCESS);
          }
          return Optional.empty();
        }
      }
    }

    void ack(Packet p, AckClass ackClass) {
      switch (ackClass) {
        case SUCCESS -> settleSend(p, false);
        case ERROR -> settleSend(p, true);
        case MALFORMED -> { // nothing settled, but the packet's own fault is reported too
          invalid(ErrorCode.INVALID_ACKNOWLEDGEMENT);
          sent(p);
        }
      }
    }

    /** An ack, error ack or timeout: a marker of this window gives the outflow back on failure. */
    void settleSend(Packet p, boolean failed) {
      Object resolved = sent(p);
      if (resolved instanceof Counted c
          && sends.remove(new PendingPacket(p.sourceChannel(), c.denom, p.sequence())) && failed) {
        BigInteger[] f = flows.get(c.path());
        f[1] = f[1].subtract(c.amount).max(BigInteger.ZERO);
      }
    }

    /** What a sent packet counts against, or the code of its fault (reported in an event). */
    private Object sent(Packet p) {
      Object resolved =
          resolve(p.data(), p.sourceChannel(), ftpd -> DenomFuzzTest.expectedSend(ftpd.denom()));
      return resolved instanceof Counted && p.sequence() == 0
          ? invalid(ErrorCode.INVALID_PACKET_DATA)
          : resolved;
    }

    /** An async ack of a received packet: a marker gives the inflow back on failure. */
    void settleRecv(Packet p, boolean success) {
      Object resolved = resolve(p.data(), p.destinationChannel(), ftpd -> recvDenom(p, ftpd));
      if (resolved instanceof Counted && p.sequence() == 0) {
        resolved = invalid(ErrorCode.INVALID_PACKET_DATA);
      }
      if (resolved instanceof Counted c
          && recvs.remove(new PendingPacket(p.destinationChannel(), c.denom, p.sequence()))
          && !success) {
        BigInteger[] f = flows.get(c.path());
        f[0] = f[0].subtract(c.amount).max(BigInteger.ZERO);
      }
    }

    /** SPEC §3 and §5: what the packet counts against, or the code (and event) of its fault. */
    private Object resolve(
        byte[] data, String channel, Function<FungibleTokenPacketData, Object> denomOf) {
      Object decoded = PacketDataFuzzTest.expectedDecode(data);
      if (decoded instanceof ErrorCode c) {
        return invalid(c);
      }
      if (!DenomFuzzTest.isHop(channel)) {
        return invalid(ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID);
      }
      FungibleTokenPacketData ftpd = (FungibleTokenPacketData) decoded;
      Object denom = denomOf.apply(ftpd);
      if (denom instanceof ErrorCode c) {
        return invalid(c);
      }
      return new Counted(channel, (String) denom, ftpd.amount(), ftpd.sender(), ftpd.receiver());
    }

    private static Object recvDenom(Packet p, FungibleTokenPacketData ftpd) {
      return DenomFuzzTest.expectedRecvInPacket(ftpd.denom(),
          p.sourcePort(), p.sourceChannel(), p.destinationPort(), p.destinationChannel());
    }

    /** SPEC §2's order of checks: the code of a refusal (and its event), or empty. */
    private Optional<ErrorCode> check(boolean send, Counted c) {
      if (BLACKLIST.contains(c.denom)) {
        events.add(RateLimitEvents.TRANSFER_DENIED + " "
            + RateLimitEvents.REASON_BLACKLISTED_DENOM);
        return Optional.of(ErrorCode.DENOM_BLACKLISTED);
      }
      BigInteger[] f = flows.get(c.path());
      if (f == null || WHITELISTED.equals(new WhitelistedAddressPair(c.sender, c.receiver))) {
        return Optional.empty();
      }
      Quota quota = quota(c.path());
      int pct = send ? quota.maxPercentSend() : quota.maxPercentRecv();
      BigInteger net = send ? f[1].subtract(f[0]) : f[0].subtract(f[1]);
      BigInteger threshold = f[2].multiply(BigInteger.valueOf(pct)).divide(HUNDRED);
      if (f[2].signum() != 0 && net.add(c.amount).compareTo(threshold) > 0) {
        events.add(RateLimitEvents.TRANSFER_DENIED + " "
            + RateLimitEvents.REASON_RATE_LIMIT_EXCEEDED);
        return Optional.of(ErrorCode.QUOTA_EXCEEDED);
      }
      if (f[send ? 1 : 0].add(c.amount).compareTo(MAX) > 0) {
        events.add(RateLimitEvents.FLOW_OVERFLOW + " "
            + RateLimitEvents.action(send ? PacketDirection.SEND : PacketDirection.RECV)
            + " " + c.path());
        return Optional.of(ErrorCode.FLOW_OVERFLOW);
      }
      return Optional.empty();
    }

    /** Adds a checked packet to its flow; whether it was counted (a limit, no whitelisting). */
    private boolean count(boolean send, Counted c) {
      BigInteger[] f = flows.get(c.path());
      if (f == null || WHITELISTED.equals(new WhitelistedAddressPair(c.sender, c.receiver))) {
        return false;
      }
      f[send ? 1 : 0] = f[send ? 1 : 0].add(c.amount);
      return true;
    }

    private ErrorCode invalid(ErrorCode code) {
      events.add(RateLimitEvents.INVALID_PACKET + " " + code.code());
      return code;
    }

    /** Every flow and pending marker, and the hour epoch. */
    record State(Map<Path, Flow> flows, Set<PendingPacket> sends, Set<PendingPacket> recvs,
        long epochNumber) {}

    State state() {
      Map<Path, Flow> m = new HashMap<>();
      flows.forEach((path, f) -> m.put(path, new Flow(f[0], f[1], f[2])));
      return new State(m, Set.copyOf(sends), Set.copyOf(recvs), epochNumber);
    }
  }

  /** A packet as the keeper counts it. */
  private record Counted(
      String channel, String denom, BigInteger amount, String sender, String receiver) {
    Path path() {
      return new Path(denom, channel);
    }
  }

  private static Quota quota(Path path) {
    return LIMITS.stream().filter(l -> l.path().equals(path)).findFirst().orElseThrow().quota();
  }

  static String shown(Event e) {
    if (e.type().equals(RateLimitEvents.CHANNEL_VALUE_KEPT)) {
      return e.type() + " " + new Path(e.attribute("denom").orElseThrow(),
          e.attribute("channel_or_client").orElseThrow());
    }
    if (e.type().equals(RateLimitEvents.FLOW_OVERFLOW)) {
      return e.type() + " " + e.attribute("action").orElseThrow() + " "
          + new Path(e.attribute("denom").orElseThrow(),
              e.attribute("channel_or_client").orElseThrow());
    }
    String detail = e.type().equals(RateLimitEvents.INVALID_PACKET) ? "code" : "reason";
    return e.type() + " " + e.attribute(detail).orElse("-");
  }

  // ---------------------------------------------------------------- inputs

  private static String id(FuzzedDataProvider in) {
    return in.consumeInt(0, 7) > 0 ? IDS[in.consumeInt(0, IDS.length - 1)] : in.consumeString(24);
  }

  /** ICS-20 packet data: fields from the fuzzer, mostly names the limits know. */
  private static byte[] packetData(FuzzedDataProvider in) {
    String denom = in.consumeInt(0, 7) > 0
        ? DENOMS[in.consumeInt(0, DENOMS.length - 1)]
        : in.consumeString(48);
    String amount = amount(in);
    String sender = in.consumeInt(0, 3) > 0
        ? (in.consumeBoolean() ? "alice" : "carol")
        : in.consumeString(12);
    String receiver = in.consumeInt(0, 3) > 0
        ? (in.consumeBoolean() ? "bob" : "dave")
        : in.consumeString(12);
    StringBuilder json = new StringBuilder("{");
    field(json, "denom", denom).append(',');
    field(json, "amount", amount).append(',');
    field(json, "sender", sender).append(',');
    field(json, "receiver", receiver);
    if (in.consumeBoolean()) {
      field(json.append(','), "memo", in.consumeString(16));
    }
    return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
  }

  /** Mostly a limit's remaining capacity in either direction, give or take two. */
  private static String amount(FuzzedDataProvider in) {
    switch (in.consumeInt(0, 5)) {
      case 0 -> {
        return Long.toString(in.consumeLong(0, 2_000));
      }
      case 1 -> {
        return in.consumeString(80);
      }
      case 2 -> {
        return new BigInteger(1, in.consumeBytes(33)).toString();
      }
      default -> {
        RateLimit l = LIMITS.get(in.consumeInt(0, LIMITS.size() - 1));
        Flow f = l.flow();
        boolean send = in.consumeBoolean();
        int pct = send ? l.quota().maxPercentSend() : l.quota().maxPercentRecv();
        BigInteger net = send ? f.outflow().subtract(f.inflow()) : f.inflow().subtract(f.outflow());
        BigInteger threshold = f.channelValue().multiply(BigInteger.valueOf(pct)).divide(HUNDRED);
        BigInteger room = threshold.subtract(net);
        return room.add(BigInteger.valueOf(in.consumeInt(-2, 2))).toString();
      }
    }
  }

  static StringBuilder field(StringBuilder json, String key, String value) {
    json.append('"').append(key).append("\":\"");
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '"' || c == '\\') {
        json.append('\\').append(c);
      } else if (c < 0x20) {
        json.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
      } else {
        json.append(c);
      }
    }
    return json.append('"');
  }

  private static Packet packet(long sequence, String sourcePort, String sourceChannel,
      String destinationPort, String destinationChannel, byte[] data) {
    return new Packet(sequence, sourcePort, sourceChannel, destinationPort, destinationChannel,
        data, Height.ZERO, 1L);
  }

  private static RateLimit limit(String denom, String channel, int send, int recv, long hours,
      BigInteger inflow, BigInteger outflow, BigInteger channelValue) {
    return new RateLimit(new Path(denom, channel), new Quota(send, recv, hours),
        new Flow(inflow, outflow, channelValue));
  }

  private static BigInteger big(long value) {
    return BigInteger.valueOf(value);
  }

  // ---------------------------------------------------------------- neighbours

  /**
   * The wrapped transfer app: acknowledges receives as told, writes nothing to the store; an ack
   * it writes during its receive goes through the middleware, as a forwarding app's would.
   */
  private static final class App extends AcceptingHandshakes {
    static final Acknowledgement ERROR = Acknowledgement.error("app refused");
    final AppAck returned;
    final AsyncMode asyncMode;
    RateLimitMiddleware middleware;
    int calls;

    App(AppAck returned, AsyncMode asyncMode) {
      super("ics20-1");
      this.returned = returned;
      this.asyncMode = asyncMode;
    }

    @Override
    public Optional<Acknowledgement> onRecvPacket(BlockContext ctx, Packet packet, String relayer) {
      calls++;
      AppAck recvAck = returned == AppAck.ASYNC ? asyncMode.get() : returned; // as the model
      return switch (recvAck) {
        case SUCCESS -> Optional.of(Acknowledgement.SUCCESS);
        case ERROR -> Optional.of(ERROR);
        case ASYNC -> Optional.empty();
        case WRITES_SUCCESS, WRITES_ERROR -> {
          middleware.writeAcknowledgement(ctx, packet,
              recvAck == AppAck.WRITES_SUCCESS ? Acknowledgement.SUCCESS : ERROR);
          yield Optional.empty();
        }
      };
    }

    @Override
    public void onAcknowledgementPacket(
        BlockContext ctx, Packet packet, byte[] ack, String relayer) {
      calls++;
    }

    @Override
    public void onTimeoutPacket(BlockContext ctx, Packet packet, String relayer) {
      calls++;
    }
  }

  /** IBC core below: hands out the fuzzer's sequence, counts written acks. */
  private static final class Channel implements Ics4Wrapper {
    final long sequence;
    int acks;

    Channel(long sequence) {
      this.sequence = sequence;
    }

    @Override
    public long sendPacket(BlockContext ctx, String sourcePort, String sourceChannel,
        Height timeoutHeight, long timeoutTimestamp, byte[] data) {
      return sequence;
    }

    @Override
    public void writeAcknowledgement(BlockContext ctx, Packet packet, Acknowledgement ack) {
      acks++;
    }

    @Override
    public Optional<String> getAppVersion(BlockContext ctx, String portId, String channelId) {
      return Optional.empty();
    }
  }
}
