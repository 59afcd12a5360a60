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
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SimulateCommandTest {
  private static final String FAILING = "/scenarios/failing/wrong-expectations.json";
  private static final String EVERY_CHECK = "/scenarios/failing/every-check.json";
  private static final String BAD_GENESIS =
      "code 12 (invalid genesis: hour_epoch.duration must be 3600s, got 7200s)";

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
        w + "step 7 (msg): expected ok got code invalid_request (invalid request: msg:"
            + " /ratelimit.v1.MsgResetRateLimit has no field \"chanel_or_client_id\" (fields:"
            + " [authority, denom, channel_or_client_id]))",
        f + ": genesis expected to fail: genesis: expected code 12 got ok",
        "1 passed, 2 failed"), lines);
  }

  /**
   * Every kind of expectation, each wrong on purpose, is reported: one line per differing field,
   * with what the chain holds. The runner's failure reports are what outside test vectors rely on.
   */
  @Test
  void everyKindOfCheck_reportsItsMismatch() {
    String f = Cli.resource(EVERY_CHECK).toString();
    Cli r = Cli.run("simulate", f);
    assertEquals(1, r.exit(), r.toString());
    String w = f + ": every check wrong on purpose: step ";
    String flow = "{\"inflow\":\"0\",\"outflow\":\"%s\",\"channel_value\":\"1000\"}";
    String limit = "[{\"path\":{\"denom\":\"ustrd\",\"channel_or_client_id\":\"channel-0\"},"
        + "\"quota\":{\"max_percent_send\":\"10\",\"max_percent_recv\":\"10\",\"duration_hours\":\"24\"},"
        + "\"flow\":" + flow + "}]";
    String capacity = "send {threshold 100, net_flow 10, remaining 90} recv {threshold 100, net_flow -10,"
        + " remaining 110} window_resets_at 2024-01-02T00:00:00Z seconds_until_reset 86400";
    String notFound = "code 2 (rate limit not found: no rate limit on channel-0/uatom)";
    String success = "ack success {\"result\":\"AQ==\"}";
    assertEquals(List.of(
        w + "1 (msg): expected code unauthorized got ok",
        w + "1 (msg): expected event transfer_denied{} got no transfer_denied event"
            + " (emitted: ratelimit_add_rate_limit)",
        w + "4 (send): expected a failure got ok",
        w + "4 (send): expected event transfer_denied{} got no transfer_denied event (emitted: none)",
        w + "5 (check_rate_limit): expected flow.outflow 11 got 10",
        w + "5 (check_rate_limit): expected flow.channel_value 999 got 1000",
        w + "5 (check_rate_limit): expected quota.max_percent_send 20 got 10",
        w + "5 (check_rate_limit): expected quota.duration_hours 12 got 24",
        w + "6 (check_rate_limit): expected no rate limit on channel-0/ustrd got quota {send 10%,"
            + " recv 10%, 24h} flow {inflow 0, outflow 10, channel_value 1000}",
        w + "7 (check_rate_limit): expected a rate limit on channel-0/uatom got none",
        w + "8 (check_pending): expected recv_sequences [3] got []",
        w + "9 (check_epoch): expected epoch_number 1 got 0",
        w + "9 (check_epoch): expected epoch_start_time 2024-01-01T01:00:00Z got 2024-01-01T00:00:00Z",
        w + "9 (check_epoch): expected epoch_start_height 2 got 1",
        w + "10 (check_blacklist): expected blacklist [uosmo] got [uatom]",
        w + "11 (check_whitelist): expected whitelist [a->c] got [a->b]",
        w + "12 (check_export): expected export rate_limits " + limit.formatted("9") + " got "
            + limit.formatted("10"),
        w + "12 (check_export): expected export whitelisted_address_pairs"
            + " [{\"sender\":\"a\",\"receiver\":\"c\"}] got [{\"sender\":\"a\",\"receiver\":\"b\"}]",
        w + "12 (check_export): expected export blacklisted_denoms [uosmo] got [uatom]",
        w + "12 (check_export): expected export pending_send_packet_sequence_numbers"
            + " [channel-0/2/ustrd] got [channel-0/1/ustrd]",
        w + "12 (check_export): expected export pending_recv_packet_sequence_numbers"
            + " [channel-0/3/ustrd] got []",
        w + "12 (check_export): expected export hour_epoch {\"epoch_number\":\"1\",\"duration\":\"3600s\","
            + "\"epoch_start_time\":\"2024-01-01T00:00:00Z\",\"epoch_start_height\":\"1\"} got"
            + " {\"duration\":\"3600s\",\"epoch_start_time\":\"2024-01-01T00:00:00Z\",\"epoch_start_height\":\"1\"}",
        w + "13 (check_query): expected paths [] got [channel-0/ustrd]",
        w + "14 (check_query): expected paths [] got [channel-0/ustrd]",
        w + "15 (check_query): expected paths [channel-0/uatom] got [channel-0/ustrd]",
        w + "16 (check_query): expected send.threshold 1 got 100",
        w + "16 (check_query): expected send.net_flow 1 got 10",
        w + "16 (check_query): expected send.remaining 1 got 90",
        w + "16 (check_query): expected recv.threshold 1 got 100",
        w + "16 (check_query): expected recv.net_flow 1 got -10",
        w + "16 (check_query): expected recv.remaining unlimited got 110",
        w + "16 (check_query): expected window_resets_at 2024-01-01T01:00:00Z got 2024-01-02T00:00:00Z",
        w + "16 (check_query): expected seconds_until_reset 1 got 86400",
        w + "17 (check_query): expected an answer got " + notFound,
        w + "18 (check_query): expected code 2 got " + capacity,
        w + "19 (check_query): expected code 8 got " + notFound,
        w + "20 (ack): expected a failure got ok",
        w + "20 (ack): expected app_called false got true",
        w + "21 (recv): expected ack async got " + success,
        w + "21 (recv): expected a failure got " + success,
        w + "21 (recv): expected code 4 got " + success,
        w + "21 (recv): expected ack_bytes {} got {\"result\":\"AQ==\"}",
        w + "21 (recv): expected app_called false got true",
        w + "21 (recv): expected event transfer_denied{amount=2} got no transfer_denied event"
            + " (emitted: none)",
        w + "22 (timeout): expected a failure got ok",
        w + "22 (timeout): expected event ratelimit_invalid_packet{code=10} got"
            + " ratelimit_invalid_packet{module=ratelimit, channel_or_client=channel-0, code=9,"
            + " error=invalid packet data: missing key \"amount\"} (fewer than expected)",
        w + "23 (write_ack): expected code 4 got ok",
        w + "25 (timeout): expected event ratelimit_invalid_packet{code=10} got"
            + " ratelimit_invalid_packet{module=ratelimit, channel_or_client=channel-0, code=9,"
            + " error=invalid packet data: missing key \"amount\"}",
        f + ": genesis rejected with another code: genesis: expected code 13 got " + BAD_GENESIS,
        f + ": genesis rejected where ok was expected: genesis: expected ok got " + BAD_GENESIS,
        "1 passed, 3 failed"), r.outLines());
  }

  /** --verbose also shows what each check found, and how InitGenesis went. */
  @Test
  void everyKindOfCheck_verbose() {
    String f = Cli.resource(EVERY_CHECK).toString();
    List<String> lines = Cli.run("simulate", "--verbose", f).outLines();
    String w = f + ": every check wrong on purpose: ";
    for (String line : List.of(
        w + "genesis: ok at height 1, 2024-01-01T00:00:00Z, hour epoch 0",
        w + "step 5 (check_rate_limit): mismatch: quota {send 10%, recv 10%, 24h} flow {inflow 0,"
            + " outflow 10, channel_value 1000}",
        w + "step 24 (check_blacklist): as expected",
        // what a query answered, shown beside its mismatches: a list, a capacity, an error
        w + "step 15 (check_query): mismatch: paths [channel-0/ustrd]",
        w + "step 16 (check_query): mismatch: send {threshold 100, net_flow 10, remaining 90}"
            + " recv {threshold 100, net_flow -10, remaining 110} window_resets_at"
            + " 2024-01-02T00:00:00Z seconds_until_reset 86400",
        w + "step 17 (check_query): mismatch: code 2 (rate limit not found: no rate limit on"
            + " channel-0/uatom)",
        w + "step 18 (check_query): mismatch: send {threshold 100, net_flow 10, remaining 90}"
            + " recv {threshold 100, net_flow -10, remaining 110} window_resets_at"
            + " 2024-01-02T00:00:00Z seconds_until_reset 86400",
        w + "step 19 (check_query): mismatch: code 2 (rate limit not found: no rate limit on"
            + " channel-0/uatom)",
        w + "step 20 (ack): ok, app called",
        f + ": genesis rejected as expected: its steps do not run: genesis: rejected: " + BAD_GENESIS,
        f + ": genesis rejected as expected: its steps do not run: passed")) {
      assertTrue(lines.contains(line), line + " in " + lines);
    }
    assertFalse(String.join("\n", lines).contains("step 1 (check_blacklist)"), "its steps do not run");
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
            "sequence as a word: step 1 (send): packet.sequence: expected a non-negative integer,"
                + " got a string \"one\""},
        new Object[] {"time-and-advance.json",
            "both time and advance_seconds: step 1 (begin_block): give either \"time\" or"
                + " \"advance_seconds\", not both"},
        new Object[] {"time-backwards.json",
            "time goes backwards: step 2 (begin_block): time: block time goes backwards"},
        new Object[] {"height-backwards.json",
            "height goes backwards: step 2 (begin_block): height: block height goes backwards"},
        new Object[] {"unknown-scenario-key.json", "typo at the top: unknown key \"suply\""},
        new Object[] {"duplicate-key.json", "bad JSON at line 1 column 40: duplicate key \"steps\""},
        new Object[] {"msg-without-type.json",
            "msg without its type: step 1 (msg): msg: \"@type\" is required"},
        // (a field the type lacks, or a value no chain could receive, is a failing step:
        // failing/wrong-expectations.json, own/governance-ibc-go-...)
        new Object[] {"bad-expect-key.json",
            "expect key not for this op: step 1 (send): unknown key \"ack\" in expect"});
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformed")
  void malformedFile_oneLineNamingFileScenarioAndStep_exit2(String name, String fragment) {
    String f = Cli.resource("/scenarios/malformed/" + name).toString();
    Cli r = Cli.run("simulate", Cli.resource("/scenarios/conformance/walkthrough.json").toString(), f);
    assertEquals(2, r.exit(), r.toString());
    // the well-formed scenarios still run: the walk-through's, and any beside the malformed one
    assertEquals(1, r.outLines().size(), r.toString());
    assertTrue(r.outLines().get(0).matches("[1-9][0-9]* passed, [1-9][0-9]* failed"), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    String line = r.errLines().get(0);
    assertTrue(line.startsWith("ratelimit: " + f + ": "), line);
    assertTrue(line.contains(fragment), line);
    assertFalse(line.contains("Exception"), line);
  }

  @Test
  void aMalformedScenario_isReported_andTheOthersInItsFileStillRun(@TempDir Path dir)
      throws IOException {
    Path f = Files.writeString(dir.resolve("mixed.json"), "{\"scenarios\": ["
        + "{\"name\": \"good\", \"steps\": [{\"op\": \"check_blacklist\", \"denoms\": []}]},"
        + "{\"name\": \"typo\", \"steps\": [{\"op\": \"sned\"}]},"
        + "{\"name\": \"wrong\", \"steps\": [{\"op\": \"check_blacklist\", \"denoms\": [\"x\"]}]}]}");
    Cli r = Cli.run("simulate", f.toString());
    assertEquals(2, r.exit(), r.toString());
    assertEquals(List.of("ratelimit: " + f + ": typo: step 1: unknown op \"sned\"; known ops: "
        + String.join(", ", dev.ratelimit.cli.simulate.ScenarioParser.OPS)), r.errLines());
    assertEquals(List.of(
        f + ": wrong: step 1 (check_blacklist): expected blacklist [x] got []",
        "1 passed, 2 failed"), r.outLines());
  }

  @Test
  void aFileThatIsNoJson_isReported_andOtherFilesStillRun(@TempDir Path dir) throws IOException {
    Path bad = Files.writeString(dir.resolve("bad.json"), "{\"name\": ");
    Cli r = Cli.run(
        "simulate", bad.toString(), Cli.resource("/scenarios/conformance/walkthrough.json").toString());
    assertEquals(2, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.errLines().get(0).startsWith("ratelimit: " + bad + ": "), r.toString());
    assertEquals(List.of("1 passed, 1 failed"), r.outLines());
  }

  @Test
  void aMalformedScenario_withAHome_runsNothing(@TempDir Path dir) throws IOException {
    Path f = Files.writeString(dir.resolve("typo.json"),
        "{\"name\": \"typo\", \"steps\": [{\"op\": \"sned\"}]}");
    Path home = dir.resolve("home");
    Cli r = Cli.run("simulate", "--home", home.toString(), f.toString());
    assertEquals(2, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.errLines().get(0).contains("unknown op \"sned\""), r.toString());
    assertFalse(Files.exists(home.resolve("data")), "no database was made");
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
    assertEquals("{\n  \"channel-0\": \"osmosis-1\"\n}\n", // as the example app writes it
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

  /**
   * A scenario that stops at its genesis commits no block: the database it opened is removed
   * (queries would refuse it, and it kept the home from another run); what existed before stays.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("stopsAtGenesis")
  void leveldb_aScenarioStoppedAtItsGenesis_leavesNoDatabase(
      String name, String genesis, String expectGenesis, int exit, @TempDir Path tmp)
      throws IOException {
    Path f = Files.writeString(tmp.resolve("g.json"), "{\"name\": \"" + name + "\", \"genesis\": "
        + genesis + ", \"expect_genesis\": " + expectGenesis + ", \"steps\": []}");
    Path fresh = tmp.resolve("fresh");
    Cli r = Cli.run("simulate", "--home", fresh.toString(), f.toString());
    assertEquals(exit, r.exit(), r.toString());
    assertEquals(List.of("ratelimit: note: the scenario stopped at its genesis, so no block was"
        + " committed: the database it opened in " + fresh.resolve("data") + " is removed, and "
        + fresh + " can be given to simulate again"), r.errLines());
    assertFalse(Files.exists(fresh), "the home this run made is gone");

    Path kept = Files.createDirectories(tmp.resolve("kept/data"));
    Files.writeString(tmp.resolve("kept/notes.txt"), "mine");
    Cli again = Cli.run("simulate", "--home", kept.getParent().toString(), f.toString());
    assertEquals(exit, again.exit(), again.toString());
    assertTrue(Files.isDirectory(kept), "an empty data directory given stays");
    try (var left = Files.list(kept)) {
      assertEquals(0, left.count());
    }
    assertEquals("mine", Files.readString(tmp.resolve("kept/notes.txt")));

    Cli good = Cli.run("simulate", "--home", fresh.toString(),
        Cli.resource("/scenarios/conformance/governance.json").toString());
    assertEquals(0, good.exit(), good.toString());
    assertEquals("", good.err());
    assertTrue(Files.isRegularFile(fresh.resolve("data/CURRENT")));
  }

  static List<Arguments> stopsAtGenesis() {
    String refused = "{\"hour_epoch\": {\"duration\": \"7200s\"}}";
    return List.of(
        Arguments.of(
            "refused as expected", refused, "{\"ok\": false, \"code\": 12}", 0),
        Arguments.of(
            "refused, ok expected", refused, "{\"ok\": true}", 1),
        Arguments.of(
            "accepted, refusal expected", "{}", "{\"ok\": false}", 1));
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
