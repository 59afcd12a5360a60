package dev.ratelimit.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.bench.fixture.BenchChain;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PureMemo;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.transfer.DenomTrace;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.util.Arrays;
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
      for (int i = 0; i < 2 * Blocks.TXS_PER_BLOCK + 1; i++) {
        last = b.send();
        Optional<Acknowledgement> ack = b.recv();
        assertEquals(Optional.of(Acknowledgement.SUCCESS), ack);
        b.storeFloorSend(BH);
        b.storeFloorRecv(BH);
        b.engineFloorSend(BH);
      }
      assertEquals(2 * Blocks.TXS_PER_BLOCK + 1, last);
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {Engines.MEMORY, Engines.LEVELDB})
  void hotPath_alternatingTraffic_countsBothPaths(String engine) {
    withHotPath(engine, b -> {
      int rounds = 2 * Blocks.TXS_PER_BLOCK + 2; // across block commits, even
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

  @ParameterizedTest
  @ValueSource(strings = {Engines.MEMORY, Engines.LEVELDB})
  void hotPath_txFloors_commitTheirWritesIntoTheBlock(String engine) {
    withHotPath(engine, b -> {
      List<RecordingKvStore.Op> send = b.sendAccesses();
      RecordingKvStore.Op marker = send.get(send.size() - 1);
      assertEquals(RecordingKvStore.Op.Kind.PUT, marker.kind());
      for (long sequence = 1; sequence <= 3; sequence++) {
        byte[] key = marker.withSequence(sequence).key();
        assertFalse(b.blockStore().has(key), "before floor " + sequence);
        b.txFloorSend(BH);
        assertTrue(b.blockStore().has(key), "after floor " + sequence);
      }
      // the receive's floor writes the recorded row (the genesis flow plus one packet's inflow)
      List<RecordingKvStore.Op> recv = b.recvAccesses();
      RecordingKvStore.Op row = recv.get(recv.size() - 1);
      assertEquals(RecordingKvStore.Op.Kind.PUT, row.kind());
      assertFalse(Arrays.equals(row.value(), b.blockStore().get(row.key()).orElseThrow()));
      b.txFloorRecv(BH);
      assertArrayEquals(row.value(), b.blockStore().get(row.key()).orElseThrow());
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

  @ParameterizedTest
  @ValueSource(strings = {Engines.MEMORY, Engines.LEVELDB})
  void manyDenoms_countsEveryTurnsPath_andFloorsReplayThatPath(String engine) {
    ManyDenomsBenchmark b = new ManyDenomsBenchmark();
    b.engine = engine;
    b.setUp();
    try {
      int rounds = 2; // every turn twice, across block commits
      for (int i = 0; i < rounds * ManyDenomsBenchmark.DENOMS; i++) {
        b.send();
        assertEquals(Optional.of(Acknowledgement.SUCCESS), b.recv());
      }
      BigInteger moved = BenchChain.AMOUNT.multiply(BigInteger.valueOf(rounds));
      for (int i : new int[] {0, 1, ManyDenomsBenchmark.DENOMS - 1}) {
        Flow flow = b.flowOf(i);
        assertEquals(HotPathBenchmark.FLOW.outflow().add(moved), flow.outflow(), "turn " + i);
        assertEquals(HotPathBenchmark.FLOW.inflow().add(moved), flow.inflow(), "turn " + i);
      }
      for (int i = 0; i < rounds * ManyDenomsBenchmark.DENOMS; i++) {
        b.storeFloorSend(BH);
        b.storeFloorRecv(BH);
      }
      for (int i : new int[] {0, 1, ManyDenomsBenchmark.DENOMS - 1}) {
        // the floor of turn i touches turn i's row: the same key as the operation's first read
        byte[] rowKey = b.recvAccessesOf(i).get(0).key();
        assertArrayEquals(rowKey, b.sendAccessesOf(i).get(0).key(), "turn " + i);
      }
      assertFalse(java.util.Arrays.equals(
          b.recvAccessesOf(0).get(0).key(), b.recvAccessesOf(1).get(0).key()));
      assertEquals(List.of(RecordingKvStore.Op.Kind.GET, RecordingKvStore.Op.Kind.HAS,
              RecordingKvStore.Op.Kind.PUT),
          b.recvAccessesOf(7).stream().map(RecordingKvStore.Op::kind).toList());
      // 16 denoms for each memo slot: none is still memoized when its turn comes again
      assertEquals(16 * PureMemo.SLOTS, ManyDenomsBenchmark.DENOMS);
    } finally {
      b.tearDown();
    }
  }

  @Test
  void traffic_mixedWarmUp_carriesEachMemoAndRefusesTheLoneSurrogate() {
    for (String memo : Traffic.MEMOS) {
      assertEquals(
          memo, PacketDataCodec.decode(BenchChain.packetData(BenchChain.BASE_DENOM, memo)).memo(), memo);
    }
    RateLimitException e =
        assertThrows(
            RateLimitException.class, () -> PacketDataCodec.decode(Traffic.loneSurrogateMemo()));
    assertEquals(ErrorCode.INVALID_PACKET_DATA, e.code());
    assertTrue(e.getMessage().contains("memo"), e.getMessage());
    // every receive is answered as the warm-up expects, or it throws
    Traffic.warmUp(Traffic.MIXED);
    Traffic.warmUp(Traffic.ASCII);
  }

  @Test
  void traffic_unknownProfile_isRefusedByName() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Traffic.warmUp("emoji"));
    assertEquals("traffic must be ascii or mixed, got emoji", e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {Engines.MEMORY, Engines.LEVELDB})
  void hotPath_afterMixedTraffic_measuresTheSamePackets(String engine) {
    HotPathBenchmark b = new HotPathBenchmark();
    b.engine = engine;
    b.traffic = Traffic.MIXED;
    b.setUp();
    try {
      assertEquals(1, b.send());
      assertEquals(Optional.of(Acknowledgement.SUCCESS), b.recv());
      // the warm-up's own chain took its packets: the measured flow holds this send and receive only
      Flow flow = b.flowOf(BenchChain.PATH);
      assertEquals(HotPathBenchmark.FLOW.outflow().add(BenchChain.AMOUNT), flow.outflow());
      assertEquals(HotPathBenchmark.FLOW.inflow().add(BenchChain.AMOUNT), flow.inflow());
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
      for (int i = 0; i < Blocks.TXS_PER_BLOCK + 1; i++) {
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
