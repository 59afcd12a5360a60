package dev.ratelimit.core.model;

import java.util.Objects;

/**
 * A packet counted in the current window whose outcome is not known yet: a send awaiting its ack
 * or timeout, or a receive awaiting its asynchronous ack. Undoing its flow is only allowed while
 * this marker exists, i.e. in the window it was counted in.
 *
 * @param sequence the packet sequence, an unsigned 64-bit number other than 0
 */
public record PendingPacket(String channelOrClientId, String denom, long sequence) {
  public PendingPacket {
    Identifiers.requireChannelOrClientId(channelOrClientId, "channel_or_client_id");
    Objects.requireNonNull(denom, "denom");
    if (denom.isEmpty()) {
      throw new IllegalArgumentException("denom must not be empty");
    }
    Texts.requireWellFormed(denom, "denom");
    if (sequence == 0) {
      throw new IllegalArgumentException("sequence must be at least 1");
    }
  }

  public Path path() {
    return new Path(denom, channelOrClientId);
  }

  /** The genesis form {@code {channel}/{sequence}/{denom}}. */
  public String genesisId() {
    return channelOrClientId + "/" + Long.toUnsignedString(sequence) + "/" + denom;
  }
}
