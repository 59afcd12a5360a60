package dev.ratelimit.bench.gas;

import dev.ratelimit.bench.fixture.BenchChain;
import dev.ratelimit.bench.fixture.ManyLimits;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.rules.EpochRules;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Store gas per packet: the real middleware and keeper run the {@link BenchChain} scenario over a
 * {@link MeteredKvStore}; each operation's accesses are priced with {@link GasSchedule#COSMOS_KV}
 * and set beside the Go module's accesses for the same packet ({@link GoModuleModel}), priced the
 * same way.
 *
 * <p>{@code main} prints one line per operation, {@code OP OURS GO RATIO} ({@code GO} and {@code
 * RATIO} are {@code -} where the Go module has no such operation); {@code --detail} adds each
 * operation's accesses, the modeled gas of the first layout and of each step of the layout change
 * that led to the current one ({@link SchemaModel#FIRST}, {@link SchemaModel#steps()}), and
 * BeginBlock's gas.
 */
public final class GasReport {
  private static final Acknowledgement ERROR_ACK =
      Acknowledgement.error("ABCI code: 1: error handling packet: see events for details");

  private GasReport() {}

  /**
   * One operation's accesses, ours measured and the Go module's derived, and the flow of the
   * scenario's limit before and after it.
   */
  public record Row(
      PacketOp op,
      List<StoreAccess> ours,
      Optional<List<StoreAccess>> go,
      Flow flowBefore,
      Flow flowAfter) {
    public Row {
      Objects.requireNonNull(op, "op");
      ours = List.copyOf(ours);
      go = go.map(List::copyOf);
      Objects.requireNonNull(flowBefore, "flowBefore");
      Objects.requireNonNull(flowAfter, "flowAfter");
    }

    public long oursGas() {
      return GasSchedule.COSMOS_KV.gas(ours);
    }

    public OptionalLong goGas() {
      return go.isEmpty()
          ? OptionalLong.empty()
          : OptionalLong.of(GasSchedule.COSMOS_KV.gas(go.get()));
    }

    /** {@code OP OURS GO RATIO}, e.g. {@code send 8037 17218 0.47}. */
    public String line() {
      OptionalLong goGas = goGas();
      return op.label()
          + " "
          + oursGas()
          + " "
          + (goGas.isPresent() ? Long.toString(goGas.getAsLong()) : "-")
          + " "
          + (goGas.isPresent() ? ratio(oursGas(), goGas.getAsLong()) : "-");
    }
  }

  /** {@code ours / go} with two decimals, rounded half up; locale-independent. */
  public static String ratio(long ours, long go) {
    return BigDecimal.valueOf(ours)
        .divide(BigDecimal.valueOf(go), 2, RoundingMode.HALF_UP)
        .toPlainString();
  }

  /** Runs the scenario and returns one row per {@link PacketOp}, in declaration order. */
  public static List<Row> measure() {
    AccessLog log = new AccessLog();
    BenchChain chain = new BenchChain(new MeteredKvStore(new MemoryKvStore(), log));
    chain.initGenesis(List.of(BenchChain.scenarioLimit()));
    BlockContext ctx = chain.root();
    GoModuleModel go = GoModuleModel.scenario();
    Map<PacketOp, Row> rows = new EnumMap<>(PacketOp.class);
    Meter meter = new Meter(chain, ctx, log, go, rows);

    long[] sent = new long[1];
    meter.run(PacketOp.SEND, () -> sent[0] = chain.send(ctx));
    meter.run(PacketOp.ACK, () -> chain.acknowledge(ctx, sent[0], Acknowledgement.SUCCESS));
    long failed = chain.send(ctx);
    meter.run(PacketOp.ACK_ERROR, () -> chain.acknowledge(ctx, failed, ERROR_ACK));
    long timedOut = chain.send(ctx);
    meter.run(PacketOp.TIMEOUT, () -> chain.timeout(ctx, timedOut));
    meter.run(PacketOp.RECV, () -> chain.recv(ctx, BenchChain.receivedPacket(1)));
    chain.app().acknowledgeAsynchronously(true);
    meter.run(PacketOp.RECV_ASYNC, () -> chain.recv(ctx, BenchChain.receivedPacket(2)));
    meter.run(
        PacketOp.WRITE_ACK, () -> chain.writeAcknowledgement(ctx, 2, Acknowledgement.SUCCESS));
    return List.copyOf(rows.values());
  }

  /** Measures one operation at a time: the log holds only that operation's accesses. */
  private record Meter(
      BenchChain chain,
      BlockContext ctx,
      AccessLog log,
      GoModuleModel go,
      Map<PacketOp, Row> rows) {
    void run(PacketOp op, Runnable action) {
      Flow before = flow();
      log.clear();
      action.run();
      List<StoreAccess> ours = log.accesses();
      Flow after = flow();
      log.clear();
      rows.put(op, new Row(op, ours, go.accesses(op, before, after), before, after));
    }

    private Flow flow() {
      return chain
          .keeper()
          .getRateLimit(ctx, BenchChain.PATH)
          .orElseThrow(() -> new IllegalStateException("the scenario's rate limit is gone"))
          .flow();
    }
  }

  /**
   * BeginBlock's store gas with {@code limits} rate limits of which every {@code resetEvery}-th
   * has a 1-hour window ({@link ManyLimits}): a block inside the hour, the block that starts the
   * next hour (the keeper's rollover), and the scan-based rollover (read every limit, reset the
   * due ones) run on our store; beside it the Go module's rollover computed from its layout
   * (get and set the epoch, iterate every rate limit, and per reset get and set the rate limit and
   * open the two pending-packet prefix iterators).
   */
  public record BlockGas(
      int limits, int resets, long noRollover, long rollover, long scanAndReset, long goRollover) {}

  /** Measures {@link BlockGas}. */
  public static BlockGas measureBeginBlock(int limits, int resetEvery) {
    AccessLog log = new AccessLog();
    BenchChain chain = new BenchChain(new MeteredKvStore(new MemoryKvStore(), log));
    List<RateLimit> all = ManyLimits.of(limits, resetEvery);
    chain.initGenesis(all);
    BlockContext sameHour = chain.root();
    BlockContext nextHour =
        chain.root(BenchChain.GENESIS_HEIGHT + 600, BenchChain.GENESIS_TIME.plusSeconds(3600));
    HourEpoch epoch = chain.keeper().getHourEpoch(sameHour).orElseThrow();
    long before = epoch.epochNumber();
    long after = before + EpochRules.hoursToAdvance(epoch, nextHour.time());

    log.clear();
    chain.keeper().beginBlock(sameHour);
    long noRollover = log.gas(GasSchedule.COSMOS_KV);

    log.clear();
    try (BlockContext block = nextHour.branch()) {
      chain.keeper().beginBlock(block);
    }
    long rollover = log.gas(GasSchedule.COSMOS_KV);

    log.clear();
    int resets = 0;
    try (BlockContext block = nextHour.branch()) {
      for (RateLimit rl : chain.keeper().getAllRateLimits(block)) {
        if (EpochRules.windowEnds(before, after, rl.quota().durationHours())) {
          chain.keeper().resetRateLimit(block, rl.path());
          resets++;
        }
      }
    }
    long scanAndReset = log.gas(GasSchedule.COSMOS_KV);

    GasSchedule g = GasSchedule.COSMOS_KV;
    int epochKey = "hour-epoch".length();
    int epochValue = epochProtoBytes(epoch);
    long goRollover = g.gas(StoreAccess.get(epochKey, epochValue))
        + g.gas(StoreAccess.put(epochKey, epochValue))
        + g.gas(StoreAccess.seek());
    for (RateLimit rl : all) {
      GoModuleModel go =
          new GoModuleModel(
              rl.path().denom(),
              rl.path().channelOrClientId(),
              BenchChain.SENDER,
              BenchChain.RECEIVER,
              rl.quota());
      int key = GoModuleModel.RATE_LIMIT_PREFIX + rl.path().denom().length()
          + rl.path().channelOrClientId().length();
      int value = go.rateLimitValueBytes(rl.flow());
      goRollover += g.gas(StoreAccess.step(key, value));
      if (EpochRules.windowEnds(before, after, rl.quota().durationHours())) {
        goRollover += g.gas(StoreAccess.get(key, value))
            + g.gas(StoreAccess.put(key, value))
            + 2 * g.gas(StoreAccess.seek());
      }
    }
    return new BlockGas(limits, resets, noRollover, rollover, scanAndReset, goRollover);
  }

  private static int epochProtoBytes(HourEpoch e) {
    return dev.ratelimit.proto.v1.HourEpoch.newBuilder()
        .setEpochNumber(e.epochNumber())
        .setDuration(com.google.protobuf.Duration.newBuilder().setSeconds(3600))
        .setEpochStartTime(
            com.google.protobuf.Timestamp.newBuilder()
                .setSeconds(e.epochStartTime().getEpochSecond()))
        .setEpochStartHeight(e.epochStartHeight())
        .build()
        .getSerializedSize();
  }

  /** The {@code OP OURS GO RATIO} lines. */
  public static List<String> table(List<Row> rows) {
    return rows.stream().map(Row::line).toList();
  }

  /**
   * The modeled gas of each layout per operation, as {@code LAYOUT | send OURS RATIO | ...} lines
   * ({@code RATIO} only where the Go module has the operation): the first layout ({@link
   * SchemaModel#FIRST}), then each step of the change ({@link SchemaModel#steps()}), the last of
   * which is the current layout.
   */
  public static List<String> layoutTable(List<Row> rows) {
    SchemaModel model = SchemaModel.scenario();
    List<SchemaModel.Layout> layouts = new ArrayList<>();
    layouts.add(SchemaModel.FIRST);
    layouts.addAll(SchemaModel.steps());
    List<String> out = new ArrayList<>();
    for (SchemaModel.Layout layout : layouts) {
      StringBuilder sb = new StringBuilder(layout.name());
      for (Row row : rows) {
        long ours =
            GasSchedule.COSMOS_KV.gas(
                model.accesses(layout, row.op(), row.flowBefore(), row.flowAfter()));
        OptionalLong go = row.goGas();
        sb.append(" | ").append(row.op().label()).append(' ').append(ours);
        if (go.isPresent()) {
          sb.append(' ').append(ratio(ours, go.getAsLong()));
        }
      }
      out.add(sb.toString());
    }
    return out;
  }

  /** Prints the table; {@code --detail} adds the accesses, the modeled layouts and BeginBlock. */
  public static void main(String[] args) {
    PrintStream out = System.out;
    boolean detail = false;
    for (String arg : args) {
      switch (arg) {
        case "--detail" -> detail = true;
        case "-h", "--help" -> {
          out.println("usage: GasReport [--detail]");
          out.println("  prints OP OURS GO RATIO per packet operation (Cosmos SDK KV gas)");
          return;
        }
        default -> {
          System.err.println("unknown argument: " + arg + " (try --help)");
          System.exit(2);
          return;
        }
      }
    }
    List<Row> rows = measure();
    table(rows).forEach(out::println);
    if (detail) {
      out.println();
      out.println("# accesses (kind key+value bytes)");
      for (Row row : rows) {
        out.println(row.op().label() + " ours: " + trace(row.ours()));
        row.go().ifPresent(go -> out.println(row.op().label() + " go:   " + trace(go)));
      }
      out.println();
      out.println("# modeled layouts (gas, ratio to go): the first layout, then the change step"
          + " by step; the last step is the current layout, equal to the measurement above");
      layoutTable(rows).forEach(out::println);
      BlockGas b = measureBeginBlock(10_000, 100);
      out.println();
      out.println(
          "# begin_block with " + b.limits() + " limits, " + b.resets() + " resetting (gas)");
      out.println("no_rollover " + b.noRollover());
      out.println("rollover " + b.rollover() + " " + b.goRollover() + " "
          + ratio(b.rollover(), b.goRollover()));
      out.println("scan_and_reset " + b.scanAndReset() + " " + b.goRollover() + " "
          + ratio(b.scanAndReset(), b.goRollover()));
    }
  }

  private static String trace(List<StoreAccess> accesses) {
    return String.join(", ", accesses.stream().map(StoreAccess::toString).toList());
  }
}
