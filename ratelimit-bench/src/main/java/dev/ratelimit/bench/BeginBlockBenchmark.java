package dev.ratelimit.bench;

import dev.ratelimit.bench.fixture.BenchChain;
import dev.ratelimit.bench.fixture.ManyLimits;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.rules.EpochRules;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Item 3, BeginBlock with {@value #LIMITS} rate limits, {@value #RESET_EVERY_NTH}-th of which (1 %)
 * have a 1-hour window: a block inside the hour (no rollover: one epoch read), the block that
 * starts the next hour (the keeper's rollover: the reset schedule's groups whose window ends, so
 * 100 resets), and beside it the scan-based way (the Go module's): read every limit and test its
 * window ({@link #fullScan}), and the same plus the 100 resets ({@link #fullScanAndReset}).
 *
 * <p>Every rollover runs in a branch that is discarded, so each invocation starts from the same
 * state (epoch 10 at 10:00 UTC, the block at 11:30).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 1)
public class BeginBlockBenchmark {
  static final int LIMITS = 10_000;
  static final int RESET_EVERY_NTH = 100;

  @Param({Engines.MEMORY, Engines.LEVELDB})
  public String engine;

  private Engines engines;
  private RateLimitKeeper keeper;
  private BlockContext sameHour;
  private BlockContext nextHour;
  private long epochBefore;
  private long epochAfter;

  @Setup(Level.Trial)
  public void setUp() {
    engines = Engines.open(engine);
    BenchChain chain = new BenchChain(engines.store());
    chain.initGenesis(ManyLimits.of(LIMITS, RESET_EVERY_NTH));
    keeper = chain.keeper();
    sameHour = chain.root(BenchChain.GENESIS_HEIGHT + 1, BenchChain.GENESIS_TIME.plusSeconds(60));
    nextHour =
        chain.root(BenchChain.GENESIS_HEIGHT + 600, BenchChain.GENESIS_TIME.plusSeconds(3600));
    HourEpoch epoch = keeper.getHourEpoch(sameHour).orElseThrow();
    epochBefore = epoch.epochNumber();
    epochAfter = epochBefore + EpochRules.hoursToAdvance(epoch, nextHour.time());
    if (epochAfter != epochBefore + 1) {
      throw new IllegalStateException("the rollover block must advance exactly one hour");
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    engines.close();
  }

  /** A block inside the current hour: the keeper reads the epoch and returns. */
  @Benchmark
  public void noRollover() {
    keeper.beginBlock(sameHour);
  }

  /** The block that starts the next hour: the keeper resets the 1 % whose window ends. */
  @Benchmark
  public void rollover() {
    try (BlockContext block = nextHour.branch()) {
      keeper.beginBlock(block);
    }
  }

  /** The scan-based way, without the writes: read all limits and count those whose window ends. */
  @Benchmark
  public int fullScan() {
    try (BlockContext block = nextHour.branch()) {
      int due = 0;
      for (RateLimit rl : keeper.getAllRateLimits(block)) {
        if (EpochRules.windowEnds(epochBefore, epochAfter, rl.quota().durationHours())) {
          due++;
        }
      }
      return due;
    }
  }

  /** The scan-based way in full: read all limits and reset those whose window ends. */
  @Benchmark
  public int fullScanAndReset() {
    try (BlockContext block = nextHour.branch()) {
      int due = 0;
      for (RateLimit rl : keeper.getAllRateLimits(block)) {
        if (EpochRules.windowEnds(epochBefore, epochAfter, rl.quota().durationHours())) {
          keeper.resetRateLimit(block, rl.path());
          due++;
        }
      }
      return due;
    }
  }
}
