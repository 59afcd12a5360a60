package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.Texts;
import java.util.Objects;

/**
 * One hop of a denom trace: the port and the channel (or, in IBC v2, client) id a token entered a
 * chain through, as ibc-go's {@code Hop}.
 *
 * @param portId any text without {@code /} (the trace parser takes whatever precedes a hop id)
 * @param channelOrClientId a valid hop id ({@link Identifiers#isChannelOrClientId})
 */
public record Hop(String portId, String channelOrClientId) {

  /**
   * @throws NullPointerException if an id is {@code null}
   * @throws IllegalArgumentException if {@code portId} contains {@code /} or {@code
   *     channelOrClientId} is not a channel or client id
   */
  public Hop {
    requirePortId(portId);
    Objects.requireNonNull(channelOrClientId, "channelOrClientId");
    Identifiers.requireChannelOrClientId(channelOrClientId, "hop channel or client id");
  }

  /**
   * Returns {@code portId} if it may stand in a hop.
   *
   * @throws NullPointerException if {@code portId} is {@code null}
   * @throws IllegalArgumentException if it contains {@code /}
   */
  static String requirePortId(String portId) {
    Objects.requireNonNull(portId, "portId");
    if (portId.indexOf('/') >= 0) {
      throw new IllegalArgumentException(
          "hop port id must not contain '/', got " + Texts.quote(portId));
    }
    return portId;
  }

  /** {@code portId/channelOrClientId}. */
  @Override
  public String toString() {
    return portId + "/" + channelOrClientId;
  }
}
