package dev.ratelimit.core.keeper;

import dev.ratelimit.core.model.Path;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Optional;

/**
 * How much more may move on a path in the current window, and when the window resets: the
 * retry-after a wallet needs after a rejection.
 *
 * @param windowResetsAt end of the current window; the reset applies at the first block strictly
 *     after it
 * @param secondsUntilReset from the current block time (never negative)
 */
public record RemainingCapacity(
    Path path,
    Direction send,
    Direction recv,
    Instant windowResetsAt,
    long secondsUntilReset) {

  /**
   * One direction's numbers.
   *
   * @param netFlow outflow − inflow for send, inflow − outflow for recv; may be negative
   * @param remaining {@code max(0, threshold − netFlow)}, or empty when unlimited (channel value
   *     0)
   */
  public record Direction(
      int percent, BigInteger threshold, BigInteger netFlow, Optional<BigInteger> remaining) {}
}
