package dev.ratelimit.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Item 2's ratio target in one command: runs {@link HotPathBenchmark}'s {@code send} and {@code
 * recv} beside their floors ({@code storeFloorSend}, {@code storeFloorRecv}) on each engine, and
 * the same four of {@link ManyDenomsBenchmark} (labelled {@code send-new} and {@code recv-new}:
 * no packet's denom is in the memos), and prints every operation's time divided by its floor's,
 * with the range the scores' 99.9 % errors allow and a verdict against the target (≤ {@value
 * #TARGET}×).
 *
 * <p>A verdict is {@code met} only when the whole range is at or below the target, {@code not met}
 * when the whole range is above it, and {@code within the error} otherwise: one run on a noisy
 * machine decides nothing closer than that. With fewer than three iterations JMH gives no error:
 * the verdict is then the ratio's alone and says {@code (one point)}. Arguments are JMH's own
 * options ({@code -f 3}, {@code -wi}, {@code -i}, {@code -r}, {@code -p engine=memory}, ...),
 * without a benchmark pattern: the benchmarks are this class's. Throughput mode is forced (the
 * ratio is of times per operation, from operations per second). A report, never a gate: the exit
 * code does not depend on the verdicts.
 */
public final class FloorRatios {
  /** The target: a hot-path operation takes at most this many times its floor. */
  static final int TARGET = 3;

  /** A benchmark and its floor, each named {@code Class.method}, and the operation's label. */
  private record Operation(String label, String name, String floor) {
    static Operation of(String label, Class<?> benchmark, String method, String floorMethod) {
      String prefix = benchmark.getSimpleName() + ".";
      return new Operation(label, prefix + method, prefix + floorMethod);
    }
  }

  /** The operations, in the order they are printed. */
  private static final List<Operation> OPERATIONS =
      List.of(
          Operation.of("send", HotPathBenchmark.class, "send", "storeFloorSend"),
          Operation.of("recv", HotPathBenchmark.class, "recv", "storeFloorRecv"),
          Operation.of("send-new", ManyDenomsBenchmark.class, "send", "storeFloorSend"),
          Operation.of("recv-new", ManyDenomsBenchmark.class, "recv", "storeFloorRecv"));

  /** What the {@code -new} rows are. */
  static final String LEGEND =
      String.format(
          Locale.ROOT,
          "send-new, recv-new: no packet's denom in the memos (%,d denoms in turn): each hashes"
              + " its trace and its path",
          ManyDenomsBenchmark.DENOMS);

  private static final List<String> ENGINE_ORDER = List.of(Engines.MEMORY, Engines.LEVELDB);

  private FloorRatios() {}

  /**
   * One benchmark's ({@code Class.method}) score on one engine: operations per second and its
   * 99.9 % error, NaN where JMH has none (fewer than three iterations in all).
   */
  record Score(String benchmark, String engine, double perSecond, double error) {
    Score {
      Objects.requireNonNull(benchmark, "benchmark");
      Objects.requireNonNull(engine, "engine");
      if (!(perSecond > 0)) {
        throw new IllegalArgumentException("a throughput must be positive: " + perSecond);
      }
      error = Math.abs(error);
    }

    boolean hasError() {
      return !Double.isNaN(error);
    }

    /** The error, 0 where there is none (the range is then the point). */
    double errorOrZero() {
      return hasError() ? error : 0;
    }
  }

  /**
   * Whether one operation's range of ratios meets the target; without an error estimate, whether
   * its ratio does.
   */
  enum Verdict {
    MET("met"),
    WITHIN_ERROR("within the error"),
    NOT_MET("not met");

    private final String text;

    Verdict(String text) {
      this.text = text;
    }

    @Override
    public String toString() {
      return text;
    }
  }

