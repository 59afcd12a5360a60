package dev.ratelimit.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.bench.FloorRatios.Ratio;
import dev.ratelimit.bench.FloorRatios.Score;
import dev.ratelimit.bench.FloorRatios.Verdict;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class FloorRatiosTest {
  private static Score score(String benchmark, String engine, double perSecond, double error) {
    return new Score(benchmark, engine, perSecond, error);
  }

  private static Ratio ratio(double op, double opError, double floor, double floorError) {
    return new Ratio(
        "memory",
        "recv",
        score("HotPathBenchmark.recv", "memory", op, opError),
        score("HotPathBenchmark.storeFloorRecv", "memory", floor, floorError));
  }

  @Test
  void table_timeRatioItsRangeAndVerdictPerOperation() {
    List<Score> scores =
        List.of(
            score("HotPathBenchmark.recv", "leveldb", 1_600_000, 200_000),
            score("HotPathBenchmark.storeFloorRecv", "leveldb", 4_400_000, 300_000),
            score("HotPathBenchmark.storeFloorRecv", "memory", 19_500_000, 500_000),
            score("HotPathBenchmark.recv", "memory", 2_600_000, 100_000),
            score("HotPathBenchmark.storeFloorSend", "memory", 2_800_000, 100_000),
            score("HotPathBenchmark.send", "memory", 1_400_000, 50_000));
    List<String> missing = new ArrayList<>();

    List<String> lines = FloorRatios.table(FloorRatios.pair(scores, missing));

    assertEquals(
        List.of(
            "engine   op       ops/s                    µs/op   floor ops/s              µs/op  "
                + " ratio    range             ≤ 3×",
            // 2.8M / 1.4M = 2; (2.8M - 0.1M) / (1.4M + 0.05M) = 1.862; 2.9M / 1.35M = 2.148
            "memory   send     1,400,000 ± 50,000       0.714   2,800,000 ± 100,000      0.357  "
                + " 2.00×    1.86×-2.15×       met",
            // 19.5 / 2.6 = 7.5; 19.0 / 2.7 = 7.037; 20.0 / 2.5 = 8: all above 3
            "memory   recv     2,600,000 ± 100,000      0.385   19,500,000 ± 500,000     0.051  "
                + " 7.50×    7.04×-8.00×       not met",
            // 4.4 / 1.6 = 2.75; 4.1 / 1.8 = 2.278; 4.7 / 1.4 = 3.357: 3 inside the range
            "leveldb  recv     1,600,000 ± 200,000      0.625   4,400,000 ± 300,000      0.227  "
                + " 2.75×    2.28×-3.36×       within the error"),
        lines);
    assertEquals(List.of(), missing);
  }

  @Test
  void verdict_exactlyTheTargetIsMet_justAboveIsNot() {
    assertEquals(Verdict.MET, ratio(1_000, 0, 3_000, 0).verdict());
    assertEquals(Verdict.NOT_MET, ratio(1_000, 0, 3_001, 0).verdict());
    // the floor's error alone carries the range over 3
    assertEquals(Verdict.WITHIN_ERROR, ratio(1_000, 0, 2_999, 2).verdict());
    assertEquals(Verdict.MET, ratio(1_000, 0, 2_999, 1).verdict());
  }

  @Test
  void ratio_withoutAnErrorEstimate_isJudgedOnItsPointAndSaysSo() {
    Ratio met = ratio(1_000, Double.NaN, 2_000, 50);
    Ratio notMet = ratio(1_000, 10, 3_500, Double.NaN);

    assertFalse(met.hasRange());
    assertEquals(2.0, met.value());
    assertEquals(1.95, met.lowest(), 1e-12); // the known error still counts
    assertEquals(Verdict.MET, met.verdict());
    assertEquals(Verdict.NOT_MET, notMet.verdict());
    assertEquals(
        List.of(
            "memory   recv     1,000                    1000.000 2,000 ± 50               500.000"
                + " 2.00×    no error          met (one point)",
            "memory   recv     1,000 ± 10               1000.000 3,500                    285.714"
                + " 3.50×    no error          not met (one point)"),
        FloorRatios.table(List.of(met, notMet)).subList(1, 3));
  }

  @Test
  void ratio_anOperationErrorAsLargeAsItsScore_hasNoUpperBound() {
    Ratio r = ratio(1_000, 1_000, 2_000, 0);

    assertEquals(Double.POSITIVE_INFINITY, r.highest());
    assertEquals(1.0, r.lowest());
    assertEquals(Verdict.WITHIN_ERROR, r.verdict());
    assertTrue(FloorRatios.table(List.of(r)).get(1).contains("1.00×-∞ "));
  }

  @Test
  void score_refusesANonPositiveThroughput() {
    assertThrows(
        IllegalArgumentException.class, () -> score("HotPathBenchmark.send", "memory", 0, 1));
    assertThrows(
        IllegalArgumentException.class,
        () -> score("HotPathBenchmark.send", "memory", Double.NaN, 1));
  }

  @Test
  void pair_namesWhatHasNoCounterpart_andOrdersEnginesThenOperations() {
    List<Score> scores =
        List.of(
            score("HotPathBenchmark.recv", "zeta", 1, 0),
            score("HotPathBenchmark.storeFloorRecv", "zeta", 2, 0),
            score("HotPathBenchmark.recv", "leveldb", 1, 0),
            score("HotPathBenchmark.storeFloorSend", "leveldb", 2, 0),
            score("HotPathBenchmark.recv", "alpha", 1, 0),
            score("HotPathBenchmark.storeFloorRecv", "alpha", 3, 0),
            score("HotPathBenchmark.send", "memory", 1, 0),
            score("HotPathBenchmark.storeFloorSend", "memory", 4, 0),
            score("ManyDenomsBenchmark.recv", "memory", 1, 0),
            score("ManyDenomsBenchmark.storeFloorRecv", "memory", 5, 0),
            // the same method of another class is not a floor of this one
            score("ManyDenomsBenchmark.storeFloorSend", "alpha", 6, 0));
    List<String> missing = new ArrayList<>();

    List<Ratio> ratios = FloorRatios.pair(scores, missing);

    assertEquals(
        List.of("memory send", "memory recv-new", "alpha recv", "zeta recv"),
        ratios.stream().map(r -> r.engine() + " " + r.operation()).toList());
    assertEquals(List.of(4.0, 5.0, 3.0, 2.0), ratios.stream().map(Ratio::value).toList());
    assertEquals(
        List.of(
            "leveldb HotPathBenchmark.send",
            "leveldb HotPathBenchmark.storeFloorRecv",
            "alpha ManyDenomsBenchmark.send"),
        missing);
  }

  @Test
  void pattern_matchesTheEightBenchmarksOnly() {
    Pattern pattern = Pattern.compile(FloorRatios.pattern());

    for (Class<?> c : List.of(HotPathBenchmark.class, ManyDenomsBenchmark.class)) {
      String prefix = c.getName() + ".";
      for (String name : List.of("send", "recv", "storeFloorSend", "storeFloorRecv")) {
        assertTrue(pattern.matcher(prefix + name).find(), prefix + name);
      }
      for (String name :
          List.of("sendAlternating", "recvAlternating", "engineFloorSend", "sendX", "xsend")) {
        assertFalse(pattern.matcher(prefix + name).find(), prefix + name);
      }
    }
    assertFalse(pattern.matcher("dev.ratelimit.bench.PacketPartsBenchmark.recv").find());
    assertFalse(pattern.matcher("dev.ratelimit.benchXHotPathBenchmark.recv").find());
  }

  @Test
  void run_refusesABenchmarkPatternAndUnknownOptions() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    assertEquals(2, FloorRatios.run(new String[] {"HotPath"}, print(out), print(err)));
    assertTrue(text(err).startsWith("FloorRatios: runs its own benchmarks"), text(err));
    err.reset();
    assertEquals(2, FloorRatios.run(new String[] {"--no-such-option"}, print(out), print(err)));
    assertTrue(text(err).startsWith("FloorRatios: "), text(err));
    assertEquals("", text(out));
  }

  @Test
  void run_helpIsSpelledEitherWay_andRunsNothing() throws Exception {
    for (String help : List.of("-h", "--help")) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();

      assertEquals(0, FloorRatios.run(new String[] {help}, print(out), print(err)), help);
      assertTrue(text(out).startsWith("usage: FloorRatios [JMH options]"), text(out));
      assertEquals("", text(err), help);
    }
  }

  /** The whole path once, in this JVM: JMH runs the four benchmarks and the report pairs them. */
  @Test
  void run_measuresAndReportsBothOperations() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream jmhOut = System.out;
    int code;
    try {
      System.setOut(print(new ByteArrayOutputStream())); // JMH's own progress
      code =
          FloorRatios.run(
              new String[] {"-f", "0", "-wi", "0", "-i", "1", "-r", "100ms", "-p", "engine=memory"},
              print(out),
              System.err);
    } finally {
      System.setOut(jmhOut);
    }

    assertEquals(0, code);
    List<String> lines = text(out).lines().toList();
    assertTrue(
        lines.contains(
            "Hot path ÷ its floor (time per operation; target ≤ 3×), one thread;"
                + " range from the 99.9 % errors"),
        text(out));
    Pattern row =
        Pattern.compile(
            "memory +(send|recv|send-new|recv-new) +[0-9,]+ +[0-9.]+ +[0-9,]+ +[0-9.]+ +[0-9.]+×"
                + " +no error +(met|not met) \\(one point\\)");
    assertEquals(
        List.of("send", "recv", "send-new", "recv-new"),
        lines.stream()
            .map(row::matcher)
            .filter(m -> m.matches())
            .map(m -> m.group(1))
            .toList(),
        text(out));
    assertTrue(lines.contains(FloorRatios.LEGEND), text(out));
    assertFalse(text(out).contains("not measured"), text(out));
  }

  private static PrintStream print(ByteArrayOutputStream bytes) {
    return new PrintStream(bytes, true, StandardCharsets.UTF_8);
  }

  private static String text(ByteArrayOutputStream bytes) {
    return bytes.toString(StandardCharsets.UTF_8);
  }
}
