package dev.ratelimit.app.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.NodeConfig;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.RateLimit;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DemoTest {
  @TempDir java.nio.file.Path dir;

  @Test
  void walkThrough_printsTheReadmeTable_andLeavesAQueryableStrideHome() throws Exception {
    String out = run(0, "--home", dir.resolve("a").toString());

    assertTrue(out.contains("Every number matches the README's table."), out);
    assertRow(out, "1    Rate limit created", "0", "0", "100");
    assertRow(out, "2    8uosmo Osmosis -> Stride          Successful", "8", "0", "8%", "100");
    assertRow(out, "3    8uosmo Osmosis -> Stride          Rejected", "16", "0", "16% (>10%)", "100");
    assertRow(out, "3    State reverted after rejected Tx", "8", "0", "8%", "100");
    assertRow(out, "4    12ibc/uosmo Stride -> Osmosis     Successful", "8", "12", "4%", "100");
    assertRow(out, "5    8uosmo Osmosis -> Stride          Successful", "16", "12", "4%", "100");
    assertRow(out, "6    Quota Reset", "0", "0", "104");
    assertTrue(out.contains("{\"error\":\"ABCI code: 4: error handling packet: see events for details\"}"));
    assertTrue(out.contains("(refunded in full)"), out);
    // Pinned: IBC v2 support writes nothing on chains without registered counterparties, so IBC
    // v1 traffic leaves the state (and app hash) it left before
    assertTrue(out.contains("Stride height 12, app hash "
        + "8c57afabe74f1dfaa1a75cc5608c7dea6c5ddad4b6f78752773d13b09a1925f5"), out);
    assertTrue(out.contains("bin/ratelimit list-rate-limits --home " + dir.resolve("a/stride-1")));

    java.nio.file.Path strideHome = dir.resolve("a").resolve(OsmosisStride.STRIDE);
    assertEquals("{\n  \"07-tendermint-0\": \"osmosis-1\",\n  \"channel-5\": \"osmosis-1\"\n}\n",
        Files.readString(NodeConfig.channelsFile(strideHome), StandardCharsets.UTF_8));
    try (ChainApp stride = ChainComponent.open(
        strideHome, OsmosisStride.STRIDE, OsmosisStride.STRIDE_AUTHORITY)) {
      RateLimit rl = stride.query(ctx -> stride.rateLimits().getRateLimit(
          ctx, new Path(OsmosisStride.STRIDE_UOSMO, OsmosisStride.STRIDE_CHANNEL))).orElseThrow();
      assertEquals(BigInteger.valueOf(104), rl.flow().channelValue());
      assertEquals(10, rl.quota().maxPercentSend());
      assertEquals(24, rl.quota().durationHours());
      assertEquals(java.util.List.of(rl),
          stride.query(ctx -> stride.rateLimits().getRateLimitsByChainId(ctx, "osmosis-1")));
    }
  }

  @Test
  void deterministic_twoRunsPrintTheSameWalkThroughAndAppHash() {
    String a = run(0, "--home", dir.resolve("x").toString()).replace(dir.resolve("x").toString(), "H");
    String b = run(0, "--home=" + dir.resolve("y")).replace(dir.resolve("y").toString(), "H");
    assertEquals(a, b);
    assertTrue(a.contains("app hash "), a);
  }

  @Test
  void refusesAHomeThatAlreadyHoldsTheChains_andBadArguments() {
    run(0, "--home", dir.toString());
    String again = run(1, "--home", dir.toString());
    assertTrue(again.contains("already exists"), again);
    assertTrue(run(2, "--bogus").contains("usage: demo"));
    assertTrue(run(0, "--help").contains("usage: demo"));
  }

  @Test
  void withoutHome_usesAFreshTemporaryDirectory() throws Exception {
    String out = run(0);
    String line = out.lines().filter(l -> l.startsWith("  stride-1:")).findFirst().orElseThrow();
    java.nio.file.Path home = java.nio.file.Path.of(line.substring("  stride-1:".length()).trim());
    try {
      assertTrue(Files.isDirectory(home.resolve("data")), line);
    } finally {
      deleteTree(home.getParent());
    }
  }

  private static void assertRow(String out, String start, String... cells) {
    String row = out.lines().filter(l -> l.startsWith(start)).findFirst()
        .orElseThrow(() -> new AssertionError("no row " + start + " in\n" + out));
    String rest = row.substring(start.length()).trim();
    assertEquals(String.join(" ", cells), rest.replaceAll("\\s+(?![(])", " "), row);
  }

  private static String run(int expectedCode, String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code = Demo.run(args, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertEquals(expectedCode, code, out);
    return out;
  }

  private static void deleteTree(java.nio.file.Path root) throws java.io.IOException {
    try (var walk = Files.walk(root)) {
      for (java.nio.file.Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
