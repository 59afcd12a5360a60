package dev.ratelimit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.bench.fixture.BenchChain;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.transfer.DenomTrace;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Runs each benchmark method a few times outside JMH, so a broken setup or a benchmark that stops
 * doing what it claims fails the build. Nothing is timed.
 */
class BenchmarksSmokeTest {
  private static final Blackhole BH =
      new Blackhole(
          "Today's password is swordfish. "
              + "I understand instantiating Blackholes directly is dangerous.");

  @ParameterizedTest
  @ValueSource(strings = {Engines.MEMORY, Engines.LEVELDB})
  void hotPath_sendsAndReceivesAcrossBlockCommits(String engine) {
    withHotPath(engine, b -> {
      long last = 0;
      for (int i = 0; i < 2 * HotPathBenchmark.TXS_PER_BLOCK + 1; i++) {
        last = b.send();
        Optional<Acknowledgement> ack = b.recv();
        assertEquals(Optional.of(Acknowledgement.SUCCESS), ack);
        b.storeFloorSend(BH);
        b.storeFloorRecv(BH);
        b.engineFloorSend(BH);
      }
      assertEquals(2 * HotPathBenchmark.TXS_PER_BLOCK + 1, last);
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {Engines.MEMORY, Engines.LEVELDB})
  void hotPath_alternatingTraffic_countsBothPaths(String engine) {
    withHotPath(engine, b -> {
      int rounds = 2 * HotPathBenchmark.TXS_PER_BLOCK + 2; // across block commits, even
      for (int i = 0; i < rounds; i++) {
        b.sendAlternating();
        assertEquals(Optional.of(Acknowledgement.SUCCESS), b.recvAlternating());
      }
      // half of the sends and receives on each path: net flow unchanged, both sides counted
      BigInteger moved = BenchChain.AMOUNT.multiply(BigInteger.valueOf(rounds / 2));
      for (Path path : List.of(BenchChain.PATH, BenchChain.PATH_2)) {
        Flow flow = b.flowOf(path);
        assertEquals(HotPathBenchmark.FLOW.outflow().add(moved), flow.outflow(), path.toString());
        assertEquals(HotPathBenchmark.FLOW.inflow().add(moved), flow.inflow(), path.toString());
      }
    });
  }

  /** Runs {@code body} on a set-up {@link HotPathBenchmark} over {@code engine}, then tears down. */
  private static void withHotPath(String engine, Consumer<HotPathBenchmark> body) {
    HotPathBenchmark b = new HotPathBenchmark();
    b.engine = engine;
    b.setUp();
    try {
      body.accept(b);
    } finally {
      b.tearDown();
    }
  }

  @Test
  void packetParts_eachPartDoesItsJob() {
    PacketPartsBenchmark b = new PacketPartsBenchmark();
    b.setUp();
    try {
      assertEquals(BenchChain.AMOUNT, b.decode().amount());
      assertEquals(BenchChain.IBC_DENOM, b.recvDenom());
      // the new denoms in turn, each the hash of its own trace, around the cycle and back
      for (int i = 0; i < PacketPartsBenchmark.NEW_DENOMS + 2; i++) {
        String base = PacketPartsBenchmark.newDenom(i % PacketPartsBenchmark.NEW_DENOMS);
        assertEquals(
            DenomTrace.parse(BenchChain.PORT + "/" + BenchChain.CHANNEL + "/" + base).ibcDenom(),
            b.recvDenomNew(),
            base);
      }
      assertEquals(32, b.sha256().length);
      for (int i = 0; i < HotPathBenchmark.TXS_PER_BLOCK + 1; i++) {
        assertTrue(b.keeperRecv());
        b.emptyBranch();
      }
    } finally {
      b.tearDown();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {Engines.MEMORY, Engines.LEVELDB})
  void beginBlock_rollsOverTheDueHundredth(String engine) {
    BeginBlockBenchmark b = new BeginBlockBenchmark();
    b.engine = engine;
    b.setUp();
    try {
      b.noRollover();
      b.rollover();
      int due = BeginBlockBenchmark.LIMITS / BeginBlockBenchmark.RESET_EVERY_NTH;
      assertEquals(due, b.fullScan());
      assertEquals(due, b.fullScanAndReset());
    } finally {
      b.tearDown();
    }
  }
}
