package dev.ratelimit.core.model;

/**
 * How much may flow per window: the share of the channel value that the net outflow (send) and
 * net inflow (recv) may reach, and the window length in hours.
 *
 * @param maxPercentSend 0..100
 * @param maxPercentRecv 0..100, not both 0
 * @param durationHours at least 1, a uint64 as on the wire: read unsigned ({@code -1} is
 *     2^64 - 1 hours; {@link Long#toUnsignedString} shows it)
 */
public record Quota(int maxPercentSend, int maxPercentRecv, long durationHours) {
  public Quota {
    requirePercent(maxPercentSend, "max_percent_send");
    requirePercent(maxPercentRecv, "max_percent_recv");
    if (maxPercentSend == 0 && maxPercentRecv == 0) {
      throw new IllegalArgumentException(
          "max_percent_send and max_percent_recv must not both be 0");
    }
    if (durationHours == 0) {
      throw new IllegalArgumentException(
          "duration_hours must be at least 1, got " + Long.toUnsignedString(durationHours));
    }
  }

  private static void requirePercent(int value, String field) {
    if (value < 0 || value > 100) {
      throw new IllegalArgumentException(field + " must be in [0, 100], got " + value);
    }
  }
}
