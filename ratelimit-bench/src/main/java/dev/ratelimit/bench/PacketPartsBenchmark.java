package dev.ratelimit.bench;

import dev.ratelimit.bench.fixture.BenchChain;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.PureMemo;
import dev.ratelimit.core.model.RateLimitedPacket;
import dev.ratelimit.core.model.Sha256;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.DenomResolver;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
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
 * Item 2's receive taken apart, in memory, time per call: the pieces {@link HotPathBenchmark#recv}
 * is made of, each alone, so the document can say which of them alone already cost more than the
 * receive's store accesses ({@code storeFloorRecv}). Same packet and limit as {@link
 * HotPathBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 1)
public class PacketPartsBenchmark {
  private static final byte[] TRACE =
      (BenchChain.PORT + "/" + BenchChain.CHANNEL + "/" + BenchChain.BASE_DENOM)
          .getBytes(StandardCharsets.UTF_8);

  /** Denoms for {@link #recvDenomNew}: 16 per slot of the resolver's memo. */
  static final int NEW_DENOMS = 16 * PureMemo.SLOTS;

  /** The JIT's warm-up traffic ({@link HotPathBenchmark#traffic}). */
  @Param({Traffic.ASCII})
  public String traffic = Traffic.ASCII;

  private BenchChain chain;
  private Blocks blocks;
  private Packet packet;
  private byte[] data;
  private FungibleTokenPacketData ftpd;
  private RateLimitedPacket counted;
  private final String[] newDenoms = new String[NEW_DENOMS];
  private int newDenom;

  @Setup(Level.Trial)
  public void setUp() {
    Traffic.warmUp(traffic);
    chain = HotPathBenchmark.newChain(new MemoryKvStore());
    blocks = new Blocks(chain.root());
    packet = BenchChain.receivedPacket(1);
    for (int i = 0; i < NEW_DENOMS; i++) {
      newDenoms[i] = newDenom(i);
    }
    data = packet.data();
    ftpd = PacketDataCodec.decode(data);
    counted =
        new RateLimitedPacket(
            BenchChain.CHANNEL, BenchChain.IBC_DENOM, ftpd.amount(), ftpd.sender(),
            ftpd.receiver());
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    blocks.discard();
  }

  /** Strict ICS-20 decoding of the received packet's JSON (the simple-object path). */
  @Benchmark
  public FungibleTokenPacketData decode() {
    return PacketDataCodec.decode(data);
  }

  /**
   * {@link #decode} of the same packet with its keys sorted, as ibc-go before v10 writes them
   * ({@code amount, denom, receiver, sender}): no key is where the field order expects it.
   */
  @Benchmark
  public FungibleTokenPacketData decodeSortedKeys() {
    return PacketDataCodec.decode(SORTED_KEYS);
  }

  private static final byte[] SORTED_KEYS =
      ("{\"amount\":\"" + BenchChain.AMOUNT + "\",\"denom\":\"" + BenchChain.BASE_DENOM
              + "\",\"receiver\":\"" + BenchChain.RECEIVER + "\",\"sender\":\"" + BenchChain.SENDER
              + "\"}")
          .getBytes(StandardCharsets.UTF_8);

  /**
   * The sink-case local denom of the benchmark's packet, which is in the resolver's memo after the
   * first call (as a chain's usual denoms are): a memo look-up.
   */
  @Benchmark
  public String recvDenom() {
    return DenomResolver.recvLocalDenom(packet, BenchChain.BASE_DENOM);
  }

  /**
   * The sink-case local denom computed: prefix the trace, validate it, SHA-256 and hex it, plus the
   * memo's look-up and store. {@value #NEW_DENOMS} denoms in turn, 16 per slot of the memo, so
   * none is still there when its turn comes again.
   */
  @Benchmark
  public String recvDenomNew() {
    String denom = newDenoms[newDenom];
    newDenom = (newDenom + 1) % NEW_DENOMS;
    return DenomResolver.recvLocalDenom(packet, denom);
  }

  /** SHA-256 of the 24-byte trace alone (one compression). */
  @Benchmark
  public byte[] sha256() {
    return Sha256.hash(TRACE);
  }

  /** The keeper's check and flow update in a transaction branch, committed to the block. */
  @Benchmark
  public boolean keeperRecv() {
    boolean updated;
    try (BlockContext tx = blocks.current().branch()) {
      updated = chain.keeper().checkRateLimitAndUpdateFlow(tx, PacketDirection.RECV, counted);
      tx.commit();
    }
    blocks.endTx();
    return updated;
  }

  /** An empty transaction branch, opened and committed. */
  @Benchmark
  public void emptyBranch() {
    try (BlockContext tx = blocks.current().branch()) {
      tx.commit();
    }
  }

  /** The {@code i}-th denom of {@link #recvDenomNew}, as long as {@code uatom}. */
  static String newDenom(int i) {
    return String.format(Locale.ROOT, "u%04d", i);
  }
}
