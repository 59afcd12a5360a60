package dev.ratelimit.middleware.ibc.v2;

import java.util.Arrays;
import java.util.Objects;

/**
 * An application's answer to a received payload ({@code channeltypesv2.RecvPacketResult}).
 *
 * @param acknowledgement the application's acknowledgement, empty for {@link PacketStatus#ASYNC}
 */
public record RecvPacketResult(PacketStatus status, byte[] acknowledgement) {

  /** @throws NullPointerException if a field is {@code null} */
  public RecvPacketResult {
    Objects.requireNonNull(status, "status");
    acknowledgement = Objects.requireNonNull(acknowledgement, "acknowledgement").clone();
  }

  /** Received, acknowledged now with {@code acknowledgement}. */
  public static RecvPacketResult success(byte[] acknowledgement) {
    return new RecvPacketResult(PacketStatus.SUCCESS, acknowledgement);
  }

  /** Refused, with the application's error acknowledgement. */
  public static RecvPacketResult failure(byte[] acknowledgement) {
    return new RecvPacketResult(PacketStatus.FAILURE, acknowledgement);
  }

  /** Received; the acknowledgement comes later. */
  public static RecvPacketResult async() {
    return new RecvPacketResult(PacketStatus.ASYNC, new byte[0]);
  }

  /** A copy of the acknowledgement. */
  @Override
  public byte[] acknowledgement() {
    return acknowledgement.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RecvPacketResult r
        && status == r.status
        && Arrays.equals(acknowledgement, r.acknowledgement);
  }

  @Override
  public int hashCode() {
    return 31 * status.hashCode() + Arrays.hashCode(acknowledgement);
  }

  @Override
  public String toString() {
    return "RecvPacketResult[status=" + status + ", acknowledgement=("
        + acknowledgement.length + " bytes)]";
  }
}
