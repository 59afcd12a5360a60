package dev.ratelimit.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.core.store.LevelDbKvStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash safety of the example chain on LevelDB: a child JVM ({@link ReplayNode}) replays a
 * recorded block log of seeded random traffic into a node home and is killed with SIGKILL ({@link
 * ProcessHandle#destroyForcibly()}) {@code reliability.kills} times (50; the pom sets it), at
 * random points: mostly right after it announces a block's commit
 * (inside the synced write batch or the app hash that follows), otherwise at a random moment of
 * block execution or start-up. After each kill the home is reopened in this JVM:
 *
 * <ul>
 *   <li>its last height is the last block the child reported committed, or the one whose commit
 *       had started (committed, not yet reported), never anything else;
 *   <li>its app hash (SHA-256 over the whole database) equals the clean recorded run's at that
 *       height: no half block is visible, nothing of a later block leaked in;
 *   <li>the next child resumes from there.
 * </ul>
 *
 * Finally a child runs the log to its end and reaches the recorded final app hash. Kill timing is
 * random by nature; what is asserted holds for every kill point.
 *
 * <p>The children take turns between iq80's two kinds of file I/O ({@link
 * LevelDbKvStore#MMAP_PROPERTY}): memory-mapped (before JDK 24) and file channels (JDK 24 on), so
 * both survive a kill, and a home written by one is resumed by the other, as when a node moves to a
 * newer JDK.
 */
class CrashSafetyTest {
  private static final long SEED = Long.getLong("reliability.crash.seed", 0xC4A5_2024L);
  private static final int KILLS = Integer.getInteger("reliability.kills", 50);
  private static final String CHAIN = OsmosisStride.STRIDE;

  @TempDir Path root;

  private final Map<String, Integer> outcomes = new TreeMap<>();
  private boolean childMapsFiles; // what the running child was told (its OPEN line must agree)

  @Test
  void sigkillDuringBlockCommits_neverLeavesAHalfBlock_andTheNodeResumes() {
    int ticks = 100 + 6 * KILLS;
    RecordedTraffic recorded = RecordedTraffic.record(root.resolve("recorded"), SEED, ticks, 8);
    List<String> expected = recorded.hashes(CHAIN);
    Path logFile = root.resolve("stride.blocklog");
    BlockLog.write(logFile, recorded.log(CHAIN));
    Path home = root.resolve("node");
    Path stderr = root.resolve("node.stderr");
    Random random = new Random(SEED);
    long height = -1; // -1: no genesis yet

    int wipes = 0;
    for (int kill = 0; kill < KILLS; kill++) {
      if (height > expected.size() - 10) { // near the log's end: start a fresh home
        deleteRecursively(home);
        height = -1;
        wipes++;
      }
      String where = "seed=" + SEED + " kill #" + kill + " from height " + height;
      long target = Math.max(1, height + 1 + random.nextInt(3)); // a block this child runs
      int mode = kill == 0 ? 2 : random.nextInt(10) < 7 ? 0 : random.nextInt(2) + 1;
      long delayNanos = mode == 0
          ? random.nextInt(1_500_000) // 0-1.5 ms after "COMMIT target": inside the commit
          : mode == 1 ? random.nextInt(15_000_000) // 0-15 ms after "DONE target": in the next
          : 100_000_000L + random.nextInt(500_000_000); // 0.1-0.6 s after start
      long lastDone = height;
      long commitStarted = height;
      childMapsFiles = kill % 2 == 0;
      try (ChildJvm node = ChildJvm.start(jvmArgs(childMapsFiles), ReplayNode.class,
          stderr, home.toString(), CHAIN, logFile.toString())) {
        if (mode == 2) {
          LockSupport.parkNanos(delayNanos);
        } else {
          String awaited = (mode == 0 ? "COMMIT " : "DONE ") + target;
          String line;
          while (!((line = node.next(60)).equals(awaited) || line.startsWith(awaited + " "))) {
            if (line.equals(ChildJvm.EOF) || line.equals("END")) {
              fail(where + ": child ended (" + line + ", exit " + node.waitFor() + ") before "
                  + awaited + " after " + lastDone + "/" + commitStarted + ": " + read(stderr));
            }
            long[] hc = progress(line, lastDone, commitStarted, expected, where);
            lastDone = hc[0];
            commitStarted = hc[1];
          }
          long[] hc = progress(line, lastDone, commitStarted, expected, where);
          lastDone = hc[0];
          commitStarted = hc[1];
          LockSupport.parkNanos(delayNanos);
        }
        node.kill();
        for (String line : node.drain(10)) { // what it printed before it died
          long[] hc = progress(line, lastDone, commitStarted, expected, where);
          lastDone = hc[0];
          commitStarted = hc[1];
        }
      }

      // reopen the home in this JVM: exactly the last committed block, bit for bit
      try (ChainApp app = ChainComponent.open(home, CHAIN, OsmosisStride.STRIDE_AUTHORITY)) {
        long after = app.isInitialized() ? app.lastHeight() : -1;
        String outcome;
        if (after == lastDone && commitStarted == lastDone) {
          outcome = "between-blocks";
        } else if (after == lastDone) {
          outcome = "in-commit:not-applied";
        } else if (after == lastDone + 1 && commitStarted == after) {
          outcome = "in-commit:applied-unreported";
        } else {
          fail(where + ": reopened at height " + after + " but the child reported " + lastDone
              + " committed and " + commitStarted + " started");
          return;
        }
        outcomes.merge(outcome, 1, Integer::sum);
        assertTrue(after >= height, where + ": went back from " + height + " to " + after);
        if (after >= 0) {
          assertEquals(expected.get((int) after), RecordedTraffic.hex(app.lastAppHash()),
              where + ": app hash at height " + after + " differs from the clean run's");
        }
        height = after;
      }
    }

    // the last child runs to the end of the log
    childMapsFiles = false;
    try (ChildJvm node = ChildJvm.start(jvmArgs(childMapsFiles), ReplayNode.class,
        stderr, home.toString(), CHAIN, logFile.toString())) {
      List<String> rest = node.drain(120);
      assertEquals("END", rest.isEmpty() ? "" : rest.get(rest.size() - 1), read(stderr));
      long[] hc = {height, height};
      for (String line : rest) { // its file I/O and every hash it reports, as for the others
        hc = progress(line, hc[0], hc[1], expected, "final run from height " + height);
      }
      assertEquals(0, node.waitFor());
    }
    try (ChainApp app = ChainComponent.open(home, CHAIN, OsmosisStride.STRIDE_AUTHORITY)) {
      assertEquals(expected.size() - 1, app.lastHeight());
      assertEquals(expected.get(expected.size() - 1), RecordedTraffic.hex(app.lastAppHash()));
    }
    System.out.println("crash safety: seed=" + SEED + " kills=" + KILLS + " blocks="
        + (expected.size() - 1) + " " + recorded.stats() + " fresh homes " + wipes
        + " outcomes " + outcomes);
    assertEquals(KILLS, outcomes.values().stream().mapToInt(Integer::intValue).sum());
  }

  private static List<String> jvmArgs(boolean memoryMapped) {
    return List.of(
        "-Duser.timezone=UTC", "-D" + LevelDbKvStore.MMAP_PROPERTY + "=" + memoryMapped);
  }

  /** Reads one child line: checks reported hashes; returns {lastDone, commitStarted}. */
  private long[] progress(
      String line, long lastDone, long commitStarted, List<String> expected, String where) {
    String[] f = line.split(" ");
    switch (f[0]) {
      case "OPEN" -> {
        assertEquals(String.valueOf(childMapsFiles), f[1], where + ": the child's file I/O");
        return new long[] {lastDone, commitStarted};
      }
      case "GENESIS" -> {
        assertEquals(expected.get(0), f[1], where + ": genesis hash");
        return new long[] {0, 0};
      }
      case "COMMIT" -> {
        return new long[] {lastDone, Long.parseLong(f[1])};
      }
      case "DONE" -> {
        long h = Long.parseLong(f[1]);
        assertEquals(expected.get((int) h), f[2], where + ": child's app hash at " + h);
        return new long[] {h, h};
      }
      case "END" -> {
        return new long[] {lastDone, commitStarted};
      }
      default -> throw new AssertionError(where + ": unexpected child output " + line);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file) : "";
    } catch (java.io.IOException e) {
      return "(unreadable: " + e + ")";
    }
  }
}
