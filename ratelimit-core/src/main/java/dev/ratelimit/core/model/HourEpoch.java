package dev.ratelimit.core.model;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The hourly clock that drives window resets: the current hour's number, its start time (on the
 * hour) and the height of the block that started it.
 *
 * @param epochNumber unsigned count of hours (the UTC hour of the genesis time at first)
 */
public record HourEpoch(long epochNumber, Instant epochStartTime, long epochStartHeight) {
  /** Every epoch lasts one hour; genesis files with another duration are invalid. */
  public static final Duration DURATION = Duration.ofHours(1);

  public HourEpoch {
    Objects.requireNonNull(epochStartTime, "epoch_start_time");
    if (epochStartHeight < 0) {
      throw new IllegalArgumentException(
          "epoch_start_height must not be negative, got " + epochStartHeight);
    }
  }
}
