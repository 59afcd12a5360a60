package dev.ratelimit.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.chain.Block;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.core.store.LevelDbKvStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Replica determinism: 1,000 blocks per chain of seeded random two-chain traffic ({@link
 * Traffic}: transfers, refusals, timeouts, proposals, clock jumps) are recorded with their app
 * hashes, then replayed from the block log by two fresh app instances: one in this JVM, one in a
 * child JVM with another time zone, locale and default charset (so hidden use of either would
 * show) and the other kind of LevelDB file I/O. Both reach the recorded app hash at every height
 * of both chains.
 */
class DeterminismTest {
  private static final long SEED = Long.getLong("reliability.determinism.seed", 0xDE7E_2024L);
  private static final int BLOCKS = 1_000;

  @TempDir Path root;

  @Test
  void twoInstancesReplayingTheSameLog_reachTheSameAppHashAtEveryHeight() throws Exception {
    RecordedTraffic recorded =
        RecordedTraffic.record(root.resolve("recorded"), SEED, BLOCKS, 8);
    String where = "seed=" + SEED + " " + recorded.stats();
    for (String chainId : List.of(OsmosisStride.OSMOSIS, OsmosisStride.STRIDE)) {
      List<Block> log = recorded.log(chainId);
      List<String> expected = recorded.hashes(chainId);
      assertEquals(BLOCKS, log.size(), where);
      assertTrue(log.stream().mapToInt(b -> b.msgs().size()).sum() > 3 * BLOCKS, where);
      Path logFile = root.resolve(chainId + ".blocklog");
      BlockLog.write(logFile, log);
      assertEquals(log, BlockLog.read(logFile), "the block log file round-trips");

      // instance 1: this JVM (UTC, Turkish locale), replaying the log file
      List<String> inProcess;
      try (ChainApp app = open(root.resolve("replica-1").resolve(chainId), chainId)) {
        app.initChain(chainId.equals(OsmosisStride.OSMOSIS)
            ? Traffic.osmosisGenesis() : Traffic.strideGenesis());
        inProcess = RecordedTraffic.replay(app, BlockLog.read(logFile));
      }
      assertHashes(expected, inProcess, where + " " + chainId + " in-process replica");

      // instance 2: a child JVM in another zone, locale and charset, with the other kind of file
      // I/O than this JVM's (memory-mapped before JDK 24), as a node on a newer JDK has
      List<String> child = new ArrayList<>();
      boolean childMaps = !LevelDbKvStore.memoryMapped();
      try (ChildJvm node = ChildJvm.start(
          List.of("-Duser.timezone=Pacific/Chatham", "-Duser.language=ar", "-Duser.country=SA",
              "-Dfile.encoding=ISO-8859-1", "-D" + LevelDbKvStore.MMAP_PROPERTY + "=" + childMaps),
          ReplayNode.class, root.resolve(chainId + ".stderr"),
          root.resolve("replica-2").resolve(chainId).toString(), chainId, logFile.toString())) {
        for (String line; !(line = node.next(120)).equals("END"); ) {
          assertTrue(!line.equals(ChildJvm.EOF), "child died: " + stderr(root, chainId));
          String[] f = line.split(" ");
          if (f[0].equals("OPEN")) {
            assertEquals(String.valueOf(childMaps), f[1], "the child's file I/O");
          } else if (f[0].equals("GENESIS")) {
            child.add(f[1]);
          } else if (f[0].equals("DONE")) {
            assertEquals(child.size(), Long.parseLong(f[1]), line);
            child.add(f[2]);
          }
        }
        assertEquals(0, node.waitFor(), stderr(root, chainId));
      }
      assertHashes(expected, child, where + " " + chainId + " child-JVM replica");
    }
  }

  private static void assertHashes(List<String> expected, List<String> actual, String where) {
    assertEquals(expected.size(), actual.size(), where + ": heights");
    for (int h = 0; h < expected.size(); h++) {
      assertEquals(expected.get(h), actual.get(h), where + ": app hash at height " + h);
    }
  }

  private static ChainApp open(Path home, String chainId) {
    return ChainComponent.open(home, chainId, chainId.equals(OsmosisStride.OSMOSIS)
        ? OsmosisStride.OSMOSIS_AUTHORITY : OsmosisStride.STRIDE_AUTHORITY);
  }

  private static String stderr(Path root, String chainId) {
    try {
      return Files.readString(root.resolve(chainId + ".stderr"));
    } catch (java.io.IOException e) {
      return "(no stderr: " + e + ")";
    }
  }
}
