package dev.ratelimit.bench;

import dev.ratelimit.bench.fixture.BenchChain;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Packet;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
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
import org.openjdk.jmh.infra.Blackhole;

/**
 * Item 2, the hot path on one thread: a counted send (decode the ICS-20 JSON, hash the denom
 * trace, read the path's limit row (quota, blacklist bit, flow), whitelist check, write the row
 * with the new flow, pending marker, in the middleware's own branch) and a counted receive (the
 * same without a marker, the app acking at once), beside the floor: the very same store gets,
 * has-checks and puts with the same keys and values, and nothing else.
 *
 * <p>Like a chain, transactions write into the block's branch of the engine, and every {@value
 * Blocks#TXS_PER_BLOCK} transactions the block is committed to the engine (one write batch) and a
 * new block starts ({@link Blocks}); the floors run in the same setting. Send sequences cycle
 * through {@value #SEQUENCE_WINDOW} values so the number of pending markers stays bounded, and
 * received packets cycle through as many sequences; the floors use the same cycling sequences in
 * their marker keys, so they touch as many distinct keys as the real operations. The limit's
 * channel value is 10^30, so no packet is ever rejected.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 1)
public class HotPathBenchmark {
  static final int SEQUENCE_WINDOW = 10_000;
  static final BigInteger SUPPLY = BigInteger.TEN.pow(30);
  static final Flow FLOW =
      new Flow(BenchChain.FLOW.inflow(), BenchChain.FLOW.outflow(), SUPPLY);

  @Param({Engines.MEMORY, Engines.LEVELDB})
  public String engine;

  /**
   * The traffic the JIT has seen before the measured packets: {@value Traffic#ASCII} (only the
   * benchmark's packets) or, with {@code -p traffic=mixed}, {@value Traffic#MIXED} ({@link
   * Traffic#warmUpMixed}: memos with non-ASCII text first, as a node's real traffic has).
   */
  @Param({Traffic.ASCII})
  public String traffic = Traffic.ASCII;

  private Engines engines;
  private BenchChain chain;
  private Blocks blocks;
  private Packet[] received;
  /** The same sequences, odd ones on the second path. */
  private Packet[] alternating;
  private int recvIndex;
  private boolean secondPath;
  private RecordedAccesses sendAccesses;
  private RecordedAccesses recvAccesses;

  @Setup(Level.Trial)
  public void setUp() {
    Traffic.warmUp(traffic);
    engines = Engines.open(engine);
    chain = newChain(engines.store());
    chain.channel().cycleSequences(SEQUENCE_WINDOW);
    blocks = new Blocks(chain.root());
    received = new Packet[SEQUENCE_WINDOW];
    alternating = new Packet[SEQUENCE_WINDOW];
    for (int i = 0; i < SEQUENCE_WINDOW; i++) {
      received[i] = BenchChain.receivedPacket(i + 1);
      alternating[i] =
          i % 2 == 0 ? BenchChain.receivedPacket(i + 1) : BenchChain.receivedPacket2(i + 1);
    }
    recordFloors();
  }

  /** Records the store accesses of a send and of a receive, for the floors to replay. */
  private void recordFloors() {
    RecordingKvStore recording = new RecordingKvStore(new MemoryKvStore());
    BenchChain probe = newChain(recording);
    BlockContext ctx = probe.root();
    sendAccesses =
        RecordedAccesses.record(recording, 1, SEQUENCE_WINDOW, i -> probe.send(ctx));
    long[] sequence = {0};
    recvAccesses =
        RecordedAccesses.record(
            recording,
            1,
            SEQUENCE_WINDOW,
            i -> probe.recv(ctx, BenchChain.receivedPacket(++sequence[0])));
  }

  /** The benchmark's chain over {@code store}: one limit, channel value 10^30. */
  static BenchChain newChain(KvStore store) {
    BenchChain c = new BenchChain(store, SUPPLY);
    c.initGenesis(
        List.of(
            new RateLimit(BenchChain.PATH, BenchChain.QUOTA, FLOW),
            new RateLimit(BenchChain.PATH_2, BenchChain.QUOTA, FLOW)));
    return c;
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    blocks.discard();
    engines.close();
  }

  /** Counted send: check and record, through the middleware. */
  @Benchmark
  public long send() {
    long sequence = chain.send(blocks.current());
    blocks.endTx();
    return sequence;
  }

  /** Counted receive with a synchronous success ack, through the middleware. */
  @Benchmark
  public Optional<Acknowledgement> recv() {
    return recvNext(received);
  }

  /**
   * {@link #send}, alternating between two limited paths, as in mixed traffic: each packet's
   * path, denom and hashes differ from the previous packet's (the memos of denoms and path hashes
   * hold both paths; before them, only the previous packet's path hash was kept).
   */
  @Benchmark
  public long sendAlternating() {
    long sequence = secondPath ? chain.send2(blocks.current()) : chain.send(blocks.current());
    secondPath = !secondPath;
    blocks.endTx();
    return sequence;
  }

  /** {@link #recv}, alternating between two limited paths (see {@link #sendAlternating}). */
  @Benchmark
  public Optional<Acknowledgement> recvAlternating() {
    return recvNext(alternating);
  }

  /** Delivers the next of {@code packets} (cycling) as one transaction. */
  private Optional<Acknowledgement> recvNext(Packet[] packets) {
    Optional<Acknowledgement> ack = chain.recv(blocks.current(), packets[recvIndex]);
    recvIndex = (recvIndex + 1) % SEQUENCE_WINDOW;
    blocks.endTx();
    return ack;
  }

  /** The floor of {@link #send}: its store accesses alone, on the block's branch. */
  @Benchmark
  public void storeFloorSend(Blackhole bh) {
    sendAccesses.replayNext(0, blocks.current().store(), bh);
    blocks.endTx();
  }

  /** The floor of {@link #recv}: its store accesses alone, on the block's branch. */
  @Benchmark
  public void storeFloorRecv(Blackhole bh) {
    recvAccesses.replayNext(0, blocks.current().store(), bh);
    blocks.endTx();
  }

  /**
   * {@link #storeFloorSend} through a transaction branch committed into the block's, as a counted
   * packet's writes must go (a rejected packet changes nothing). Not the floor: a figure
   * for weighing another definition of it.
   */
  @Benchmark
  public void txFloorSend(Blackhole bh) {
    replayInTx(sendAccesses, bh);
  }

  /** {@link #storeFloorRecv} through a transaction branch (see {@link #txFloorSend}). */
  @Benchmark
  public void txFloorRecv(Blackhole bh) {
    replayInTx(recvAccesses, bh);
  }

  private void replayInTx(RecordedAccesses accesses, Blackhole bh) {
    try (BlockContext tx = blocks.current().branch()) {
      accesses.replayNext(0, tx.store(), bh);
      tx.commit();
    }
    blocks.endTx();
  }

  /**
   * {@link #send}'s store accesses straight on the engine, no branch: for LevelDB every put is an
   * engine write (write-ahead log, not synced).
   */
  @Benchmark
  public void engineFloorSend(Blackhole bh) {
    sendAccesses.replayNext(0, engines.store(), bh);
  }

  /** The recorded accesses of a send and of a receive (for the smoke test). */
  List<RecordingKvStore.Op> sendAccesses() {
    return sendAccesses.of(0);
  }

  List<RecordingKvStore.Op> recvAccesses() {
    return recvAccesses.of(0);
  }

  /** The current block's store (for the smoke test). */
  KvStore blockStore() {
    return blocks.current().store();
  }

  /** The flow of {@code path} in the current block (for the smoke test). */
  Flow flowOf(Path path) {
    return chain.keeper().getRateLimit(blocks.current(), path).orElseThrow().flow();
  }
}
