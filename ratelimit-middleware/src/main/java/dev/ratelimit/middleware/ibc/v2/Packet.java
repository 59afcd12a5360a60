package dev.ratelimit.middleware.ibc.v2;

import java.util.List;
import java.util.Objects;

/**
 * An IBC v2 packet ({@code ibc.core.channel.v2.Packet}): {@code sequence} and {@code
 * timeoutTimestamp} (seconds since the Unix epoch) are uint64, read as unsigned.
 *
 * <p>ibc-go's core takes packets of exactly one payload; {@link
 * dev.ratelimit.middleware.RateLimitMiddlewareV2} requires that of its host too.
 *
 * @param sourceClient the sending chain's client of the receiving chain
 * @param destinationClient the receiving chain's client of the sending chain
 */
public record Packet(
    long sequence,
    String sourceClient,
    String destinationClient,
    long timeoutTimestamp,
    List<Payload> payloads) {

  /** @throws NullPointerException if a client id, the list or a payload is {@code null} */
  public Packet {
    Objects.requireNonNull(sourceClient, "sourceClient");
    Objects.requireNonNull(destinationClient, "destinationClient");
    payloads = List.copyOf(payloads);
  }
}
