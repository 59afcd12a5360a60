package dev.ratelimit.app.chain;

import static dev.ratelimit.app.testing.Network.STRIDE_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static dev.ratelimit.app.testing.Network.big;
import static dev.ratelimit.app.testing.Network.flow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.testing.Network;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Windows reset because the chain's BeginBlock (wired by Dagger) runs the rate limiter's
 * BeginBlock: nothing here calls the keeper's beginBlock. (ibc-apps#258 shipped limits that never
 * reset because BeginBlock was not wired.)
 */
class WindowResetThroughWiringTest {
  @TempDir java.nio.file.Path root;

  @Test
  void limitResetsAfter24SimulatedHours_throughTheChainsBeginBlock() {
    try (Network n = Network.start(root)) {
      assertTrue(n.sendUosmoToStride(100).isOk());
      n.relay();
      n.addRateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH, 10, 10, 24);

      assertTrue(n.sendUosmoToStride(8).isOk());
      n.relay();
      long rejected = n.sendUosmoToStride(8).value().orElseThrow();
      n.relay();
      assertEquals(AcknowledgementCodec.AckClass.ERROR, ackClass(n, rejected));
      assertEquals(flow(8, 0, 100), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH));

      // 23 hours later the 24 h window (00:00 to 00:00 UTC) is still open
      n.net.advanceTime(Duration.ofHours(23));
      assertTrue(n.stride.lastBlockTime().isAfter(Instant.parse("2024-01-01T23:00:00Z")));
      assertTrue(n.stride.lastBlockTime().isBefore(Instant.parse("2024-01-02T00:00:00Z")));
      assertEquals(23, epoch(n).epochNumber());
      assertEquals(flow(8, 0, 100), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH));
      long stillRejected = n.sendUosmoToStride(8).value().orElseThrow();
      n.relay();
      assertEquals(AcknowledgementCodec.AckClass.ERROR, ackClass(n, stillRejected));

      // the first block after midnight resets it, with the supply of that block (108)
      n.net.advanceTime(Duration.ofHours(1));
      HourEpoch e = epoch(n);
      assertEquals(24, e.epochNumber());
      assertEquals(Instant.parse("2024-01-02T00:00:00Z"), e.epochStartTime());
      assertEquals(n.stride.lastHeight(), e.epochStartHeight());
      assertEquals(big(108), n.stride.totalSupply(STRIDE_UOSMO));
      assertEquals(flow(0, 0, 108), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH));
      assertTrue(n.stride.query(ctx ->
          n.stride.rateLimits().getPendingSendPackets(ctx, new Path(STRIDE_UOSMO, STRIDE_CH)))
          .isEmpty());

      // and the transfer that was rejected before now goes through
      long accepted = n.sendUosmoToStride(8).value().orElseThrow();
      n.relay();
      assertEquals(AcknowledgementCodec.AckClass.SUCCESS, ackClass(n, accepted));
      assertEquals(flow(8, 0, 108), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH));
    }
  }

  private static HourEpoch epoch(Network n) {
    return n.stride.query(ctx -> n.stride.rateLimits().getHourEpoch(ctx)).orElseThrow();
  }

  private static AcknowledgementCodec.AckClass ackClass(Network n, long seq) {
    byte[] commitment =
        n.stride.query(ctx -> n.stride.ibc().packetAcknowledgement(ctx, "transfer", STRIDE_CH, seq))
            .orElseThrow();
    byte[] success =
        Commitments.acknowledgement(
            dev.ratelimit.middleware.ibc.Acknowledgement.SUCCESS.toJsonBytes());
    return java.util.Arrays.equals(commitment, success)
        ? AcknowledgementCodec.AckClass.SUCCESS
        : AcknowledgementCodec.AckClass.ERROR;
  }
}
