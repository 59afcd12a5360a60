package dev.ratelimit.cli.simulate;

import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.Event;
import java.io.PrintStream;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Runs scenarios (docs/SCENARIOS.md) and reports: one line per failed expectation ({@code file:
 * scenario name: step N (op): expected ... got ...}, steps numbered from 1), every step's outcome
 * with {@code verbose}, and the closing line {@code N passed, M failed} (scenarios). After a
 * failed expectation the scenario goes on.
 */
public final class ScenarioRunner {
  private static final Pattern INTEGER = Pattern.compile("-?[0-9]{1,100}");

  private final PrintStream out;
  private final boolean verbose;
  private final SimulationStore.StoreProvider stores;

  /**
   * @param out where failure lines, verbose lines and the closing line go
   * @param stores the database of each scenario ({@link SimulationStore#memory()} or {@link
   *     SimulationStore#leveldb})
   */
  public ScenarioRunner(PrintStream out, boolean verbose, SimulationStore.StoreProvider stores) {
    this.out = Objects.requireNonNull(out, "out");
    this.verbose = verbose;
    this.stores = Objects.requireNonNull(stores, "stores");
  }

  /** A run's result. */
  public record Summary(List<ScenarioResult> results) {
    public Summary {
      results = List.copyOf(results);
    }

    public int passed() {
      return (int) results.stream().filter(ScenarioResult::passed).count();
    }

    public int failed() {
      return results.size() - passed();
    }

    /** 0 when every scenario passed, 1 otherwise. */
    public int exitCode() {
      return failed() == 0 ? 0 : 1;
    }

    /** Every failure line, in order. */
    public List<String> failures() {
      return results.stream().flatMap(r -> r.failures().stream()).collect(Collectors.toList());
    }
  }

  /**
   * One scenario's result: it passed when it has no failure lines. {@code stoppedAtGenesis}: the
   * genesis was refused, or accepted where {@code expect_genesis} wanted a refusal, so the steps
   * did not run and no block reached the scenario's database.
   */
  public record ScenarioResult(Scenario scenario, List<String> failures, boolean stoppedAtGenesis) {
    public ScenarioResult {
      failures = List.copyOf(failures);
    }

    public boolean passed() {
      return failures.isEmpty();
    }
  }

  /** Runs every scenario in order and prints {@code N passed, M failed}. */
  public Summary run(List<Scenario> scenarios) {
    return run(scenarios, 0);
  }

  /**
   * Runs every scenario in order and prints {@code N passed, M failed}, counting among the failed
   * the {@code malformed} scenarios that could not be read (reported apart, not run).
   */
  public Summary run(List<Scenario> scenarios, int malformed) {
    List<ScenarioResult> results = new ArrayList<>();
    for (Scenario s : scenarios) {
      results.add(runScenario(s));
    }
    Summary summary = new Summary(results);
    out.println(summary.passed() + " passed, " + (summary.failed() + malformed) + " failed");
    out.flush();
    return summary;
  }

  /** Runs one scenario, printing its failure lines (and, with verbose, every step). */
  public ScenarioResult runScenario(Scenario scenario) {
    List<String> failures = new ArrayList<>();
    Where where = scenario.where();
    boolean stoppedAtGenesis = false;
    try (SimulationStore store = stores.open(scenario);
        Simulation sim = new Simulation(scenario, store)) {
      Optional<RuntimeException> genesisError = sim.initChain();
      stoppedAtGenesis = genesis(scenario, sim, genesisError, failures);
      if (!stoppedAtGenesis) {
        for (Step step : scenario.steps()) {
          runStep(scenario, sim, step, failures);
        }
        sim.finish();
      }
    } catch (RuntimeException e) {
      // the runner's own machinery failed (e.g. the database): report it as this scenario's failure
      fail(failures, where.prefix() + ": cannot run: " + e.getClass().getSimpleName() + ": "
          + StepOutcome.oneLine(e.getMessage()));
    }
    if (verbose) {
      out.println(where.prefix() + ": " + (failures.isEmpty()
          ? "passed"
          : "FAILED (" + failures.size() + " failed expectation" + (failures.size() == 1 ? "" : "s")
              + ")"));
    }
    return new ScenarioResult(scenario, failures, stoppedAtGenesis);
  }

