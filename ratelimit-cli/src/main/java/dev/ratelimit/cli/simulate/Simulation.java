package dev.ratelimit.cli.simulate;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.GenesisCodec;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.host.EventSink;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.store.KvBranch;
import dev.ratelimit.core.store.NodeHome;
import dev.ratelimit.gov.AddressCodec;
import dev.ratelimit.gov.MsgRouter;
import dev.ratelimit.gov.ProposalHandler;
import dev.ratelimit.gov.RateLimitMsgHandler;
import dev.ratelimit.middleware.RateLimitMiddleware;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.proto.v1.GenesisState;
import dev.ratelimit.proto.v1.Params;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * One scenario's chain: the real keeper, middleware, message router and proposal handler over the
 * scenario's store, with the host faked from the scenario. Each step runs as one transaction: a
 * branch of the current block, committed only when the step succeeds; a {@code begin_block}
 * commits the block (one atomic write, with the last-block record) and begins the next.
 */
final class Simulation implements AutoCloseable {
  static final String RELAYER = "relayer";

  private final Scenario scenario;
  private final SimulationStore store;
  private final FakeHost.Bank bank = new FakeHost.Bank();
  private final FakeHost.Channels channels = new FakeHost.Channels();
  private final FakeHost.StandInApp app = new FakeHost.StandInApp();
  private final FakeHost.ChannelKeeper core = new FakeHost.ChannelKeeper(channels);
  private final RateLimitKeeper keeper;
  private final RateLimitMiddleware middleware;
  private final MsgRouter router;
  private final ProposalHandler proposals;

  private KvBranch block;
  private long height;
  private Instant time;
  private List<String> genesisWarnings = List.of();

  Simulation(Scenario scenario, SimulationStore store) {
    this.scenario = scenario;
    this.store = store;
    scenario.supply().forEach(bank::set);
    scenario.channels().forEach(channels::add);
    scenario.clients().forEach(channels::add);
    this.keeper = new RateLimitKeeper(bank, channels);
    this.middleware = new RateLimitMiddleware(keeper, core, app);
    this.router =
        new MsgRouter(new RateLimitMsgHandler(keeper, scenario.authority(), AddressCodec.nonBlank()));
    this.proposals = new ProposalHandler(router);
    this.height = scenario.startHeight();
    this.time = scenario.startTime();
    this.block = store.db().branch();
  }

  long height() {
    return height;
  }

  Instant time() {
    return time;
  }

  List<String> genesisWarnings() {
    return genesisWarnings;
  }

  /**
   * The default genesis: no limits, no lists, an hour epoch to initialise. Its duration is left
   * absent (which means 3600s): merging a given {@code "0s"} onto a set 3600s would keep 3600s,
   * as protobuf merges no zero scalar, and hide an invalid genesis.
   */
  static GenesisState defaultGenesis() {
    return GenesisState.newBuilder()
        .setParams(Params.getDefaultInstance())
        .setHourEpoch(dev.ratelimit.proto.v1.HourEpoch.getDefaultInstance())
        .build();
  }

  /**
   * InitGenesis at the start time and height (the scenario's genesis merged field by field onto
   * the default one), then BeginBlock of that first block.
   *
   * @return the error when InitGenesis rejected the genesis, or when the first block's BeginBlock
   *     failed on it (an imported epoch that cannot advance: code 13): the chain cannot start
   */
  Optional<RuntimeException> initChain() {
    try {
      GenesisState.Builder b = defaultGenesis().toBuilder();
      if (scenario.genesisJson().isPresent()) {
        // field by field: messages merge, lists append
        b.mergeFrom(GenesisCodec.protoFromJson(scenario.genesisJson().get()));
      }
      GenesisCodec.Decoded decoded = GenesisCodec.fromProto(b.build());
      genesisWarnings = decoded.warnings();
      inTransaction(EventSink.discarding(), ctx -> {
        keeper.initGenesis(ctx, decoded.genesis());
        return true;
      });
      inTransaction(EventSink.discarding(), ctx -> {
        keeper.beginBlock(ctx);
        return true;
      });
    } catch (RuntimeException e) {
      return Optional.of(e);
    }
    return Optional.empty();
  }

  /** Commits the current block; the store is left as a node would leave it. */
  void finish() {
    commitBlock();
    store.finished(channels.counterpartyChainIds());
  }

  @Override
  public void close() {
    block.close();
  }

  private void commitBlock() {
    NodeHome.writeLastBlock(block, new NodeHome.LastBlock(height, time));
    block.commit();
    block = store.db().branch();
  }

