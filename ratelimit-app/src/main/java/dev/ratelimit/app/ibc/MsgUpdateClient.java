package dev.ratelimit.app.ibc;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.ibc.Height;
import java.time.Instant;
import java.util.Objects;

/**
 * A relayer reports the counterparty's latest committed height and block time (trusted).
 *
 * @param signer the relayer's account on this chain (ibc-go's {@code signer}): must be an address
 */
public record MsgUpdateClient(String clientId, Height height, Instant time, String signer)
    implements Msg {
  public MsgUpdateClient {
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(height, "height");
    Objects.requireNonNull(time, "time");
    Objects.requireNonNull(signer, "signer");
  }
}
