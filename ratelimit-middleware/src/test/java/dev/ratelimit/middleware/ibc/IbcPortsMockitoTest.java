package dev.ratelimit.middleware.ibc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.store.MemoryKvStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/**
 * The ports are plain interfaces a middleware test can stub; packets match by content, so a
 * verification with a rebuilt packet works.
 */
@ExtendWith(MockitoExtension.class)
class IbcPortsMockitoTest {
  @Mock IbcModule app;
  @Mock Ics4Wrapper channels;

  private final BlockContext ctx =
      BlockContext.of(
          10,
          Instant.parse("2024-01-01T00:00:00Z"),
          new MemoryKvStore(),
          new ArrayList<dev.ratelimit.core.host.Event>()::add);

  private static Packet packet() {
    return new Packet(
        3,
        "transfer",
        "channel-0",
        "transfer",
        "channel-5",
        new byte[] {1, 2},
        Height.ZERO,
        1_000L);
  }

  @Test
  void recvPacket_isVerifiedWithAContentEqualPacket() {
    when(app.onRecvPacket(any(), any(), any())).thenReturn(Optional.of(Acknowledgement.SUCCESS));

    Optional<Acknowledgement> ack = app.onRecvPacket(ctx, packet(), "relayer");

    assertEquals(Optional.of(Acknowledgement.success(new byte[] {1})), ack);
    verify(app).onRecvPacket(ctx, packet(), "relayer");
  }

  @Test
  void sendPacket_isStubbedWithAContentEqualHeight() {
    when(channels.sendPacket(
            eq(ctx), eq("transfer"), eq("channel-0"), eq(new Height(0, 0)), eq(5L), any()))
        .thenReturn(42L);

    assertEquals(
        42L, channels.sendPacket(ctx, "transfer", "channel-0", Height.ZERO, 5L, new byte[] {1}));
  }
}
