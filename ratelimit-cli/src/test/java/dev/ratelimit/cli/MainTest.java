package dev.ratelimit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MainTest {

  @Test
  void version() {
    Cli r = Cli.run("--version");
    assertEquals(0, r.exit());
    assertTrue(r.out().startsWith("ratelimit 0."), r.out());
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "simulate", "list-rate-limits", "rate-limit", "rate-limits-by-chain", "list-blacklisted-denoms",
      "list-whitelisted-addresses", "remaining-capacity", "genesis", "demo"})
  void everyCommandHasHelpWithAnExample(String command) {
    // picocli reports a description it cannot format on System.err itself
    PrintStream systemErr = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    Cli r;
    try {
      System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
      r = Cli.run(command, "--help");
    } finally {
      System.setErr(systemErr);
    }
    assertEquals(0, r.exit(), r.toString());
    assertTrue(r.out().contains("Usage: ratelimit " + command), r.out());
    assertTrue(r.out().contains("Example"), r.out());
    assertEquals("", r.err() + warnings.toString(StandardCharsets.UTF_8), "help writes no warning");
  }

  @Test
  void genesisSubcommandsHaveHelp() {
    for (String sub : List.of("export", "validate")) {
      Cli r = Cli.run("genesis", sub, "--help");
      assertEquals(0, r.exit());
      assertTrue(r.out().contains("Example"), r.out());
    }
  }

  @Test
  void simulateHelpSaysStepsAreNumberedFromOne() {
    assertTrue(Cli.run("simulate", "--help").out().contains("steps numbered from 1"));
  }

  @Test
  void rootHelp_listsTheCommands() {
    Cli r = Cli.run("--help");
    assertEquals(0, r.exit());
    for (String c : List.of("simulate", "remaining-capacity", "genesis", "demo")) {
      assertTrue(r.out().contains(c), c);
    }
  }

  @Test
  void noCommand_oneLine_exit2() {
    Cli r = Cli.run();
    assertEquals(2, r.exit());
    assertEquals(List.of("ratelimit: missing command (see 'ratelimit --help')"), r.errLines());
  }

  @Test
  void unknownCommandOrFlag_oneLine_exit2() {
    Cli a = Cli.run("frobnicate");
    assertEquals(2, a.exit());
    assertEquals(1, a.errLines().size(), a.toString());
    Cli b = Cli.run("list-rate-limits", "--home", "/tmp", "--bogus");
    assertEquals(2, b.exit());
    assertEquals(1, b.errLines().size(), b.toString());
    assertTrue(b.err().contains("--bogus"), b.err());
    assertTrue(b.err().contains("(see 'ratelimit list-rate-limits --help')"), b.err());
    Cli c = Cli.run("list-rate-limits", "--home", "/tmp", "--output", "yaml");
    assertEquals(2, c.exit());
    assertEquals(1, c.errLines().size(), c.toString());
  }

  @Test
  void strayWords_sayWhatTheyAre() {
    assertEquals(
        List.of("ratelimit: unknown command 'list-rate-limit' (see 'ratelimit --help')"),
        Cli.run("list-rate-limit").errLines());
    assertEquals(
        List.of("ratelimit: unknown command 'frobnicate' (see 'ratelimit --help')"),
        Cli.run("frobnicate").errLines());
    assertEquals(
        List.of("ratelimit: unknown command 'foo' (see 'ratelimit genesis --help')"),
        Cli.run("genesis", "foo").errLines());
    Cli extra = Cli.run("list-rate-limits", "extra", "--home", "/tmp");
    assertEquals(2, extra.exit());
    assertEquals(
        List.of("ratelimit: unexpected argument 'extra' (see 'ratelimit list-rate-limits --help')"),
        extra.errLines());
  }

  @Test
  void noStackTraceUnlessDebug() {
    Cli plain = Cli.run("simulate", "/no/such.json");
    assertEquals(2, plain.exit());
    assertFalse(plain.err().contains("\tat "), plain.err());
    Cli debug = Cli.run("simulate", "--debug", "/no/such.json");
    assertEquals(2, debug.exit());
    assertTrue(debug.err().contains("\tat "), debug.err());
    assertTrue(debug.errLines().get(0).startsWith("ratelimit: /no/such.json"), debug.err());
  }
}
