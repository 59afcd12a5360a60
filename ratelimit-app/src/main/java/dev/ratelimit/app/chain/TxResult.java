package dev.ratelimit.app.chain;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.core.host.Event;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The outcome of one transaction.
 *
 * @param codespace {@code ""} on success, else where {@code code} is registered ({@code sdk},
 *     {@code ratelimit}, {@code ibc}, {@code transfer}, {@code gov})
 * @param code 0 on success
 * @param log the failure's message, {@code ""} on success
 * @param events the events the transaction emitted: all of them on success; on failure only the
 *     durable ones (e.g. {@code transfer_denied})
 * @param value what the message returns: a transfer's packet sequence, a proposal's id
 */
public record TxResult(
    Msg msg, String codespace, int code, String log, List<Event> events, OptionalLong value) {
  public TxResult {
    Objects.requireNonNull(msg, "msg");
    Objects.requireNonNull(codespace, "codespace");
    Objects.requireNonNull(log, "log");
    events = List.copyOf(events);
    Objects.requireNonNull(value, "value");
  }

  public boolean isOk() {
    return code == 0;
  }

  /** The first event of a type. */
  public Optional<Event> event(String type) {
    return events.stream().filter(e -> e.type().equals(type)).findFirst();
  }
}