  /**
   * Runs {@code body} in a transaction branch of the current block: committed when it returns
   * true, discarded when it returns false or throws.
   */
  private void inTransaction(EventSink sink, Function<BlockContext, Boolean> body) {
    KvBranch tx = block.branch();
    boolean keep = false;
    try {
      BlockContext ctx = BlockContext.of(height, time, NodeHome.rateLimitStore(tx), sink);
      keep = body.apply(ctx);
    } finally {
      if (keep) {
        tx.commit();
      } else {
        tx.discard();
      }
    }
  }

  /** A read-only context: a branch that is always discarded. */
  private <T> T read(Function<BlockContext, T> body) {
    KvBranch tx = block.branch();
    try {
      return body.apply(BlockContext.of(height, time, NodeHome.rateLimitStore(tx), EventSink.discarding()));
    } finally {
      tx.discard();
    }
  }

  // ---------------------------------------------------------------- steps

  StepOutcome run(Step step) {
    List<Event> events = new ArrayList<>();
    EventSink sink = events::add;
    app.resetCalled();
    Step.Action action = step.action();
    if (action instanceof Step.Check check) {
      StringBuilder answer = new StringBuilder();
      List<String> mismatches = read(ctx -> check(ctx, check, answer));
      return new StepOutcome(
          mismatches.isEmpty(), Optional.empty(), Optional.empty(), false, events, mismatches,
          step.op(), answer.toString());
    }
    if (action instanceof Step.BeginBlock bb) {
      commitBlock();
      height = bb.height();
      time = bb.time();
    }
    Holder<Optional<Acknowledgement>> recvAck = new Holder<>();
    Optional<Throwable> error = Optional.empty();
    boolean[] ok = {false};
    try {
      inTransaction(sink, ctx -> {
        ok[0] = execute(ctx, action, recvAck);
        return ok[0];
      });
    } catch (RuntimeException e) {
      ok[0] = false;
      error = Optional.of(e);
    }
    return new StepOutcome(
        ok[0], error, Optional.ofNullable(recvAck.value), app.called(), events, List.of(),
        step.op(), "");
  }

  private static final class Holder<T> {
    T value;
  }

  /** Executes an action; returns whether it succeeded (false rolls back its writes). */
  private boolean execute(
      BlockContext ctx, Step.Action action, Holder<Optional<Acknowledgement>> recvAck) {
    if (action instanceof Step.BeginBlock) {
      keeper.beginBlock(ctx);
    } else if (action instanceof Step.SetSupply s) {
      bank.set(s.denom(), s.amount());
    } else if (action instanceof Step.AddChannel c) {
      channels.add(c.channel());
    } else if (action instanceof Step.AddClient c) {
      channels.add(c.client());
    } else if (action instanceof Step.Msg m) {
      router.route(ctx, m.msg());
    } else if (action instanceof Step.Proposal p) {
      if (!p.messages().isEmpty()) { // a passed proposal without messages executes nothing
        proposals.execute(ctx, p.messages());
      }
    } else if (action instanceof Step.Undecodable u) {
      throw new RateLimitException(ErrorCode.INVALID_REQUEST, u.reason());
    } else if (action instanceof Step.Send s) {
      Step.PacketSpec p = s.packet();
      core.setNextSequence(p.sequence());
      Packet sent = p.toPacket(Height.ZERO, timeoutNanos(time));
      middleware.sendPacket(
          ctx, p.sourcePort(), p.sourceChannel(), sent.timeoutHeight(), sent.timeoutTimestamp(),
          p.data());
    } else if (action instanceof Step.Recv r) {
      app.answerRecvWith(r.appAck());
      Optional<Acknowledgement> ack = middleware.onRecvPacket(ctx, packet(r.packet()), RELAYER);
      recvAck.value = ack;
      // core IBC keeps no writes of a receive answered with an error acknowledgement
      return ack.map(Acknowledgement::isSuccess).orElse(true);
    } else if (action instanceof Step.WriteAck w) {
      middleware.writeAcknowledgement(
          ctx,
          packet(w.packet()),
          switch (w.ack()) {
            case SUCCESS -> FakeHost.StandInApp.SUCCESS;
            case ERROR -> FakeHost.StandInApp.ERROR;
            case MISSING -> null; // IBC core refuses it, as ibc-go's does
          });
    } else if (action instanceof Step.AckPacket a) {
      middleware.onAcknowledgementPacket(ctx, packet(a.packet()), a.acknowledgement(), RELAYER);
    } else if (action instanceof Step.Timeout t) {
      middleware.onTimeoutPacket(ctx, packet(t.packet()), RELAYER);
    } else if (action instanceof Step.BlacklistAdd b) {
      keeperApi(() -> keeper.addDenomToBlacklist(ctx, b.denom()));
    } else if (action instanceof Step.BlacklistRemove b) {
      keeperApi(() -> keeper.removeDenomFromBlacklist(ctx, b.denom()));
    } else if (action instanceof Step.WhitelistAdd w) {
      keeperApi(
          () ->
              keeper.setWhitelistedAddressPair(
                  ctx, new WhitelistedAddressPair(w.sender(), w.receiver())));
    } else if (action instanceof Step.WhitelistRemove w) {
      keeperApi(
          () ->
              keeper.removeWhitelistedAddressPair(
                  ctx, new WhitelistedAddressPair(w.sender(), w.receiver())));
    } else {
      throw new IllegalStateException("not an action: " + action);
    }
    return true;
  }

