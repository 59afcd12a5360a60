package dev.ratelimit.middleware.ibc;

import java.util.Objects;

/**
 * The other end of a channel ({@code ibc.core.channel.v1.Counterparty}). The channel id is empty
 * while it is not known yet (channel open init).
 */
public record Counterparty(String portId, String channelId) {

  /**
   * @throws NullPointerException if either id is {@code null}
   */
  public Counterparty {
    Objects.requireNonNull(portId, "portId");
    Objects.requireNonNull(channelId, "channelId");
  }
}
