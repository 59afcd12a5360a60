package dev.ratelimit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class SimulateCommandTest {
  private static final String FAILING = "/scenarios/failing/wrong-expectations.json";

  @Test
  void failingExpectations_printOneLinePerFailure_andExit1() {
    Path file = Cli.resource(FAILING);
    String f = file.toString();
    Cli r = Cli.run("simulate", f);
    assertEquals(1, r.exit(), r.toString());
    assertEquals("", r.err());
    List<String> lines = r.outLines();
    String w = f + ": wrong on purpose: ";
    assertEquals(List.of(
        w + "step 1 (msg): expected code 1 got ok",
        w + "step 2 (check_rate_limit): expected flow.inflow 5 got 0",
        w + "step 3 (send): expected ok got code 4 (quota exceeded: send on channel-0/ustrd: net"
            + " outflow 11 would exceed 10% of channel value 100 (threshold 10); window resets at"
            + " 2024-01-02T00:00:00Z (in 86400s))",
        w + "step 4 (recv): expected ack error got ack success {\"result\":\"AQ==\"}",
        w + "step 4 (recv): expected code 4 got ack success {\"result\":\"AQ==\"}",
        w + "step 4 (recv): expected event transfer_denied{reason=rate_limit_exceeded} got no"
            + " transfer_denied event (emitted: none)",
        w + "step 6 (check_pending): expected send_sequences [2, 9] got [2]",
        f + ": genesis expected to fail: genesis: expected code 12 got ok",
        "1 passed, 2 failed"), lines);
  }

  @Test
  void failureLinesFollowTheFormat() {
    Cli r = Cli.run("simulate", Cli.resource(FAILING).toString());
    for (String line : r.outLines()) {
      if (!line.endsWith("failed")) {
        assertTrue(
            line.matches(".+\\.json: [^:]+: (step [0-9]+ \\([a-z_]+\\)|genesis): expected .+ got .+"),
            line);
      }
    }
  }

  @Test
  void passingAndFailingFilesTogether_countScenarios() {
    Cli r = Cli.run("simulate", Cli.resource("/scenarios/conformance/walkthrough.json").toString(),
        Cli.resource(FAILING).toString());
    assertEquals(1, r.exit());
    assertEquals("2 passed, 2 failed", r.outLines().get(r.outLines().size() - 1));
  }

  static List<Object[]> malformed() {
    return List.of(
        new Object[] {"bad-json.json", "bad JSON at line 3"},
        new Object[] {"unknown-step-key.json", "typo in a step: step 2 (send): unknown key \"pakcet\""},
        new Object[] {"unknown-op.json", "unknown op: step 2: unknown op \"sned\""},
        new Object[] {"wrong-type.json",
            "amount as a number: step 1 (send): packet.data.amount: expected a string, got an integer"},
        new Object[] {"time-and-advance.json",
            "both time and advance_seconds: step 1 (begin_block): give either \"time\" or"
                + " \"advance_seconds\", not both"},
        new Object[] {"time-backwards.json",
            "time goes backwards: step 2 (begin_block): time: block time goes backwards"},
        new Object[] {"height-backwards.json",
            "height goes backwards: step 2 (begin_block): height: block height goes backwards"},
        new Object[] {"unknown-scenario-key.json", "typo at the top: unknown key \"suply\""},
        new Object[] {"duplicate-key.json", "Duplicate field 'steps'"},
        new Object[] {"bad-msg-field.json",
            "msg with a field its type lacks: step 1 (msg): msg: not a valid"
                + " /ratelimit.v1.MsgAddRateLimit"},
        new Object[] {"bad-expect-key.json",
            "expect key not for this op: step 1 (send): unknown key \"ack\" in expect"});
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void malformedFile_oneLineNamingFileScenarioAndStep_exit2(String name, String fragment) {
    String f = Cli.resource("/scenarios/malformed/" + name).toString();
    Cli r = Cli.run("simulate", Cli.resource("/scenarios/conformance/walkthrough.json").toString(), f);
    assertEquals(2, r.exit(), r.toString());
    assertEquals("", r.out(), "nothing runs when a file is malformed");
    assertEquals(1, r.errLines().size(), r.toString());
    String line = r.errLines().get(0);
    assertTrue(line.startsWith("ratelimit: " + f + ": "), line);
    assertTrue(line.contains(fragment), line);
    assertFalse(line.contains("Exception"), line);
  }

  @Test
  void everyMalformedFileIsCovered() throws IOException {
    try (var s = Files.list(Cli.resource("/scenarios/malformed"))) {
      assertEquals(malformed().size(), s.count());
    }
  }

  @Test
  void missingFile_exit2() {
    Cli r = Cli.run("simulate", "/no/such/scenario.json");
    assertEquals(2, r.exit());
    assertEquals(1, r.errLines().size());
    assertEquals(List.of("ratelimit: /no/such/scenario.json: no such file"), r.errLines());
  }

  @Test
  void noFile_isAUsageError() {
    Cli r = Cli.run("simulate");
    assertEquals(2, r.exit());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.err().contains("Missing required parameter"), r.err());
  }

  @Test
  void verbose_printsEveryStep() {
    Cli r = Cli.run("simulate", "--verbose", Cli.resource("/scenarios/conformance/walkthrough.json").toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("step 1 (msg): ok"), r.out());
    assertTrue(r.out().contains("step 5 (recv): ack error {\"error\":\"ABCI code: 4: error handling"
        + " packet: see events for details\"}, app not called"), r.out());
    assertTrue(r.out().contains("    event transfer_denied{module=ratelimit, reason=rate_limit_exceeded"), r.out());
    assertTrue(r.out().contains("step 18 (begin_block): height 4, 2024-01-02T00:00:01Z, hour epoch 24"), r.out());
    assertTrue(r.out().contains("walk-through from the module README: passed"), r.out());
    assertTrue(r.out().endsWith("1 passed, 0 failed\n"), r.out());
  }

  @Test
  void leveldb_keepsTheStateForTheQueries(@TempDir Path tmp) throws IOException {
    Path home = tmp.resolve("home");
    Cli r = Cli.run("simulate", "--store", "leveldb", "--home", home.toString(),
        Cli.resource("/scenarios/conformance/governance.json").toString());
    assertEquals(0, r.exit(), r.toString());
    assertTrue(Files.isRegularFile(home.resolve("data/CURRENT")));
    assertEquals("{\n  \"channel-0\" : \"osmosis-1\"\n}\n",
        Files.readString(home.resolve("config/channels.json")));
    // the governance scenario ends with its rate limit removed and an unlimited send
    Cli list = Cli.run("list-rate-limits", "--home", home.toString(), "--output", "json");
    assertEquals(0, list.exit(), list.toString());
    assertEquals("{\n  \"rate_limits\": []\n}\n", list.out());
  }

  @Test
  void homeImpliesLeveldb_andNeedsOneScenario(@TempDir Path tmp) {
    Cli r = Cli.run("simulate", "--home", tmp.resolve("h").toString(),
        Cli.resource("/scenarios/conformance/edges.json").toString());
    assertEquals(2, r.exit());
    assertEquals(List.of("ratelimit: --store leveldb keeps one chain's state: give exactly one"
        + " scenario (found 4)"), r.errLines());
  }

  @Test
  void leveldbWithoutHome_andMemoryWithHome_areUsageErrors(@TempDir Path tmp) {
    String f = Cli.resource("/scenarios/conformance/walkthrough.json").toString();
    Cli a = Cli.run("simulate", "--store", "leveldb", f);
    assertEquals(2, a.exit());
    assertEquals(List.of("ratelimit: --store leveldb needs --home DIR"), a.errLines());
    Cli b = Cli.run("simulate", "--store", "memory", "--home", tmp.toString(), f);
    assertEquals(2, b.exit());
    Cli c = Cli.run("simulate", "--store", "disk", f);
    assertEquals(2, c.exit());
    assertEquals(1, c.errLines().size(), c.toString());
  }

  @Test
  void leveldb_refusesAHomeThatHasADatabase(@TempDir Path tmp) {
    String f = Cli.resource("/scenarios/conformance/walkthrough.json").toString();
    Path home = tmp.resolve("home");
    assertEquals(0, Cli.run("simulate", "--home", home.toString(), f).exit());
    Cli again = Cli.run("simulate", "--home", home.toString(), f);
    assertEquals(2, again.exit());
    assertTrue(again.err().contains("already has a database"), again.err());
    assertEquals(1, again.errLines().size());
  }

  @Test
  void directoryArgument_runsItsJsonFilesInNameOrder() {
    Cli r = Cli.run("simulate", "--verbose", Cli.resource("/scenarios/own").toString());
    assertEquals(0, r.exit(), r.toString());
    int gov = r.out().indexOf("governance-ibc-go-and-proposals.json");
    int gen = r.out().indexOf("genesis.json");
    assertTrue(gen >= 0 && gov > gen, "genesis.json sorts before governance-...json");
  }
}
