package dev.ratelimit.core.model;

import java.math.BigInteger;
import java.util.Objects;

/**
 * What the rate limiter needs of a packet: the local channel and denom it counts against, the
 * amount, and the addresses the whitelist is matched on.
 */
public record RateLimitedPacket(
    String channelOrClientId, String denom, BigInteger amount, String sender, String receiver) {
  public RateLimitedPacket {
    Identifiers.requireChannelOrClientId(channelOrClientId, "channel_or_client_id");
    Objects.requireNonNull(denom, "denom");
    if (denom.isEmpty()) {
      throw new IllegalArgumentException("denom must not be empty");
    }
    Texts.requireWellFormed(denom, "denom");
    Amounts.require(amount, "amount");
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(receiver, "receiver");
  }

  public Path path() {
    return new Path(denom, channelOrClientId);
  }
}
