package dev.ratelimit.core.rules;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.HourEpoch;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/** Hour-epoch arithmetic (SPEC §4). Pure functions; time is always the block header's. */
public final class EpochRules {
  private static final Duration HOUR = HourEpoch.DURATION;

  private EpochRules() {}

  /**
   * The epoch InitGenesis stores when the genesis carries none: the UTC hour of the genesis time
   * as the number, that time truncated to the hour, and the genesis height. A chain started at
   * 00:xx UTC has epoch 0, so 24-hour windows end at 00:00 UTC.
   */
  public static HourEpoch initial(Instant genesisTime, long genesisHeight) {
    Instant start = genesisTime.truncatedTo(ChronoUnit.HOURS);
    long hour = start.atOffset(ZoneOffset.UTC).getHour();
    return new HourEpoch(hour, start, genesisHeight);
  }

  /**
   * How many hours the epoch advances at a block: the largest {@code k >= 0} with {@code
   * epochStart + k·1h < blockTime} (strictly before: a block exactly on the hour stays in the old
   * epoch).
   */
  public static long hoursToAdvance(HourEpoch epoch, Instant blockTime) {
    if (!blockTime.isAfter(epoch.epochStartTime())) {
      return 0;
    }
    Duration elapsed = Duration.between(epoch.epochStartTime(), blockTime).minusNanos(1);
    return elapsed.dividedBy(HOUR);
  }

  /**
   * The epoch after advancing {@code hours} at a block of {@code height}.
   *
   * @throws RateLimitException {@link ErrorCode#HOUR_EPOCH_INVALID} when the epoch number (a
   *     uint64) would pass 2^64 − 1: a wrapped number would make every window miss its reset
   */
  public static HourEpoch advance(HourEpoch epoch, long hours, long height) {
    long number = epoch.epochNumber() + hours;
    if (Long.compareUnsigned(number, epoch.epochNumber()) < 0) {
      throw new RateLimitException(
          ErrorCode.HOUR_EPOCH_INVALID,
          "hour epoch "
              + Long.toUnsignedString(epoch.epochNumber())
              + " + "
              + hours
              + " hours passes the largest epoch number, 2^64 - 1");
    }
    return new HourEpoch(number, epoch.epochStartTime().plus(HOUR.multipliedBy(hours)), height);
  }

  /**
   * Whether a window of {@code durationHours} ends when the epoch moves from {@code before} to
   * {@code after}: iff {@code floor(after / d) > floor(before / d)}. However many hours were
   * skipped, a window resets at most once per block.
   */
  public static boolean windowEnds(long before, long after, long durationHours) {
    return Long.compareUnsigned(
            Long.divideUnsigned(after, durationHours), Long.divideUnsigned(before, durationHours))
        > 0;
  }

  /**
   * When the current window of a {@code durationHours} limit ends: {@code epochStart + (d − N mod
   * d)·1h}. The reset applies at the first block strictly after it.
   */
  public static Instant windowResetsAt(HourEpoch epoch, long durationHours) {
    long remainingHours = durationHours - Long.remainderUnsigned(epoch.epochNumber(), durationHours);
    if (remainingHours < 0) { // 2^63 hours or more (unsigned): beyond any Instant
      return Instant.MAX;
    }
    try {
      return epoch.epochStartTime().plus(HOUR.multipliedBy(remainingHours));
    } catch (ArithmeticException | java.time.DateTimeException beyondTimeline) {
      return Instant.MAX; // a window of ~10^14 hours never ends in practice
    }
  }
}
