package dev.ratelimit.bench.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One invocation of the app benchmark each way; tear-down checks that every transfer arrived and
 * (with the middleware) was counted at both ends. Nothing is timed.
 */
class AppThroughputBenchmarkSmokeTest {

  @ParameterizedTest
  @ValueSource(strings = {"with", "without"})
  void transfersArriveAndAreCounted(String middleware) throws Exception {
    AppThroughputBenchmark b = new AppThroughputBenchmark();
    b.middleware = middleware;
    b.setUp();
    try {
      assertTrue(b.transfers() > 0); // ticks until the relayer is idle
      b.transfers();
    } finally {
      b.tearDown(); // throws if a transfer is missing or was not counted
    }
  }
}