  /**
   * A send's timeout, an hour after the block, in nanoseconds since 1970 (IBC's uint64), saturated
   * for block times past 2262, where the nanoseconds leave a long (the stand-in channel never
   * times a packet out).
   */
  static long timeoutNanos(Instant blockTime) {
    long seconds = blockTime.getEpochSecond() + 3600;
    if (seconds <= 0) {
      return 0; // before 1970: no timestamp timeout, as IBC reads 0
    }
    return seconds >= Long.MAX_VALUE / 1_000_000_000L ? Long.MAX_VALUE : seconds * 1_000_000_000L;
  }

  /**
   * A keeper-API call of a list step: an argument the keeper refuses (an empty denom or address)
   * fails the step as {@code invalid_request}, as a module calling the keeper would report it.
   */
  private static void keeperApi(Runnable call) {
    asRequest(
        () -> {
          call.run();
          return null;
        });
  }

  /**
   * {@code value}'s result; an argument refused by a record or the keeper ({@link
   * IllegalArgumentException}) is a request that fails as {@code invalid_request}.
   */
  static <T> T asRequest(Supplier<T> value) {
    try {
      return value.get();
    } catch (IllegalArgumentException e) {
      throw new RateLimitException(ErrorCode.INVALID_REQUEST, e.getMessage());
    }
  }

  private static Packet packet(Step.PacketSpec p) {
    return p.toPacket(Height.ZERO, 0);
  }

  /** The module's hour epoch right now, for the runner's lines. */
  Optional<HourEpoch> hourEpoch() {
    return read(keeper::getHourEpoch);
  }

