package dev.ratelimit.app.ibc;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.ibc.Height;
import java.time.Instant;
import java.util.Objects;

/** A relayer reports the counterparty's latest committed height and block time (trusted). */
public record MsgUpdateClient(String clientId, Height height, Instant time) implements Msg {
  public MsgUpdateClient {
    Objects.requireNonNull(clientId, "clientId");
    Objects.requireNonNull(height, "height");
    Objects.requireNonNull(time, "time");
  }
}
