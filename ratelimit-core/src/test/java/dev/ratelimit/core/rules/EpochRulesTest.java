package dev.ratelimit.core.rules;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.HourEpoch;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC §4 hour-epoch arithmetic and §7 window reset times. */
class EpochRulesTest {

  private static Instant t(String iso) {
    return Instant.parse(iso);
  }

  // ---------------------------------------------------------------- initial

  @ParameterizedTest(name = "genesis at {0} -> epoch {1} starting {2}")
  @CsvSource({
    "2024-01-01T00:10:00Z, 0, 2024-01-01T00:00:00Z",
    "2024-01-01T00:00:00Z, 0, 2024-01-01T00:00:00Z",
    "2024-01-01T23:10:00Z, 23, 2024-01-01T23:00:00Z",
    "2024-01-01T23:59:59.999999999Z, 23, 2024-01-01T23:00:00Z",
    "2024-03-15T06:30:00Z, 6, 2024-03-15T06:00:00Z",
    "2024-03-15T12:00:00.000000001Z, 12, 2024-03-15T12:00:00Z",
  })
  void initial_isTheUtcHourTruncated(String genesisTime, long epoch, String start) {
    assertEquals(new HourEpoch(epoch, t(start), 7), EpochRules.initial(t(genesisTime), 7));
  }

  // ---------------------------------------------------------------- hoursToAdvance

  @ParameterizedTest(name = "start 06:00 + {0} -> advance {1}")
  @CsvSource({
    "-PT1H, 0", // a block before the epoch start (clock skew) never goes backwards
    "PT0S, 0",
    "PT30M, 0",
    "PT1H, 0", // exactly on the hour: still the old epoch (strictly before)
    "PT1H0.000000001S, 1", // +1ns
    "PT1H30M, 1",
    "PT2H, 1",
    "PT2H0.000000001S, 2",
    "PT5H30M, 5", // a 5.5-hour halt
    "PT24H, 23",
    "PT24H0.000000001S, 24",
    "PT240H1S, 240",
  })
  void hoursToAdvance_countsWholeHoursStrictlyBeforeBlockTime(String elapsed, long expected) {
    HourEpoch epoch = new HourEpoch(6, t("2024-01-01T06:00:00Z"), 10);
    Instant blockTime = epoch.epochStartTime().plus(Duration.parse(elapsed));
    assertEquals(expected, EpochRules.hoursToAdvance(epoch, blockTime));
  }

  @Test
  void advance_movesStartByWholeHours_notToBlockTime() {
    HourEpoch epoch = new HourEpoch(6, t("2024-01-01T06:00:00Z"), 10);
    assertEquals(
        new HourEpoch(11, t("2024-01-01T11:00:00Z"), 42), EpochRules.advance(epoch, 5, 42));
    assertEquals(
        new HourEpoch(30, t("2024-01-02T06:00:00Z"), 43), EpochRules.advance(epoch, 24, 43));
  }

  @Test
  void advance_toTheLargestUint64_isAllowed_pastIt_isCode13NotAWrap() {
    long max = -1L; // 2^64 - 1, unsigned
    HourEpoch nearMax = new HourEpoch(max - 2, t("2024-01-01T06:00:00Z"), 10);
    assertEquals(
        new HourEpoch(max, t("2024-01-01T08:00:00Z"), 11), EpochRules.advance(nearMax, 2, 11));

    RateLimitException e =
        assertThrows(RateLimitException.class, () -> EpochRules.advance(nearMax, 3, 11));
    assertEquals(ErrorCode.HOUR_EPOCH_INVALID, e.code());
    assertEquals(
        "hour epoch missing or invalid: hour epoch 18446744073709551613 + 3 hours passes the"
            + " largest epoch number, 2^64 - 1",
        e.getMessage());
    RateLimitException fromMax =
        assertThrows(
            RateLimitException.class,
            () -> EpochRules.advance(new HourEpoch(max, t("2024-01-01T06:00:00Z"), 10), 1, 11));
    assertEquals(ErrorCode.HOUR_EPOCH_INVALID, fromMax.code());
    // no hour to add is no overflow, even at the largest number
    assertEquals(
        new HourEpoch(max, t("2024-01-01T06:00:00Z"), 11),
        EpochRules.advance(new HourEpoch(max, t("2024-01-01T06:00:00Z"), 10), 0, 11));
  }