  /** An operation beside its floor, on one engine. */
  record Ratio(String engine, String operation, Score op, Score floor) {
    Ratio {
      Objects.requireNonNull(engine, "engine");
      Objects.requireNonNull(operation, "operation");
      Objects.requireNonNull(op, "op");
      Objects.requireNonNull(floor, "floor");
    }

    /** Time per operation ÷ the floor's time per operation. */
    double value() {
      return floor.perSecond() / op.perSecond();
    }

    /** Whether both scores come with an error estimate. */
    boolean hasRange() {
      return op.hasError() && floor.hasError();
    }

    /** The smallest ratio the errors allow: the operation at its fastest, the floor its slowest. */
    double lowest() {
      return Math.max(0, floor.perSecond() - floor.errorOrZero())
          / (op.perSecond() + op.errorOrZero());
    }

    /** The largest ratio the errors allow (infinite when the operation's error exceeds it). */
    double highest() {
      double slowest = op.perSecond() - op.errorOrZero();
      return slowest > 0
          ? (floor.perSecond() + floor.errorOrZero()) / slowest
          : Double.POSITIVE_INFINITY;
    }

    Verdict verdict() {
      if (highest() <= TARGET) {
        return Verdict.MET;
      }
      return lowest() > TARGET ? Verdict.NOT_MET : Verdict.WITHIN_ERROR;
    }
  }

  /**
   * Pairs every operation with its floor on the same engine, engines in the usual order (then
   * others by name), sends before receives. An operation or a floor that was not measured on an
   * engine where the other was is named in {@code missing}.
   */
  static List<Ratio> pair(Collection<Score> scores, List<String> missing) {
    List<String> engines =
        scores.stream()
            .map(Score::engine)
            .distinct()
            .sorted(
                Comparator.comparingInt(FloorRatios::engineRank)
                    .thenComparing(Comparator.naturalOrder()))
            .toList();
    List<Ratio> out = new ArrayList<>();
    for (String engine : engines) {
      for (Operation operation : OPERATIONS) {
        Optional<Score> op = find(scores, operation.name(), engine);
        Optional<Score> floor = find(scores, operation.floor(), engine);
        if (op.isPresent() && floor.isPresent()) {
          out.add(new Ratio(engine, operation.label(), op.get(), floor.get()));
        } else if (op.isPresent() || floor.isPresent()) {
          missing.add(engine + " " + (op.isPresent() ? operation.floor() : operation.name()));
        }
      }
    }
    return out;
  }

  private static int engineRank(String engine) {
    int rank = ENGINE_ORDER.indexOf(engine);
    return rank < 0 ? ENGINE_ORDER.size() : rank;
  }

  private static Optional<Score> find(Collection<Score> scores, String benchmark, String engine) {
    return scores.stream()
        .filter(s -> s.benchmark().equals(benchmark) && s.engine().equals(engine))
        .findFirst();
  }

  /** The report: a header, then one line per operation and engine. */
  static List<String> table(List<Ratio> ratios) {
    String format = "%-8s %-8s %-24s %-7s %-24s %-7s %-8s %-17s %s";
    List<String> lines = new ArrayList<>();
    lines.add(
        String.format(
            Locale.ROOT,
            format,
            "engine",
            "op",
            "ops/s",
            "µs/op",
            "floor ops/s",
            "µs/op",
            "ratio",
            "range",
            "≤ " + TARGET + "×"));
    for (Ratio r : ratios) {
      lines.add(
          String.format(
              Locale.ROOT,
              format,
              r.engine(),
              r.operation(),
              throughput(r.op()),
              micros(r.op()),
              throughput(r.floor()),
              micros(r.floor()),
              times(r.value()),
              r.hasRange() ? times(r.lowest()) + "-" + times(r.highest()) : "no error",
              r.verdict() + (r.hasRange() ? "" : " (one point)")));
    }
    return lines;
  }

  private static String throughput(Score s) {
    return s.hasError()
        ? String.format(Locale.ROOT, "%,.0f ± %,.0f", s.perSecond(), s.error())
        : String.format(Locale.ROOT, "%,.0f", s.perSecond());
  }