  /** Checks InitGenesis against {@code expect_genesis}; true when the scenario stops there. */
  private boolean genesis(
      Scenario scenario, Simulation sim, Optional<RuntimeException> error, List<String> failures) {
    String prefix = scenario.where().prefix() + ": genesis: ";
    Outcome expected = scenario.expectGenesis();
    if (error.isPresent()) {
      String got = QueryCheck.describe(error.get());
      if (verbose) {
        out.println(prefix + "rejected: " + got);
      }
      if (expected.expectsSuccess()) {
        fail(failures, prefix + "expected ok got " + got);
      } else {
        expected.code().ifPresent(c -> {
          if (!(error.get() instanceof RateLimitException r) || !c.matches(r.code())) {
            fail(failures, prefix + "expected code " + c + " got " + got);
          }
        });
      }
      return true;
    }
    if (verbose) {
      out.println(prefix + "ok at height " + sim.height() + ", " + sim.time()
          + sim.hourEpoch().map(e -> ", hour epoch " + Long.toUnsignedString(e.epochNumber()))
              .orElse(""));
      sim.genesisWarnings().forEach(w -> out.println(prefix + "warning: " + w));
    }
    if (!expected.expectsSuccess()) {
      fail(failures, prefix + "expected " + QueryCheck.expectedFailure(expected) + " got ok");
      return true;
    }
    return false;
  }

  private void runStep(Scenario scenario, Simulation sim, Step step, List<String> failures) {
    String prefix = scenario.where().step(step.number(), step.op()).prefix() + ": ";
    StepOutcome outcome;
    try {
      outcome = sim.run(step);
    } catch (RuntimeException e) {
      fail(failures, prefix + "cannot run the step: " + QueryCheck.describe(e));
      return;
    }
    if (verbose) {
      out.println(prefix + describe(step, outcome, sim));
      for (Event e : outcome.events()) {
        out.println("    event " + format(e));
      }
    }
    for (String problem : compare(step, outcome)) {
      fail(failures, prefix + problem);
    }
  }

  private void fail(List<String> failures, String line) {
    String l = StepOutcome.oneLine(line);
    failures.add(l);
    out.println(l);
  }

  private static String describe(Step step, StepOutcome o, Simulation sim) {
    if (step.action() instanceof Step.Check) {
      if (!step.hasExpectations()) {
        return o.answer();
      }
      return (o.mismatches().isEmpty() ? "as expected" : "mismatch")
          + (o.answer().isEmpty() ? "" : ": " + o.answer());
    }
    if (step.action() instanceof Step.BeginBlock) {
      return "height " + sim.height() + ", " + sim.time()
          + sim.hourEpoch().map(e -> ", hour epoch " + Long.toUnsignedString(e.epochNumber()))
              .orElse("")
          + (o.ok() ? "" : ": failed: " + o.describeError());
    }
    return o.describe() + (appCalledMatters(step) ? (o.appCalled() ? ", app called" : ", app not called") : "");
  }

  private static boolean appCalledMatters(Step step) {
    return step.action() instanceof Step.Recv
        || step.action() instanceof Step.AckPacket
        || step.action() instanceof Step.Timeout;
  }

  // ---------------------------------------------------------------- expectations

  static List<String> compare(Step step, StepOutcome o) {
    List<String> problems = new ArrayList<>(o.mismatches());
    Step.Expect e = step.expect();
    if (step.action() instanceof Step.Recv) {
      compareRecv(e, o, problems);
    } else {
      compareOutcome(e.outcome(), o, problems);
    }
    e.appCalled().ifPresent(expected -> {
      if (expected != o.appCalled()) {
        problems.add("expected app_called " + expected + " got " + o.appCalled());
      }
    });
    compareEvents(step, o, problems);
    return problems;
  }

  private static void compareOutcome(Outcome expected, StepOutcome o, List<String> problems) {
    if (expected.isEmpty()) {
      return;
    }
    if (expected.expectsSuccess()) {
      if (!o.ok()) {
        problems.add("expected ok got " + o.describeError());
      }
      return;
    }
    if (o.ok()) {
      problems.add("expected " + QueryCheck.expectedFailure(expected) + " got ok");
      return;
    }
    expected.code().ifPresent(c -> {
      if (!c.matches(o.errorCode().orElse(null))) {
        problems.add("expected code " + c + " got " + o.describeError());
      }
    });
  }

