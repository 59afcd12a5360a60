package dev.ratelimit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
  void usedHome_isRefusedWithANonZeroExit(@TempDir Path tmp) {
    Path root = tmp.resolve("demo");
    assertEquals(0, Cli.run("demo", "--home", root.toString()).exit());
    Cli again = Cli.run("demo", "--home", root.toString());
    assertNotEquals(0, again.exit(), again.toString());
  }
}