  // ---------------------------------------------------------------- windowEnds

  @ParameterizedTest(name = "d={2}: {0} -> {1} ends={3}")
  @CsvSource({
    // 1-hour windows end at every advance
    "5, 6, 1, true",
    "5, 5, 1, false",
    "0, 1, 1, true",
    "5, 10, 1, true", // a multi-hour jump: one reset
    // 24-hour windows end when crossing a multiple of 24 (00:00 UTC)
    "23, 24, 24, true",
    "22, 23, 24, false",
    "0, 23, 24, false",
    "5, 23, 24, false",
    "20, 30, 24, true",
    "24, 47, 24, false",
    "23, 71, 24, true", // two multiples crossed in one jump: still one reset (boolean)
    "47, 48, 24, true",
    // other lengths
    "3, 4, 5, false",
    "4, 5, 5, true",
    "1, 3, 2, true",
    "2, 3, 2, false",
  })
  void windowEnds_iffFloorDivisionGrows(long before, long after, long d, boolean ends) {
    assertEquals(ends, EpochRules.windowEnds(before, after, d));
  }

  @Test
  void windowEnds_isUnsignedForHugeDurations() {
    // 2^64 - 1 hours never ends from a small epoch; the number is unsigned, not -1
    assertEquals(false, EpochRules.windowEnds(5, 6, -1L));
  }

  // ---------------------------------------------------------------- windowResetsAt

  @ParameterizedTest(name = "epoch {0} starting {1}, d={2} -> {3}")
  @CsvSource({
    "6, 2024-01-01T06:00:00Z, 1, 2024-01-01T07:00:00Z",
    "6, 2024-01-01T06:00:00Z, 24, 2024-01-02T00:00:00Z",
    "23, 2024-01-01T23:00:00Z, 24, 2024-01-02T00:00:00Z",
    "0, 2024-01-01T00:00:00Z, 24, 2024-01-02T00:00:00Z",
    "24, 2024-01-02T00:00:00Z, 24, 2024-01-03T00:00:00Z",
    "6, 2024-01-01T06:00:00Z, 4, 2024-01-01T08:00:00Z",
    "7, 2024-01-01T07:00:00Z, 4, 2024-01-01T08:00:00Z",
    "8, 2024-01-01T08:00:00Z, 4, 2024-01-01T12:00:00Z",
  })
  void windowResetsAt_isEndOfCurrentWindow(long n, String start, long d, String expected) {
    assertEquals(t(expected), EpochRules.windowResetsAt(new HourEpoch(n, t(start), 1), d));
  }

  @Test
  void windowResetsAt_beyondTheTimeline_isInstantMax() {
    HourEpoch epoch = new HourEpoch(6, t("2024-01-01T06:00:00Z"), 1);
    assertEquals(Instant.MAX, EpochRules.windowResetsAt(epoch, Long.MAX_VALUE));
    // uint64 window lengths of 2^63 hours and more (negative as a long)
    assertEquals(Instant.MAX, EpochRules.windowResetsAt(epoch, Long.MIN_VALUE));
    assertEquals(Instant.MAX, EpochRules.windowResetsAt(epoch, -1L));
    // epoch 2^64 - 2 of a 2^64 - 1 hour window: its end is the next hour
    assertEquals(t("2024-01-01T07:00:00Z"),
        EpochRules.windowResetsAt(new HourEpoch(-2L, t("2024-01-01T06:00:00Z"), 1), -1L));
  }

  @Test
  void windowEnds_readsWindowLengthsUnsigned() {
    assertFalse(EpochRules.windowEnds(0, 1_000_000, -1L)); // 2^64 - 1 hours: never within a chain's life
    assertTrue(EpochRules.windowEnds(-2L, -1L, -1L)); // epoch 2^64 - 2 -> 2^64 - 1: that window ends
    assertFalse(EpochRules.windowEnds(5, Long.MAX_VALUE, Long.MIN_VALUE));
    assertTrue(EpochRules.windowEnds(5, Long.MIN_VALUE, Long.MIN_VALUE));
  }
}
