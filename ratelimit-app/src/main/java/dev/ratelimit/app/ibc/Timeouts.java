package dev.ratelimit.app.ibc;

import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import java.time.Instant;

/** ibc-go's timeout rules (IBC v1 and v2), shared by IBC core and the relayer. */
public final class Timeouts {
  private Timeouts() {}

  /**
   * Whether a chain at {@code height} and block time {@code time} is past a packet's timeout: its
   * height reached a non-zero timeout height (revision, then height, both unsigned), or its time
   * (ns) reached a non-zero timeout timestamp.
   */
  public static boolean passed(Height timeoutHeight, long timeoutTimestamp, Height height, Instant time) {
    boolean byHeight = !timeoutHeight.isZero() && compare(height, timeoutHeight) >= 0;
    boolean byTime =
        timeoutTimestamp != 0
            && Long.compareUnsigned(Commitments.nanos(time), timeoutTimestamp) >= 0;
    return byHeight || byTime;
  }

  /** {@link #passed(Height, long, Height, Instant)} for a packet's timeouts. */
  public static boolean passed(Packet packet, Height height, Instant time) {
    return passed(packet.timeoutHeight(), packet.timeoutTimestamp(), height, time);
  }

  /**
   * IBC v2's rule: whether a chain at block time {@code time} is past a packet's timeout, given in
   * unsigned seconds since the Unix epoch (its time's whole seconds reached the timeout).
   */
  public static boolean passedSeconds(long timeoutTimestampSeconds, Instant time) {
    return Long.compareUnsigned(time.getEpochSecond(), timeoutTimestampSeconds) >= 0;
  }

  /** Orders heights by revision number, then revision height, both unsigned. */
  public static int compare(Height a, Height b) {
    int c = Long.compareUnsigned(a.revisionNumber(), b.revisionNumber());
    return c != 0 ? c : Long.compareUnsigned(a.revisionHeight(), b.revisionHeight());
  }
}
