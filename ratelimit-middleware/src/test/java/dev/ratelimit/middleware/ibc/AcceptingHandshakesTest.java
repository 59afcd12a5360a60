package dev.ratelimit.middleware.ibc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.EventSink;
import dev.ratelimit.core.store.MemoryKvStore;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class AcceptingHandshakesTest {
  private final BlockContext ctx =
      BlockContext.of(1, Instant.parse("2024-01-01T00:00:00Z"), new MemoryKvStore(), EventSink.discarding());
  private final IbcModule module =
      new AcceptingHandshakes("ics20-1") {
        @Override
        public Optional<Acknowledgement> onRecvPacket(BlockContext c, Packet p, String r) {
          return Optional.of(Acknowledgement.SUCCESS);
        }

        @Override
        public void onAcknowledgementPacket(BlockContext c, Packet p, byte[] a, String r) {}

        @Override
        public void onTimeoutPacket(BlockContext c, Packet p, String r) {}
      };
  private final Counterparty counterparty = new Counterparty("transfer", "channel-1");

  @Test
  void init_agreesOnTheProposedVersion_orItsOwnWhenNoneIsProposed() {
    assertEquals("ics20-1", module.onChanOpenInit(
        ctx, Order.UNORDERED, List.of("connection-0"), "transfer", "channel-0", counterparty, ""));
    assertEquals("ics20-2", module.onChanOpenInit(
        ctx, Order.UNORDERED, List.of("connection-0"), "transfer", "channel-0", counterparty, "ics20-2"));
  }

  @Test
  void try_answersItsOwnVersion() {
    assertEquals("ics20-1", module.onChanOpenTry(
        ctx, Order.UNORDERED, List.of("connection-0"), "transfer", "channel-0", counterparty, "x"));
  }
}
