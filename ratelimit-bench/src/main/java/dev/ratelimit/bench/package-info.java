/**
 * JMH benchmarks of the rate-limit module: the per-packet hot path against its store floor
 * ({@link dev.ratelimit.bench.HotPathBenchmark}) and BeginBlock with and without a rollover
 * against a full scan ({@link dev.ratelimit.bench.BeginBlockBenchmark}), each in memory and on
 * LevelDB, and the example app end to end ({@link dev.ratelimit.bench.app}). Run from the shaded
 * jar: {@code java -jar ratelimit-bench/target/ratelimit-bench-*-all.jar}.
 * Timings are never asserted in tests; see {@code docs/PERFORMANCE.md}.
 */
package dev.ratelimit.bench;
