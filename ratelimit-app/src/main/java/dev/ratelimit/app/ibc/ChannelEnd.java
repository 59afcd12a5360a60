package dev.ratelimit.app.ibc;

import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.middleware.ibc.Order;
import java.util.Objects;

/**
 * One end of a channel, with its connection collapsed into the client it runs over (this example
 * has one connection per client).
 *
 * @param clientId the light client of the counterparty chain
 * @param version the application version, {@code ics20-1} for transfer
 */
public record ChannelEnd(
    String portId,
    String channelId,
    State state,
    Order order,
    String counterpartyPortId,
    String counterpartyChannelId,
    String clientId,
    String version) {

  /** Channel states this example uses. */
  public enum State {
    OPEN,
    CLOSED
  }

  public ChannelEnd {
    Objects.requireNonNull(portId, "portId");
    Identifiers.requireChannelOrClientId(channelId, "channelId");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(order, "order");
    Objects.requireNonNull(counterpartyPortId, "counterpartyPortId");
    Identifiers.requireChannelOrClientId(counterpartyChannelId, "counterpartyChannelId");
    if (!Identifiers.isClientId(clientId)) {
      throw new IllegalArgumentException("clientId must be a client id, got " + clientId);
    }
    Objects.requireNonNull(version, "version");
  }

  /** An open, unordered ICS-20 channel on port {@code transfer}. */
  public static ChannelEnd transfer(String channelId, String counterpartyChannelId, String clientId) {
    return new ChannelEnd(
        "transfer", channelId, State.OPEN, Order.UNORDERED, "transfer", counterpartyChannelId,
        clientId, "ics20-1");
  }
}
