package dev.ratelimit.app.ibc;

import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.middleware.ibc.Height;
import java.time.Instant;
import java.util.Objects;

/**
 * A trusted light client of a counterparty chain: its chain id and the latest height and block
 * time the relayer reported. Timeouts are proven against it. (A real client verifies headers and
 * proofs; here both chains run in one process and the relayer is trusted.)
 */
public record ClientState(String clientId, String chainId, Height latestHeight, Instant latestTime) {
  public ClientState {
    if (!Identifiers.isClientId(clientId)) {
      throw new IllegalArgumentException("clientId must be a client id, got " + clientId);
    }
    Objects.requireNonNull(chainId, "chainId");
    Objects.requireNonNull(latestHeight, "latestHeight");
    Objects.requireNonNull(latestTime, "latestTime");
  }
}
