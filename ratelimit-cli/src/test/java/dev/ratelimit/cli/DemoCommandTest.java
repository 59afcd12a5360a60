package dev.ratelimit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {

  @Test
  void withHome_printsTheReadmeTableAndLeavesAHomeTheQueriesRead(@TempDir Path tmp) {
    Path root = tmp.resolve("demo");
    Cli r = Cli.run("demo", "--home", root.toString());
    assertEquals(0, r.exit(), r.toString());
    assertEquals("", r.err());
    List<String> rows =
        r.outLines().stream().filter(l -> l.matches("^[1-6] .*")).toList();
    assertEquals(7, rows.size(), r.out());
    assertTrue(rows.get(2).contains("Rejected") && rows.get(2).contains("16% (>10%)"), rows.get(2));
    assertTrue(rows.get(6).trim().endsWith("104"), rows.get(6));
    assertTrue(r.out().contains("Every number matches the README's table."), r.out());

    Path stride = root.resolve("stride-1");
    assertTrue(Files.isRegularFile(stride.resolve("data/CURRENT")));
    Cli list = Cli.run("list-rate-limits", "--home", stride.toString());
    assertEquals(0, list.exit(), list.toString());
    assertTrue(list.out().contains("104"), list.out());
    Cli byChain = Cli.run("rate-limits-by-chain", "osmosis-1", "--home", stride.toString());
    assertEquals(0, byChain.exit(), byChain.toString());
    assertTrue(byChain.out().contains("channel-5"), byChain.out());
  }

  @Test
  void usedHome_isAUsageError_beforeAnythingRuns(@TempDir Path tmp) throws IOException {
    Path root = tmp.resolve("demo");
    assertEquals(0, Cli.run("demo", "--home", root.toString()).exit());
    Cli again = Cli.run("demo", "--home", root.toString());
    assertEquals(2, again.exit(), again.toString());
    assertEquals("", again.out());
    assertEquals(
        List.of("ratelimit: --home " + root + " is not empty: give a new or empty directory"),
        again.errLines());

    Path file = Files.writeString(tmp.resolve("a-file"), "x");
    Cli notADirectory = Cli.run("demo", "--home", file.toString());
    assertEquals(2, notADirectory.exit(), notADirectory.toString());
    assertEquals(
        List.of("ratelimit: --home " + file + " is not a directory"), notADirectory.errLines());

    // before, the walk-through itself failed: "demo failed: ..." on stdout, exit 1 as a mismatch
    Path underAFile = file.resolve("demo");
    Cli uncreatable = Cli.run("demo", "--home", underAFile.toString());
    assertEquals(2, uncreatable.exit(), uncreatable.toString());
    assertEquals("", uncreatable.out());
    assertEquals(1, uncreatable.errLines().size(), uncreatable.toString());
    assertTrue(uncreatable.err().startsWith(
        "ratelimit: --home " + underAFile + ": cannot create the directory ("), uncreatable.err());

    Cli empty = Cli.run("demo", "--home", "");
    assertEquals(2, empty.exit(), empty.toString());
    assertEquals(
        List.of("ratelimit: --home is empty: give a new or empty directory"), empty.errLines());
  }

  @Test
  void emptyHome_isRefusedByTheQueriesAndTheRunner(@TempDir Path tmp) throws IOException {
    Cli query = Cli.run("list-rate-limits", "--home", "");
    assertEquals(2, query.exit(), query.toString());
    assertTrue(query.err().contains("--home is empty"), query.err());
    Path scenario = Files.writeString(tmp.resolve("s.json"), "{\"name\": \"n\", \"steps\": []}");
    Cli simulate = Cli.run("simulate", "--home", "", scenario.toString());
    assertEquals(2, simulate.exit(), simulate.toString());
    assertTrue(simulate.err().contains("--home is empty"), simulate.err());
  }
}
