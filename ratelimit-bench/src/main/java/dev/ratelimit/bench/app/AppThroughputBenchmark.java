package dev.ratelimit.bench.app;

import dev.ratelimit.app.chain.AppGenesis;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.relayer.Coordinator;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.transfer.MsgTransfer;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.store.LevelDbKvStore;
import dev.ratelimit.middleware.ibc.Height;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Item 4, two example chains on LevelDB (Osmosis and Stride of {@code ratelimit-app}, one
 * process, the app's relayer): transfers per second end to end, with the rate-limit middleware in
 * the transfer stack ({@code with}: a counted limit on the path at both ends) and without it
 * ({@code without}: {@link WithoutMiddlewareChainComponent}).
 *
 * <p>One invocation is {@value #BATCH} transfers of 1 uosmo from Osmosis to Stride in one block,
 * then ticks until the relayer is idle: the receives on Stride, the acknowledgements on Osmosis.
 * A tick commits one block on each chain (one LevelDB write batch each).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class AppThroughputBenchmark {
  static final int BATCH = 100;
  static final Instant GENESIS = Instant.parse("2025-01-01T00:30:00Z");
  static final String ALICE = OsmosisStride.osmosisAccount("alice");
  static final String BOB = OsmosisStride.strideAccount("bob");
  static final BigInteger FUNDS = BigInteger.TEN.pow(18);
  /** Channel value of both limits (windows of 10^6 hours): no transfer ever reaches the quota. */
  static final BigInteger CHANNEL_VALUE = BigInteger.TEN.pow(30);

  @Param({"with", "without"})
  public String middleware;

  private java.nio.file.Path root;
  private Coordinator net;
  private ChainApp osmosis;
  private boolean with;
  private long sent;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    LevelDbKvStore.useDigitsZeroToNineForFormatting(); // as a node's main (this fork's JVM)
    root = Files.createTempDirectory("ratelimit-bench-app-");
    with = switch (middleware) {
      case "with" -> true;
      case "without" -> false;
      default -> throw new IllegalArgumentException("middleware must be with or without");
    };
    AppGenesis.Builder o =
        OsmosisStride.osmosisGenesis(GENESIS).balance(ALICE, "uosmo", FUNDS);
    AppGenesis.Builder s = OsmosisStride.strideGenesis(GENESIS);
    if (with) {
      o.rateLimits(limit("uosmo", OsmosisStride.OSMOSIS_CHANNEL));
      s.rateLimits(limit(OsmosisStride.STRIDE_UOSMO, OsmosisStride.STRIDE_CHANNEL));
    }
    net =
        OsmosisStride.start(
            root,
            o.build(),
            s.build(),
            Coordinator.DEFAULT_BLOCK_STEP,
            with ? ChainComponent::open : WithoutMiddlewareChainComponent::open);
    osmosis = net.first();
  }

  private static Genesis limit(String denom, String channel) {
    RateLimit rl =
        new RateLimit(
            new Path(denom, channel), new Quota(100, 100, 1_000_000), Flow.fresh(CHANNEL_VALUE));
    return new Genesis(List.of(rl), List.of(), List.of(), List.of(), List.of(), Optional.empty());
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    try {
      check();
    } finally {
      net.close();
      deleteRoot();
    }
  }

  /** Every transfer arrived, and with the middleware every one was counted at both ends. */
  private void check() {
    if (!net.relayer().failures().isEmpty()) {
      throw new IllegalStateException("relayer failures: " + net.relayer().failures());
    }
    ChainApp stride = net.second();
    BigInteger arrived = stride.balance(BOB, OsmosisStride.STRIDE_UOSMO);
    if (!arrived.equals(BigInteger.valueOf(sent))) {
      throw new IllegalStateException(sent + " transfers sent but " + arrived + " arrived");
    }
    if (with) {
      BigInteger out = flow(osmosis, "uosmo", OsmosisStride.OSMOSIS_CHANNEL).outflow();
      BigInteger in =
          flow(stride, OsmosisStride.STRIDE_UOSMO, OsmosisStride.STRIDE_CHANNEL).inflow();
      if (!out.equals(arrived) || !in.equals(arrived)) {
        throw new IllegalStateException(
            "the middleware counted outflow " + out + " and inflow " + in + " of " + arrived);
      }
    }
  }

  private static Flow flow(ChainApp chain, String denom, String channel) {
    return chain
        .query(ctx -> chain.rateLimits().getRateLimit(ctx, new Path(denom, channel)))
        .orElseThrow()
        .flow();
  }

  private void deleteRoot() throws IOException {
    try (Stream<java.nio.file.Path> files = Files.walk(root)) {
      files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (UncheckedIOException e) {
      // best effort: a temp directory
    }
  }

  /** {@value #BATCH} transfers sent, received and acknowledged. */
  @Benchmark
  @OperationsPerInvocation(BATCH)
  public int transfers() {
    long timeout = Commitments.nanos(net.time().plus(Duration.ofHours(1)));
    for (int i = 0; i < BATCH; i++) {
      net.submit(
          osmosis,
          new MsgTransfer(
              ALICE,
              OsmosisStride.OSMOSIS_CHANNEL,
              "uosmo",
              BigInteger.ONE,
              BOB,
              Height.ZERO,
              timeout,
              ""));
    }
    net.tick();
    sent += BATCH;
    return net.relayUntilIdle(50);
  }
}
