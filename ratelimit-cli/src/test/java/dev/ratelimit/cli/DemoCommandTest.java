package dev.ratelimit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoCommandTest {

  @Test
  void printsTheReadmeWalkThroughTable() {
    Cli r = Cli.run("demo");
    assertEquals(0, r.exit(), r.toString());
    assertEquals("", r.err());
    List<String> lines = r.outLines();
    assertEquals("README walk-through on stride-1: 24h rate limit, 10% send / 10% recv, on channel-5",
        lines.get(0));
    assertEquals(List.of(
        "STEP  DESCRIPTION                       TRANSFER STATUS  INFLOW  OUTFLOW  NET            CHANNEL VALUE",
        "1     Rate limit created                                 0       0                       100",
        "2     8uosmo osmosis-1 → stride-1       Successful       8       0        8% in          100",
        "3     8uosmo osmosis-1 → stride-1       Rejected         16      0        16% in (>10%)  100",
        "3     State reverted after rejected tx                   8       0        8% in          100",
        "4     12ibc/uosmo stride-1 → osmosis-1  Successful       8       12       4% out         100",
        "5     8uosmo osmosis-1 → stride-1       Successful       16      12       4% in          100",
        "6     Quota reset                                        0       0                       104"),
        lines.subList(1, 9));
    assertTrue(lines.get(lines.size() - 1).startsWith("All "), lines.toString());
  }

  @Test
  void rowsCarryTheReadmeNumbers() {
    List<String> rows = Cli.run("demo").outLines().subList(2, 9);
    String[][] expected = {
      {"1", "Rate limit created", "0", "0", "100"},
      {"2", "Successful", "8", "0", "100"},
      {"3", "Rejected", "16", "0", "100"},
      {"3", "State reverted after rejected tx", "8", "0", "100"},
      {"4", "Successful", "8", "12", "100"},
      {"5", "Successful", "16", "12", "100"},
      {"6", "Quota reset", "0", "0", "104"},
    };
    for (int i = 0; i < expected.length; i++) {
      String row = rows.get(i);
      assertTrue(row.startsWith(expected[i][0] + " "), row);
      assertTrue(row.contains(expected[i][1]), row);
      String[] cells = row.trim().split("\\s{2,}");
      String cv = cells[cells.length - 1];
      assertEquals(expected[i][4], cv, row);
      assertTrue(row.matches(".*\\s" + expected[i][2] + "\\s+" + expected[i][3] + "\\s.*"), row);
    }
    assertTrue(rows.get(2).contains("16% in (>10%)"), rows.get(2));
    assertTrue(rows.get(4).contains("4% out"), rows.get(4));
  }

  @Test
  void withHome_leavesADatabaseTheQueriesRead(@TempDir Path tmp) {
    Path home = tmp.resolve("h");
    Cli r = Cli.run("demo", "--home", home.toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("State left in " + home), r.out());
    assertTrue(Files.isRegularFile(home.resolve("data/CURRENT")));
    Cli q = Cli.run("rate-limits-by-chain", "osmosis-1", "--home", home.toString());
    assertEquals(0, q.exit(), q.toString());
    assertEquals(2, q.outLines().size(), q.toString());
    Cli again = Cli.run("demo", "--home", home.toString());
    assertEquals(2, again.exit());
    assertEquals(1, again.errLines().size(), again.toString());
  }
}
