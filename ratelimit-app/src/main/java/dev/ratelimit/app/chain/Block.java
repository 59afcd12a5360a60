package dev.ratelimit.app.chain;

import dev.ratelimit.app.tx.Msg;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** A block as a log records it: height, header time and its transactions' messages in order. */
public record Block(long height, Instant time, List<Msg> msgs) {
  public Block {
    Objects.requireNonNull(time, "time");
    msgs = List.copyOf(msgs);
  }
}
