/**
 * The original README's walk-through, run for real: {@link dev.ratelimit.app.demo.Demo} starts an
 * Osmosis-like and a Stride-like chain with a relayer, adds the 10% / 24 h rate limit on Stride by
 * governance, makes the README's transfers, prints its table and leaves the Stride home for the
 * {@code ratelimit} CLI.
 */
package dev.ratelimit.app.demo;
