package dev.ratelimit.bench;

import dev.ratelimit.bench.fixture.BenchChain;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PureMemo;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.DenomResolver;
import java.util.ArrayList;
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
 * {@link HotPathBenchmark}'s send and receive when no packet's denom is one the memos hold, beside
 * their floors: {@value #DENOMS} limited denoms on {@code channel-0} take turns ({@code u0000} to
 * {@code u4095} received, their {@code transfer/channel-0/...} vouchers sent, as in {@link
 * PacketPartsBenchmark#recvDenomNew}), 16 for each of a memo's {@link PureMemo#SLOTS} slots, so
 * every packet hashes its denom trace (the local denom) and its path (the row key) with SHA-256.
 * The worst case for the memos; the hot path's usual traffic repeats a few denoms.
 *
 * <p>Blocks, receipts and channel value as in {@link HotPathBenchmark}. Send sequences cycle
 * through {@code 2 × DENOMS} values, so each denom's pending markers stay at two; each floor
 * replays the accesses recorded for the same packet the operation handles in its turn.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 1)
public class ManyDenomsBenchmark {
  static final int DENOMS = PacketPartsBenchmark.NEW_DENOMS;
  static final int SEQUENCE_WINDOW = 2 * DENOMS;

  @Param({Engines.MEMORY, Engines.LEVELDB})
  public String engine;

  /** The JIT's warm-up traffic ({@link HotPathBenchmark#traffic}). */
  @Param({Traffic.ASCII})
  public String traffic = Traffic.ASCII;

  private Engines engines;
  private BenchChain chain;
  private Blocks blocks;
  private byte[][] sendData;
  private Packet[] received;
  private RecordedAccesses sendAccesses;
  private RecordedAccesses recvAccesses;
  private int sendIndex;
  private int recvIndex;
  private int floorSendIndex;
  private int floorRecvIndex;

  /** The path of turn {@code i}: its voucher's local denom on {@code channel-0}. */
  static Path path(int i) {
    return new Path(DenomResolver.sendDenom(voucher(i)), BenchChain.CHANNEL);
  }

  private static String voucher(int i) {
    return BenchChain.PORT + "/" + BenchChain.CHANNEL + "/" + PacketPartsBenchmark.newDenom(i);
  }

  /** A chain over {@code store} with a limit on every turn's path, channel value 10^30. */
  static BenchChain newChain(KvStore store) {
    BenchChain c = new BenchChain(store, HotPathBenchmark.SUPPLY);
    List<RateLimit> limits = new ArrayList<>(DENOMS);
    for (int i = 0; i < DENOMS; i++) {
      limits.add(new RateLimit(path(i), BenchChain.QUOTA, HotPathBenchmark.FLOW));
    }
    c.initGenesis(limits);
    return c;
  }

  @Setup(Level.Trial)
  public void setUp() {
    Traffic.warmUp(traffic);
    engines = Engines.open(engine);
    chain = newChain(engines.store());
    chain.channel().cycleSequences(SEQUENCE_WINDOW);
    blocks = new Blocks(chain.root());
    sendData = new byte[DENOMS][];
    received = new Packet[DENOMS];
    for (int i = 0; i < DENOMS; i++) {
      sendData[i] = BenchChain.packetData(voucher(i));
      byte[] data = BenchChain.packetData(PacketPartsBenchmark.newDenom(i));
      received[i] = BenchChain.received(i + 1, data);
    }
    RecordingKvStore recording = new RecordingKvStore(new MemoryKvStore());
    BenchChain probe = newChain(recording);
    BlockContext ctx = probe.root();
    sendAccesses =
        RecordedAccesses.record(
            recording, DENOMS, SEQUENCE_WINDOW, i -> probe.send(ctx, sendData[i]));
    long[] sequence = {0};
    recvAccesses =
        RecordedAccesses.record(
            recording,
            DENOMS,
            SEQUENCE_WINDOW,
            i -> probe.recv(ctx, BenchChain.received(++sequence[0], received[i].data())));
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    blocks.discard();
    engines.close();
  }

  /** Counted send of the next turn's voucher, through the middleware. */
  @Benchmark
  public long send() {
    long sequence = chain.send(blocks.current(), sendData[sendIndex]);
    sendIndex = next(sendIndex);
    blocks.endTx();
    return sequence;
  }

  /** Counted receive of the next turn's denom, with a synchronous success ack. */
  @Benchmark
  public Optional<Acknowledgement> recv() {
    Optional<Acknowledgement> ack = chain.recv(blocks.current(), received[recvIndex]);
    recvIndex = next(recvIndex);
    blocks.endTx();
    return ack;
  }

  /** The floor of {@link #send}: the next turn's recorded accesses alone. */
  @Benchmark
  public void storeFloorSend(Blackhole bh) {
    sendAccesses.replayNext(floorSendIndex, blocks.current().store(), bh);
    floorSendIndex = next(floorSendIndex);
    blocks.endTx();
  }

  /** The floor of {@link #recv}: the next turn's recorded accesses alone. */
  @Benchmark
  public void storeFloorRecv(Blackhole bh) {
    recvAccesses.replayNext(floorRecvIndex, blocks.current().store(), bh);
    floorRecvIndex = next(floorRecvIndex);
    blocks.endTx();
  }

  private static int next(int index) {
    return index + 1 == DENOMS ? 0 : index + 1;
  }

  /** The flow of turn {@code i}'s path in the current block (for the smoke test). */
  Flow flowOf(int i) {
    return chain.keeper().getRateLimit(blocks.current(), path(i)).orElseThrow().flow();
  }

  /** The recorded accesses of turn {@code i}'s send and receive (for the smoke test). */
  List<RecordingKvStore.Op> sendAccessesOf(int i) {
    return sendAccesses.of(i);
  }

  List<RecordingKvStore.Op> recvAccessesOf(int i) {
    return recvAccesses.of(i);
  }
}
