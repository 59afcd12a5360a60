package dev.ratelimit.app.relayer;

import dev.ratelimit.app.chain.Block;
import dev.ratelimit.app.chain.BlockResult;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.tx.Msg;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * Runs two chains and a {@link Relayer} in one process on one simulated clock. A {@link #tick()}
 * produces one block on each chain (the first, then the second) at the clock's time plus a fixed
 * step: the chain's queued user transactions first, then the relayer's transactions for it. The
 * relayer sees each block right after its commit, so a packet sent in the first chain's block is
 * received in the second chain's block of the same tick, and its acknowledgement returns in the
 * next tick. No wall clock and no randomness: the same calls give the same blocks and app hashes.
 *
 * <p>The coordinator keeps each chain's block log ({@link #log}) for replays. It owns the two
 * chains and closes them.
 */
public final class Coordinator implements AutoCloseable {
  /** The default block time step. */
  public static final Duration DEFAULT_BLOCK_STEP = Duration.ofSeconds(5);

  private final ChainApp first;
  private final ChainApp second;
  private final Relayer relayer;
  private final Duration step;
  private final Map<ChainApp, List<Msg>> queued = new LinkedHashMap<>();
  private final Map<ChainApp, List<Block>> log = new LinkedHashMap<>();
  private final List<BiConsumer<ChainApp, BlockResult>> listeners = new ArrayList<>();
  private Instant time;
  private boolean relaying = true;

  /**
   * @param first the chain whose block comes first in a tick; both chains must have a genesis
   * @param step the time between two ticks
   */
  public Coordinator(ChainApp first, ChainApp second, Duration step) {
    this.first = Objects.requireNonNull(first, "first");
    this.second = Objects.requireNonNull(second, "second");
    if (step.isNegative() || step.isZero()) {
      throw new IllegalArgumentException("block step must be positive, got " + step);
    }
    this.step = step;
    this.relayer = new Relayer(first, second);
    this.time =
        first.lastBlockTime().isAfter(second.lastBlockTime())
            ? first.lastBlockTime()
            : second.lastBlockTime();
    for (ChainApp c : List.of(first, second)) {
      queued.put(c, new ArrayList<>());
      log.put(c, new ArrayList<>());
    }
  }

  public ChainApp first() {
    return first;
  }

  public ChainApp second() {
    return second;
  }

  public Relayer relayer() {
    return relayer;
  }

  /** The time of the last tick's blocks (the later genesis time before the first tick). */
  public Instant time() {
    return time;
  }

  /** Turns automatic relaying on or off (packets keep queuing in the relayer while off). */
  public void setRelaying(boolean on) {
    this.relaying = on;
  }

  /** Calls {@code listener} after every block commit, with the chain and the block's result. */
  public void onCommit(BiConsumer<ChainApp, BlockResult> listener) {
    listeners.add(Objects.requireNonNull(listener, "listener"));
  }

  /** Queues a user transaction for {@code chain}'s next block. */
  public void submit(ChainApp chain, Msg msg) {
    List<Msg> q = queued.get(chain);
    if (q == null) {
      throw new IllegalArgumentException("unknown chain " + chain.chainId());
    }
    q.add(Objects.requireNonNull(msg, "msg"));
  }

  /** Submits {@code msg} to {@code chain}, runs one tick and returns the transaction's result. */
  public TxResult deliver(ChainApp chain, Msg msg) {
    if (!queued.get(chain).isEmpty()) {
      throw new IllegalStateException("other transactions are queued for " + chain.chainId());
    }
    submit(chain, msg);
    Tick t = tick();
    return t.of(chain).txs().get(0);
  }

  /** One block on each chain, {@link #DEFAULT_BLOCK_STEP} (or the configured step) later. */
  public Tick tick() {
    return tickAt(time.plus(step));
  }

  /**
   * Jumps the clock: one block on each chain {@code duration} after the last tick (BeginBlock
   * then sees the new time, so windows that ended reset).
   */
  public Tick advanceTime(Duration duration) {
    if (duration.isNegative() || duration.isZero()) {
      throw new IllegalArgumentException("duration must be positive, got " + duration);
    }
    return tickAt(time.plus(duration));
  }

  /**
   * Ticks until the relayer has nothing left to carry (packets, acknowledgements, timeouts).
   *
   * @return the number of ticks run
   * @throws IllegalStateException if it is still busy after {@code maxTicks}
   */
  public int relayUntilIdle(int maxTicks) {
    int ticks = 0;
    while (!relayer.isIdle()) {
      if (ticks == maxTicks) {
        throw new IllegalStateException("relayer still busy after " + maxTicks + " ticks");
      }
      tick();
      ticks++;
    }
    return ticks;
  }

  /** The blocks {@code chain} committed under this coordinator, in order. */
  public List<Block> log(ChainApp chain) {
    return List.copyOf(log.get(chain));
  }

  private Tick tickAt(Instant at) {
    time = at;
    BlockResult a = produce(first, at);
    BlockResult b = produce(second, at);
    return new Tick(first, a, b);
  }

  private BlockResult produce(ChainApp chain, Instant at) {
    long height = chain.lastHeight() + 1;
    chain.beginBlock(height, at);
    List<Msg> user = queued.get(chain);
    for (Msg m : user) {
      chain.deliverTx(m);
    }
    user.clear();
    if (relaying) {
      for (Msg m : relayer.messagesFor(chain, height, at)) {
        relayer.onResult(chain, chain.deliverTx(m));
      }
    }
    chain.endBlock();
    BlockResult result = chain.commit();
    log.get(chain).add(result.block());
    relayer.observe(chain, result);
    for (BiConsumer<ChainApp, BlockResult> l : listeners) {
      l.accept(chain, result);
    }
    return result;
  }

  /** Closes both chains (and their databases). */
  @Override
  public void close() {
    try {
      first.close();
    } finally {
      second.close();
    }
  }

  /** The two blocks of one tick. */
  public static final class Tick {
    private final ChainApp firstChain;
    private final BlockResult first;
    private final BlockResult second;

    Tick(ChainApp firstChain, BlockResult first, BlockResult second) {
      this.firstChain = firstChain;
      this.first = first;
      this.second = second;
    }

    /** The block {@code chain} committed in this tick. */
    public BlockResult of(ChainApp chain) {
      return chain == firstChain ? first : second;
    }

    public BlockResult first() {
      return first;
    }

    public BlockResult second() {
      return second;
    }
  }
}
