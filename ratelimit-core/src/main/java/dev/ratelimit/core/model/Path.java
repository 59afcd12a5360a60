package dev.ratelimit.core.model;

import java.util.Objects;

/**
 * Where a rate limit applies: a denom as it exists on <i>this</i> chain (a base denom such as
 * {@code ustrd} or {@code ibc/<HASH>}) on one channel or client.
 *
 * @param denom not empty (a blank denom is accepted, as the Go module accepts it)
 * @param channelOrClientId a valid channel id ({@code channel-N}) or client id
 */
public record Path(String denom, String channelOrClientId) {
  public Path {
    Objects.requireNonNull(denom, "denom");
    if (denom.isEmpty()) {
      throw new IllegalArgumentException("denom must not be empty");
    }
    Texts.requireWellFormed(denom, "denom");
    Identifiers.requireChannelOrClientId(channelOrClientId, "channel_or_client_id");
  }

  @Override
  public String toString() {
    return channelOrClientId + "/" + denom;
  }
}