  private static void compareRecv(Step.Expect e, StepOutcome o, List<String> problems) {
    String got = o.describe();
    e.ack().ifPresent(ack -> {
      if (!ack.equals(o.ackKind())) {
        problems.add("expected ack " + ack + " got " + got);
      }
    });
    e.outcome().ok().ifPresent(ok -> {
      if (ok != o.ok()) {
        problems.add("expected " + (ok ? "ok" : "a failure") + " got " + got);
      }
    });
    e.outcome().code().ifPresent(c -> {
      boolean matches;
      if (o.error().isPresent()) {
        matches = c.matches(o.errorCode().orElse(null));
      } else {
        matches = c.number() != null && o.ackAbciCode().map(c.number()::equals).orElse(false);
      }
      if (!matches) {
        String actual = o.error().isPresent()
            ? o.describeError()
            : o.ackAbciCode().map(n -> "code " + n + " (" + got + ")").orElse(got);
        problems.add("expected code " + c + " got " + actual);
      }
    });
    e.ackBytes().ifPresent(bytes -> {
      Optional<String> actual = o.ackText();
      if (!actual.equals(Optional.of(bytes))) {
        problems.add("expected ack_bytes " + bytes + " got "
            + actual.orElse("no acknowledgement (" + got + ")"));
      }
    });
  }

  private static void compareEvents(Step step, StepOutcome o, List<String> problems) {
    List<Event> events = o.events();
    List<Step.EventExpect> expected = step.expectEvents();
    // each expected event needs its own emitted match: bipartite matching (Kuhn)
    boolean[][] fits = new boolean[expected.size()][events.size()];
    for (int i = 0; i < expected.size(); i++) {
      for (int j = 0; j < events.size(); j++) {
        fits[i][j] = matches(expected.get(i), events.get(j));
      }
    }
    int[] owner = new int[events.size()];
    Arrays.fill(owner, -1);
    for (int i = 0; i < expected.size(); i++) {
      if (!augment(i, fits, owner, new boolean[events.size()])) {
        Step.EventExpect want = expected.get(i);
        List<String> sameType =
            events.stream().filter(ev -> ev.type().equals(want.type())).map(ScenarioRunner::format)
                .collect(Collectors.toList());
        problems.add("expected event " + format(want) + " got "
            + (sameType.isEmpty()
                ? "no " + want.type() + " event (emitted: "
                    + (events.isEmpty() ? "none" : events.stream().map(Event::type)
                        .collect(Collectors.joining(", "))) + ")"
                : String.join(", ", sameType)
                    + (sameType.size() < countOfType(expected, want.type())
                        ? " (fewer than expected)" : "")));
      }
    }
    for (String type : step.expectNoEvents()) {
      List<String> found =
          events.stream().filter(ev -> ev.type().equals(type)).map(ScenarioRunner::format)
              .collect(Collectors.toList());
      if (!found.isEmpty()) {
        problems.add("expected no " + type + " event got " + String.join(", ", found));
      }
    }
  }

  private static long countOfType(List<Step.EventExpect> expected, String type) {
    return expected.stream().filter(e -> e.type().equals(type)).count();
  }

  private static boolean augment(int i, boolean[][] fits, int[] owner, boolean[] seen) {
    for (int j = 0; j < owner.length; j++) {
      if (fits[i][j] && !seen[j]) {
        seen[j] = true;
        if (owner[j] < 0 || augment(owner[j], fits, owner, seen)) {
          owner[j] = i;
          return true;
        }
      }
    }
    return false;
  }

  private static boolean matches(Step.EventExpect expected, Event actual) {
    if (!expected.type().equals(actual.type())) {
      return false;
    }
    for (var a : expected.attributes().entrySet()) {
      Optional<String> value = actual.attribute(a.getKey());
      if (value.isEmpty() || !sameValue(a.getValue().text(), value.get())) {
        return false;
      }
    }
    return true;
  }

  /** Equal text, or both integers of the same value ({@code "48"} and {@code 48}). */
  static boolean sameValue(String expected, String actual) {
    if (expected.equals(actual)) {
      return true;
    }
    return INTEGER.matcher(expected).matches()
        && INTEGER.matcher(actual).matches()
        && new BigInteger(expected).equals(new BigInteger(actual));
  }

  static String format(Event e) {
    return e.type() + e.attributes().stream()
        .map(a -> a.key() + "=" + a.value())
        .collect(Collectors.joining(", ", "{", "}"));
  }

  private static String format(Step.EventExpect e) {
    return e.type() + e.attributes().entrySet().stream()
        .map(a -> a.getKey() + "=" + a.getValue().text())
        .collect(Collectors.joining(", ", "{", "}"));
  }
}
