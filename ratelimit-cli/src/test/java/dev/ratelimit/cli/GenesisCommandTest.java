package dev.ratelimit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class GenesisCommandTest {

  @Test
  void exportThenValidate_roundTrips(@TempDir Path tmp) throws IOException {
    Path root = tmp.resolve("demo");
    assertEquals(0, Cli.run("demo", "--home", root.toString()).exit());
    Path home = root.resolve("stride-1");
    Cli export = Cli.run("genesis", "export", "--home", home.toString());
    assertEquals(0, export.exit(), export.toString());
    assertTrue(export.out().startsWith("{\n  \"params\": {},\n"), export.out()); // as Go prints it
    assertTrue(export.out().contains("\"rate_limits\": [{"), export.out());
    assertTrue(export.out().contains("\"pending_send_packet_sequence_numbers\": []"), export.out());
    assertTrue(export.out().contains("\"epoch_number\": \"24\""), export.out());
    assertTrue(export.out().contains("\"duration\": \"3600s\""), export.out());
    Path file = tmp.resolve("genesis.json");
    Files.writeString(file, export.out());
    Cli validate = Cli.run("genesis", "validate", file.toString());
    assertEquals(0, validate.exit(), validate.toString());
    assertEquals("valid\n", validate.out());
    assertEquals("", validate.err());

    // the pipe the help shows: export | validate -
    Cli piped = Cli.runWithInput(
        export.out().getBytes(StandardCharsets.UTF_8), "genesis", "validate", "-");
    assertEquals(0, piped.exit(), piped.toString());
    assertEquals("valid\n", piped.out());
  }

  /**
   * A denom with a bidi override or a C1 control exports as escapes (the same JSON, as the query
   * answers print it): raw, it rewrote the terminal's line. The file imports to the same denom.
   */
  @Test
  void export_escapesWhatIsUnsafeOnATerminal_andStillRoundTrips(@TempDir Path tmp)
      throws IOException {
    Path scenario = Files.writeString(tmp.resolve("bidi.json"), "{\"name\": \"bidi\","
        + " \"genesis\": {\"blacklisted_denoms\": [\"ev\\u202eil\\u009bx\"]}, \"steps\": []}");
    Path home = tmp.resolve("home");
    assertEquals(0, Cli.run("simulate", "--home", home.toString(), scenario.toString()).exit());
    Cli export = Cli.run("genesis", "export", "--home", home.toString());
    assertEquals(0, export.exit(), export.toString());
    assertTrue(export.out().contains("\"blacklisted_denoms\": [\"ev\\u202eil\\u009bx\"]"),
        export.out());
    assertTrue(export.out().chars().noneMatch(c -> c == 0x202e || c == 0x9b), export.out());

    Path again = Files.writeString(tmp.resolve("again.json"), "{\"name\": \"again\", \"genesis\": "
        + export.out() + ", \"steps\": [{\"op\": \"check_blacklist\","
        + " \"denoms\": [\"ev\\u202eil\\u009bx\"]}]}");
    Cli imported = Cli.run("simulate", again.toString());
    assertEquals(0, imported.exit(), imported.toString());
  }

  /** {@code genesis validate} of a file in {@code dir} holding {@code content}. */
  private static Cli validate(Path dir, String content) throws IOException {
    Path file = dir.resolve("g.json");
    Files.writeString(file, content);
    return Cli.run("genesis", "validate", file.toString());
  }

  @Test
  void validate_ofAChainsWholeGenesis_saysToPassTheModulesSection(@TempDir Path tmp)
      throws IOException {
    Cli r = validate(tmp, "{\"chain_id\": \"stride-1\", \"app_state\": {\"ratelimit\": {}}}");
    assertEquals(2, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.err().contains("(code 12); this is a chain's whole genesis: pass its"
        + " app_state.ratelimit (jq .app_state.ratelimit FILE | ratelimit genesis validate -)"),
        r.err());
    Cli section = validate(tmp, "{}");
    assertEquals(0, section.exit(), section.toString());
  }

  @Test
  void validate_ignoresALeadingByteOrderMark(@TempDir Path tmp) throws IOException {
    Cli r = validate(tmp, "\uFEFF{\"blacklisted_denoms\": [\"u\"]}");
    assertEquals(0, r.exit(), r.toString());
    assertEquals("valid\n", r.out());
  }

  @Test
  void validate_fromStandardInput_namesItInErrors() {
    Cli r = Cli.runWithInput(
        "{\"hour_epoch\": {\"duration\": \"60s\"}}".getBytes(StandardCharsets.UTF_8),
        "genesis", "validate", "-");
    assertEquals(2, r.exit(), r.toString());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.err().startsWith("ratelimit: <stdin>: "), r.err());
    assertTrue(r.err().trim().endsWith("(code 12)"), r.err());

    Cli empty = Cli.run("genesis", "validate", "-"); // nothing piped in
    assertEquals(2, empty.exit(), empty.toString());
    assertTrue(empty.err().contains("<stdin>: ") && empty.err().contains("no JSON value (the text is empty or only white space)"),
        empty.err());
  }

  @Test
  void validate_warnsAboutGoFormPendingIds(@TempDir Path tmp) throws IOException {
    Cli r = validate(tmp, "{\"pending_send_packet_sequence_numbers\": [\"channel-0/5\"]}");
    assertEquals(0, r.exit(), r.toString());
    assertEquals("valid\n", r.out());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.err().startsWith("ratelimit: warning: pending_send_packet_sequence_numbers[0]"), r.err());
  }

  @Test
  void validate_invalid_exit2_withCode12(@TempDir Path tmp) throws IOException {
    Path file = tmp.resolve("g.json");
    Files.writeString(file, "{\"hour_epoch\": {\"duration\": \"60s\"}}");
    Cli r = Cli.run("genesis", "validate", file.toString());
    assertEquals(2, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(1, r.errLines().size());
    assertTrue(r.err().contains("hour_epoch.duration must be 3600s"), r.err());
    assertTrue(r.err().trim().endsWith("(code 12)"), r.err());

    Files.writeString(file, "{not json");
    Cli bad = Cli.run("genesis", "validate", file.toString());
    assertEquals(2, bad.exit());
    assertEquals(1, bad.errLines().size(), bad.toString());
    assertTrue(bad.err().contains("(code 12)"), bad.err());
  }

  /** Files protobuf's lenient JSON parser alone would call valid, and a chain would not. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{} {\"rate_limits\": [{}]}|line 1 column 4: unexpected '{' after the JSON value",
        "{} garbage|line 1 column 4: unexpected 'g' after the JSON value",
        "// a comment\n{}|line 1 column 1: expected a JSON value, got '/'",
        "{rate_limits: []}|line 1 column 2: expected a string key, got 'r'",
        "{'rate_limits': []}|line 1 column 2: expected a string key, got '''",
        "{\"rate_limits\": [],}|line 1 column 20: expected a string key, got '}'",
        "{\"rate_limits\": [], \"rate_limits\": []}|line 1 column 21: duplicate key \"rate_limits\"",
        "{\"blacklisted_denoms\": [\"a\"], \"blacklisted_denoms\": [\"b\"]}|column 31: duplicate key",
        "{\"blacklisted_denoms\": [\"a\"; \"b\"]}|line 1 column 28: expected ',' or ']', got ';'",
        "{\"params\" => {}}|line 1 column 11: expected ':' after a key, got '='",
        "{\"blacklisted_denoms\": [NaN]}|line 1 column 25: expected a JSON value, got 'N'",
        "{\"blacklisted_denoms\": [\"\\u00e\uFD36\"]}|line 1 column 26: a \\u escape needs four hex digits",
        "|line 1 column 1: no JSON value"
      })
  void validate_isStrictJson_exit2WithCode12(String content, @TempDir Path tmp) throws IOException {
    String[] parts = content.split("\\|", 2);
    Path file = tmp.resolve("g.json");
    Files.writeString(file, parts[0]);

    Cli r = Cli.run("genesis", "validate", file.toString());

    assertEquals(2, r.exit(), r.toString());
    assertEquals("", r.out());
    assertEquals(1, r.errLines().size(), r.toString());
    assertTrue(r.err().contains("invalid genesis: not a GenesisState in protobuf JSON: line"), r.err());
    assertTrue(r.err().contains(parts[1]), r.err());
    assertTrue(r.err().trim().endsWith("(code 12)"), r.err());
  }

  @Test
  void validate_missingFile_exit2() {
    Cli r = Cli.run("genesis", "validate", "/no/such/genesis.json");
    assertEquals(2, r.exit());
    assertEquals(List.of("ratelimit: /no/such/genesis.json: no such file"), r.errLines());
  }

  @Test
  void export_homeWithoutDatabase_exit2(@TempDir Path tmp) {
    Cli r = Cli.run("genesis", "export", "--home", tmp.toString());
    assertEquals(2, r.exit());
    assertEquals(1, r.errLines().size());
  }

  @Test
  void genesisWithoutSubcommand_exit2() {
    Cli r = Cli.run("genesis");
    assertEquals(2, r.exit());
    assertEquals(1, r.errLines().size(), r.toString());
  }
}
