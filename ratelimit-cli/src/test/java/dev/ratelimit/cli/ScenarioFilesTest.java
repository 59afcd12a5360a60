package dev.ratelimit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.cli.simulate.Scenario;
import dev.ratelimit.cli.simulate.ScenarioParser;
import dev.ratelimit.cli.simulate.ScenarioRunner;
import dev.ratelimit.cli.simulate.SimulationStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every scenario file under {@code scenarios/conformance} (copied from the shared conformance
 * suite), {@code scenarios/own} and {@code scenarios/audit} passes, through the runner and through
 * the command line. The audit files are 452 scenarios written from the SPEC's text alone, black
 * box, by an audit that did not read the code (TESTING.md); the runner's mutation test leaves them
 * out, its point made by the other folders.
 */
class ScenarioFilesTest {

  @TestFactory
  Stream<DynamicTest> conformanceScenariosPass() throws IOException {
    return filesIn("/scenarios/conformance").map(f -> DynamicTest.dynamicTest(
        "conformance/" + f.getFileName(), () -> assertAllPass(f)));
  }

  @TestFactory
  Stream<DynamicTest> ownScenariosPass() throws IOException {
    return filesIn("/scenarios/own").map(f -> DynamicTest.dynamicTest(
        "own/" + f.getFileName(), () -> assertAllPass(f)));
  }

  @TestFactory
  Stream<DynamicTest> auditScenariosPass() throws IOException {
    return filesIn("/scenarios/audit").map(f -> DynamicTest.dynamicTest(
        "audit/" + f.getFileName(), () -> assertAllPass(f)));
  }

  @Test
  void conformanceSuiteHasTheSharedFiles() throws IOException {
    List<String> names =
        filesIn("/scenarios/conformance").map(p -> p.getFileName().toString()).collect(Collectors.toList());
    assertTrue(names.containsAll(List.of(
        "blacklist-whitelist.json", "edges.json", "governance.json", "send-acks-timeouts.json",
        "walkthrough.json")), names.toString());
  }

  @Test
  void simulateOverTheFoldersExitsZeroWithTheClosingLine() {
    Cli r = Cli.run("simulate", Cli.resource("/scenarios/conformance").toString(),
        Cli.resource("/scenarios/own").toString(), Cli.resource("/scenarios/audit").toString());
    assertEquals(0, r.exit(), r.toString());
    List<String> lines = r.outLines();
    assertEquals(1, lines.size(), r.toString());
    assertTrue(lines.get(0).matches("[0-9]+ passed, 0 failed"), lines.get(0));
    assertEquals("", r.err());
  }

  /**
   * Nothing in the rules, the events, the errors or the runner formats in the default locale: every
   * file passes, and the closing line is in digits 0-9, under locales writing other digits (the
   * suite's own JVM runs in Turkish). In memory: LevelDB refuses such a locale (LevelDbKvStore).
   */
  @ParameterizedTest
  @ValueSource(strings = {"ar-EG", "fa-IR", "th-TH-u-nu-thai"})
  void everyFilePasses_underALocaleWritingOtherDigits(String tag) {
    Locale before = Locale.getDefault();
    Locale display = Locale.getDefault(Locale.Category.DISPLAY);
    Locale format = Locale.getDefault(Locale.Category.FORMAT);
    Locale.setDefault(Locale.forLanguageTag(tag));
    try {
      assertFalse(String.format("%d", 7).equals("7"), "the locale writes other digits");
      simulateOverTheFoldersExitsZeroWithTheClosingLine();
    } finally {
      Locale.setDefault(before);
      Locale.setDefault(Locale.Category.DISPLAY, display);
      Locale.setDefault(Locale.Category.FORMAT, format);
    }
  }

  static Stream<Path> filesIn(String dir) throws IOException {
    try (Stream<Path> s = Files.list(Cli.resource(dir))) {
      List<Path> files = s.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
      assertFalse(files.isEmpty(), "no scenario files in " + dir);
      return files.stream();
    }
  }

  private static void assertAllPass(Path file) {
    List<Scenario> scenarios = ScenarioParser.parseFile(file, file.getFileName().toString())
        .requireWellFormed();
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    ScenarioRunner.Summary summary;
    try (PrintStream out = new PrintStream(buf, true, StandardCharsets.UTF_8)) {
      summary = new ScenarioRunner(out, false, SimulationStore.memory()).run(scenarios);
    }
    String printed = buf.toString(StandardCharsets.UTF_8);
    System.out.print(printed);
    assertEquals(List.of(), summary.failures(), printed);
    assertEquals(scenarios.size(), summary.passed());
    assertEquals(0, summary.exitCode());
  }
}
