/**
 * JMH benchmarks of the rate-limit module: the per-packet hot path against its store floor
 * ({@link dev.ratelimit.bench.HotPathBenchmark}; with no denom in the memos, {@link
 * dev.ratelimit.bench.ManyDenomsBenchmark}; the ratios and their verdicts, {@link
 * dev.ratelimit.bench.FloorRatios}) and BeginBlock with and without a rollover
 * against a full scan ({@link dev.ratelimit.bench.BeginBlockBenchmark}), each in memory and on
 * LevelDB, and the example app end to end ({@link dev.ratelimit.bench.app}). Run from the shaded
 * jar: {@code java -jar ratelimit-bench/target/ratelimit-bench-*-all.jar}.
 * Timings are never asserted in tests; see {@code docs/PERFORMANCE.md}.
 */
package dev.ratelimit.bench;