  private static Optional<Path> path(String denom, String id) {
    try {
      return Optional.of(new Path(denom, id));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  // ---------------------------------------------------------------- checks

  private List<String> check(BlockContext ctx, Step.Check check, StringBuilder answer) {
    List<String> out = new ArrayList<>();
    if (check instanceof Step.CheckRateLimit c) {
      checkRateLimit(ctx, c, out, answer);
    } else if (check instanceof Step.CheckPending c) {
      checkPending(ctx, c, out);
    } else if (check instanceof Step.CheckEpoch c) {
      checkEpoch(ctx, c, out);
    } else if (check instanceof Step.CheckBlacklist c) {
      Set<String> actual = new TreeSet<>(keeper.getAllBlacklistedDenoms(ctx));
      if (!actual.equals(new TreeSet<>(c.denoms()))) {
        out.add("expected blacklist " + sorted(c.denoms()) + " got " + sorted(actual));
      }
    } else if (check instanceof Step.CheckWhitelist c) {
      Set<Step.Pair> actual =
          keeper.getAllWhitelistedAddressPairs(ctx).stream()
              .map(p -> new Step.Pair(p.sender(), p.receiver()))
              .collect(Collectors.toSet());
      if (!actual.equals(Set.copyOf(c.pairs()))) {
        out.add("expected whitelist " + pairs(c.pairs()) + " got " + pairs(actual));
      }
    } else if (check instanceof Step.CheckExport c) {
      out.addAll(
          ExportComparison.compare(c.genesis(), GenesisCodec.toProto(keeper.exportGenesis(ctx))));
    } else if (check instanceof Step.CheckQuery c) {
      answer.append(QueryCheck.check(keeper, ctx, c, out));
    }
    return out;
  }

  private void checkRateLimit(
      BlockContext ctx, Step.CheckRateLimit c, List<String> out, StringBuilder answer) {
    Optional<Path> path = path(c.denom(), c.channelOrClientId());
    Optional<RateLimit> rl = path.flatMap(p -> keeper.getRateLimit(ctx, p));
    answer.append(rl.map(Simulation::describe).orElse("no rate limit"));
    String where = c.channelOrClientId() + "/" + c.denom();
    if (c.absent()) {
      rl.ifPresent(r -> out.add("expected no rate limit on " + where + " got " + describe(r)));
      return;
    }
    if (rl.isEmpty()) {
      out.add("expected a rate limit on " + where + " got none");
      return;
    }
    RateLimit r = rl.get();
    c.flow().ifPresent(f -> compareFields("flow", f, Map.of(
        "inflow", r.flow().inflow(),
        "outflow", r.flow().outflow(),
        "channel_value", r.flow().channelValue()), out));
    c.quota().ifPresent(q -> compareFields("quota", q, Map.of(
        "max_percent_send", BigInteger.valueOf(r.quota().maxPercentSend()),
        "max_percent_recv", BigInteger.valueOf(r.quota().maxPercentRecv()),
        "duration_hours", new BigInteger(Long.toUnsignedString(r.quota().durationHours()))), out));
  }

  private static void compareFields(
      String group, Map<String, BigInteger> expected, Map<String, BigInteger> actual,
      List<String> out) {
    expected.forEach(
        (k, v) -> {
          BigInteger a = actual.get(k);
          if (!v.equals(a)) {
            out.add("expected " + group + "." + k + " " + v + " got " + a);
          }
        });
  }

  static String describe(RateLimit r) {
    return "quota {send " + r.quota().maxPercentSend() + "%, recv " + r.quota().maxPercentRecv()
        + "%, " + Long.toUnsignedString(r.quota().durationHours()) + "h} flow {inflow "
        + r.flow().inflow() + ", outflow " + r.flow().outflow() + ", channel_value "
        + r.flow().channelValue() + "}";
  }

  private void checkPending(BlockContext ctx, Step.CheckPending c, List<String> out) {
    Optional<Path> path = path(c.denom(), c.channelOrClientId());
    c.sendSequences().ifPresent(expected -> {
      Set<BigInteger> actual = sequences(path.map(p -> keeper.getPendingSendPackets(ctx, p)));
      if (!actual.equals(expected)) {
        out.add("expected send_sequences " + sorted(expected) + " got " + sorted(actual));
      }
    });
    c.recvSequences().ifPresent(expected -> {
      Set<BigInteger> actual = sequences(path.map(p -> keeper.getPendingRecvPackets(ctx, p)));
      if (!actual.equals(expected)) {
        out.add("expected recv_sequences " + sorted(expected) + " got " + sorted(actual));
      }
    });
  }

  private static Set<BigInteger> sequences(Optional<List<PendingPacket>> packets) {
    return packets.orElse(List.of()).stream()
        .map(p -> new BigInteger(Long.toUnsignedString(p.sequence())))
        .collect(Collectors.toCollection(TreeSet::new));
  }

  private void checkEpoch(BlockContext ctx, Step.CheckEpoch c, List<String> out) {
    Optional<HourEpoch> epoch = keeper.getHourEpoch(ctx);
    if (epoch.isEmpty()) {
      out.add("expected an hour epoch got none");
      return;
    }
    HourEpoch e = epoch.get();
    c.epochNumber().ifPresent(n -> {
      BigInteger actual = new BigInteger(Long.toUnsignedString(e.epochNumber()));
      if (!n.equals(actual)) {
        out.add("expected epoch_number " + n + " got " + actual);
      }
    });
    c.epochStartTime().ifPresent(t -> {
      if (!t.equals(e.epochStartTime())) {
        out.add("expected epoch_start_time " + t + " got " + e.epochStartTime());
      }
    });
    c.epochStartHeight().ifPresent(h -> {
      if (!h.equals(BigInteger.valueOf(e.epochStartHeight()))) {
        out.add("expected epoch_start_height " + h + " got " + e.epochStartHeight());
      }
    });
  }

  static <T extends Comparable<? super T>> String sorted(Collection<T> values) {
    return new TreeSet<>(values).toString();
  }

  private static String pairs(Collection<Step.Pair> pairs) {
    return pairs.stream()
        .map(p -> p.sender() + "->" + p.receiver())
        .sorted()
        .collect(Collectors.toList())
        .toString();
  }
}
