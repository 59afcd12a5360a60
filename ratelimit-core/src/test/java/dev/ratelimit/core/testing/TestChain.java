package dev.ratelimit.core.testing;

import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.store.StoreDigest;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * A minimal host chain for tests: one module store, the current block (height, header time), a
 * {@link FakeBank}, {@link FakeChannels}, a {@link RecordingEventSink} and the keeper over them.
 * {@link #ctx()} is the root {@link BlockContext} of the current block.
 */
public final class TestChain implements AutoCloseable {
  private final KvStore store;
  private final FakeBank bank = new FakeBank();
  private final FakeChannels channels = new FakeChannels();
  private final RecordingEventSink events = new RecordingEventSink();
  private final RateLimitKeeper keeper;
  private long height;
  private Instant time;

  public TestChain(KvStore store, long height, Instant time) {
    this(store, height, time, new byte[0]);
  }

  /**
   * A chain whose keeper keeps its keys under {@code storePrefix} of a store shared with other
   * modules (an empty prefix: the keeper owns the whole store).
   */
  public TestChain(KvStore store, long height, Instant time, byte[] storePrefix) {
    this.store = Objects.requireNonNull(store, "store");
    this.height = height;
    this.time = Objects.requireNonNull(time, "time");
    this.keeper = new RateLimitKeeper(bank, channels, storePrefix);
  }

  /** A chain on a memory store at height 1. */
  public static TestChain inMemory(Instant time) {
    return new TestChain(new MemoryKvStore(), 1, time);
  }

  /** A chain on a new store of {@code engine} (under {@code tempDir}) at height 1. */
  public static TestChain open(StoreEngine engine, Path tempDir, Instant time) {
    return new TestChain(engine.open(tempDir), 1, time);
  }

  public KvStore store() {
    return store;
  }

  public FakeBank bank() {
    return bank;
  }

  public FakeChannels channels() {
    return channels;
  }

  public RecordingEventSink events() {
    return events;
  }

  public RateLimitKeeper keeper() {
    return keeper;
  }

  public long height() {
    return height;
  }

  public Instant time() {
    return time;
  }

  /** The root context of the current block. */
  public BlockContext ctx() {
    return BlockContext.of(height, time, store, events);
  }

  /** Moves to the next block at {@code blockTime} (height + 1) without running BeginBlock. */
  public BlockContext nextBlock(Instant blockTime) {
    height++;
    time = Objects.requireNonNull(blockTime, "blockTime");
    return ctx();
  }

  /** Moves to the next block {@code after} the current time, without running BeginBlock. */
  public BlockContext nextBlock(Duration after) {
    return nextBlock(time.plus(after));
  }

  /** Moves to the next block at {@code blockTime} and runs the keeper's BeginBlock in it. */
  public BlockContext beginBlock(Instant blockTime) {
    BlockContext ctx = nextBlock(blockTime);
    keeper.beginBlock(ctx);
    return ctx;
  }

  /** Runs InitGenesis in the current block. */
  public void initGenesis(Genesis genesis) {
    keeper.initGenesis(ctx(), genesis);
  }

  /** The store's content digest (hex), to prove that a failed step changed nothing. */
  public String digest() {
    return StoreDigest.hex(store);
  }

  /** Closes the store if it holds resources (LevelDB). */
  @Override
  public void close() {
    if (store instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException("cannot close " + store, e);
      }
    }
  }
}
