package dev.ratelimit.app.ibc.v2;

import dev.ratelimit.core.model.Identifiers;

/**
 * The counterparty registered for one of our light clients (ibc-go's {@code
 * MsgRegisterCounterparty} and {@code CounterpartyInfo}): IBC v2 packets sent on {@code clientId}
 * go to {@code counterpartyClientId} on the other chain, and only packets from it are received.
 * The counterparty's merkle prefix is left out: proofs are trusted in this example.
 *
 * @param clientId our client of the counterparty chain
 * @param counterpartyClientId the counterparty chain's client of this chain
 */
public record ClientCounterparty(String clientId, String counterpartyClientId) {

  /** @throws IllegalArgumentException if an id is not a client id */
  public ClientCounterparty {
    requireClientId(clientId, "clientId");
    requireClientId(counterpartyClientId, "counterpartyClientId");
  }

  private static void requireClientId(String id, String field) {
    if (!Identifiers.isClientId(id)) {
      throw new IllegalArgumentException(field + " must be a client id, got " + id);
    }
  }
}
