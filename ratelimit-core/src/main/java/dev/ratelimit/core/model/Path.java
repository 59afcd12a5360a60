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
  /** Longer denoms are cut where a path is shown; an {@code ibc/} denom has 68 characters. */
  private static final int MAX_SHOWN_DENOM = 128;

  public Path {
    Objects.requireNonNull(denom, "denom");
    if (denom.isEmpty()) {
      throw new IllegalArgumentException("denom must not be empty");
    }
    Texts.requireWellFormed(denom, "denom");
    Identifiers.requireChannelOrClientId(channelOrClientId, "channel_or_client_id");
  }

  /**
   * {@code channel/denom}, as errors and logs show a path. A denom with a control character or
   * longer than 128 characters is quoted, escaped and cut: governance and genesis files choose
   * denoms, and a message must not carry a forged log line or a megabyte.
   */
  @Override
  public String toString() {
    boolean plain = denom.length() <= MAX_SHOWN_DENOM && denom.chars().noneMatch(Texts::isControl);
    return channelOrClientId + "/" + (plain ? denom : Texts.quote(denom, MAX_SHOWN_DENOM));
  }
}
