package dev.ratelimit.cli.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScenarioRunnerTest {
  private static final String ADD =
      "{\"@type\": \"/ratelimit.v1.MsgAddRateLimit\", \"authority\": \"authority\", \"denom\": \"%s\","
          + " \"channel_or_client_id\": \"channel-0\", \"max_percent_send\": \"10\","
          + " \"max_percent_recv\": \"10\", \"duration_hours\": \"24\"}";

  private static List<String> failures(String json) {
    List<Scenario> scenarios =
        ScenarioParser.parse("f.json", json.getBytes(StandardCharsets.UTF_8)).requireWellFormed();
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
      return new ScenarioRunner(out, false, SimulationStore.memory()).run(scenarios).failures();
    }
  }

  @Test
  void eachExpectedEventNeedsItsOwnMatch() {
    String scenario = "{\"name\": \"n\", \"channels\": [{\"channel_id\": \"channel-0\"}],"
        + " \"supply\": {\"a\": \"1\", \"b\": \"1\"}, \"steps\": ["
        + "{\"op\": \"proposal\", \"messages\": [" + ADD.formatted("a") + ", " + ADD.formatted("b") + "],"
        + " \"expect_events\": [%s]}]}";
    String one = "{\"type\": \"ratelimit_add_rate_limit\"}";
    String withA = "{\"type\": \"ratelimit_add_rate_limit\", \"attributes\": {\"denom\": \"a\"}}";
    assertEquals(List.of(), failures(scenario.formatted(one + ", " + one)));
    assertEquals(List.of(), failures(scenario.formatted(one + ", " + withA)));
    List<String> f = failures(scenario.formatted(one + ", " + one + ", " + one));
    assertEquals(1, f.size(), f.toString());
    assertEquals("f.json: n: step 1 (proposal): expected event ratelimit_add_rate_limit{} got", 
        f.get(0).substring(0, f.get(0).indexOf(" got") + 4));
  }

  @Test
  void attributeNumbersCompareNumerically() {
    String s = "{\"name\": \"n\", \"channels\": [{\"channel_id\": \"channel-0\"}], \"supply\": {\"a\": \"100\"},"
        + " \"steps\": [{\"op\": \"msg\", \"msg\": " + ADD.formatted("a") + ","
        + " \"expect_events\": [{\"type\": \"ratelimit_add_rate_limit\", \"attributes\":"
        + " {\"channel_value\": %s, \"duration_hours\": \"24\"}}]}]}";
    assertEquals(List.of(), failures(s.formatted("100")));
    assertEquals(List.of(), failures(s.formatted("\"100\"")));
    assertEquals(List.of(), failures(s.formatted("\"0100\""))); // numerically equal
    assertEquals(1, failures(s.formatted("101")).size());
    assertEquals(1, failures(s.formatted("\"1e2\"")).size()); // text, not a number: unequal
    assertEquals(1, failures(s.formatted("\"100x\"")).size());
  }

  @Test
  void expectNoEvents() {
    String s = "{\"name\": \"n\", \"channels\": [{\"channel_id\": \"channel-0\"}], \"supply\": {\"a\": \"100\"},"
        + " \"steps\": [{\"op\": \"msg\", \"msg\": " + ADD.formatted("a") + ","
        + " \"expect_no_events\": [\"ratelimit_add_rate_limit\"]}]}";
    List<String> f = failures(s);
    assertEquals(1, f.size());
    assertEquals("f.json: n: step 1 (msg): expected no ratelimit_add_rate_limit event got"
        + " ratelimit_add_rate_limit{module=ratelimit, denom=a, channel_or_client=channel-0,"
        + " max_percent_send=10, max_percent_recv=10, duration_hours=24, channel_value=100}", f.get(0));
  }

  @Test
  void aFailedStepKeepsNoWrites_andTheScenarioGoesOn() {
    String s = "{\"name\": \"n\", \"channels\": [{\"channel_id\": \"channel-0\"}], \"supply\": {\"a\": \"100\"},"
        + " \"steps\": ["
        + "{\"op\": \"proposal\", \"messages\": [" + ADD.formatted("a") + ", " + ADD.formatted("zero") + "],"
        + "  \"expect\": {\"ok\": true}},"
        + "{\"op\": \"check_rate_limit\", \"denom\": \"a\", \"channel_or_client_id\": \"channel-0\", \"absent\": true},"
        + "{\"op\": \"check_rate_limit\", \"denom\": \"a\", \"channel_or_client_id\": \"channel-0\","
        + "  \"flow\": {\"inflow\": 0}}]}";
    List<String> f = failures(s);
    assertEquals(2, f.size(), f.toString());
    assertEquals("f.json: n: step 1 (proposal): expected ok got code 3", f.get(0).substring(0, f.get(0).indexOf(" (", 40)));
    assertEquals("f.json: n: step 3 (check_rate_limit): expected a rate limit on channel-0/a got none", f.get(1));
  }
}
