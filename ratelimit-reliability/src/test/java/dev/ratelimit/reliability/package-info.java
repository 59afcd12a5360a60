/**
 * Reliability tests of the rate limiter and the example chain (no main code): regressions of the
 * Go modules' known bugs ({@link dev.ratelimit.reliability.GoModuleBugRegressionTest}, {@link
 * dev.ratelimit.reliability.AppWiringRegressionTest}), seeded hostile input through the public
 * paths ({@link dev.ratelimit.reliability.HostileInputTest}), SIGKILL crash safety on LevelDB
 * ({@link dev.ratelimit.reliability.CrashSafetyTest}), replica determinism ({@link
 * dev.ratelimit.reliability.DeterminismTest}) and supply conservation at scale ({@link
 * dev.ratelimit.reliability.ConservationAtScaleTest}). {@link dev.ratelimit.reliability.ReplayNode}
 * is the main class the child JVMs run, on the test classpath.
 */
package dev.ratelimit.reliability;