  private static String micros(Score s) {
    return String.format(Locale.ROOT, "%.3f", 1e6 / s.perSecond());
  }

  private static String times(double ratio) {
    return Double.isInfinite(ratio) ? "∞" : String.format(Locale.ROOT, "%.2f×", ratio);
  }

  /** The benchmarks' full names, exactly. */
  static String pattern() {
    StringBuilder names = new StringBuilder();
    for (Operation operation : OPERATIONS) {
      names.append(names.isEmpty() ? "" : "|").append(operation.name()).append('|');
      names.append(operation.floor());
    }
    String pkg = FloorRatios.class.getPackageName() + ".";
    return "^" + (pkg + "(" + names + ")").replace(".", "\\.") + "$";
  }

  /** The scores of a JMH run, by {@code Class.method} and engine. */
  static List<Score> scores(Collection<RunResult> results) {
    List<Score> out = new ArrayList<>();
    for (RunResult run : results) {
      String name = run.getParams().getBenchmark();
      Result<?> primary = run.getPrimaryResult();
      out.add(
          new Score(
              name.substring(name.lastIndexOf('.', name.lastIndexOf('.') - 1) + 1),
              run.getParams().getParam("engine"),
              primary.getScore(),
              primary.getScoreError()));
    }
    return out;
  }

  /**
   * Runs the benchmarks with {@code args} (JMH options) and prints the report to {@code out}.
   *
   * @return the exit code: 0 after a run, 2 for arguments JMH does not take or a benchmark pattern
   */
  static int run(String[] args, PrintStream out, PrintStream err) throws RunnerException {
    CommandLineOptions cli;
    try {
      // JMH spells help -h; take --help too, as every ratelimit command does
      cli =
          new CommandLineOptions(
              Arrays.stream(args).map(a -> a.equals("--help") ? "-h" : a).toArray(String[]::new));
    } catch (CommandLineOptionException e) {
      err.println("FloorRatios: " + e.getMessage());
      return 2;
    }
    if (cli.shouldHelp()) {
      out.println("usage: FloorRatios [JMH options]: send and recv beside their floors");
      try {
        cli.showHelp();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return 0;
    }
    if (!cli.getIncludes().isEmpty() || !cli.getExcludes().isEmpty()) {
      err.println(
          "FloorRatios: runs its own benchmarks; give JMH options only (-f, -wi, -w, -i, -r,"
              + " -p engine=...), not a pattern: "
              + cli.getIncludes()
              + cli.getExcludes());
      return 2;
    }
    Options options =
        new OptionsBuilder()
            .parent(cli)
            .include(pattern())
            .mode(Mode.Throughput)
            .timeUnit(TimeUnit.SECONDS)
            .build();
    Collection<RunResult> results = new Runner(options).run();
    List<String> missing = new ArrayList<>();
    List<Ratio> ratios = pair(scores(results), missing);
    out.println();
    out.println(
        "Hot path ÷ its floor (time per operation; target ≤ "
            + TARGET
            + "×), one thread; range from the 99.9 % errors");
    out.println(
        "machine: "
            + Runtime.getRuntime().availableProcessors()
            + " CPUs, "
            + System.getProperty("os.name")
            + " "
            + System.getProperty("os.arch")
            + ", "
            + System.getProperty("java.vm.name")
            + " "
            + System.getProperty("java.vm.version"));
    table(ratios).forEach(out::println);
    out.println(LEGEND);
    for (String m : missing) {
      out.println("not measured: " + m + " (see JMH's output above)");
    }
    return 0;
  }

  /** {@code java -cp ratelimit-bench-*-all.jar dev.ratelimit.bench.FloorRatios [JMH options]}. */
  public static void main(String[] args) throws RunnerException {
    int code = run(args, System.out, System.err);
    if (code != 0) {
      System.exit(code);
    }
  }
}
