package dev.ratelimit.app.transfer;

import static dev.ratelimit.app.testing.Network.ALICE;
import static dev.ratelimit.app.testing.Network.BOB;
import static dev.ratelimit.app.testing.Network.OSMO_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static dev.ratelimit.app.testing.Network.UOSMO;
import static dev.ratelimit.app.testing.Network.big;
import static dev.ratelimit.app.testing.Network.flow;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.inject.DaggerForwardingChainComponent;
import dev.ratelimit.app.inject.ForwardingChainComponent;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.testing.Network;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Height;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An app below the middleware (packet-forward-like) acknowledges later, through the middleware's
 * writeAcknowledgement: a success keeps the inflow and drops the pending marker; an error gives
 * the inflow back, and the sender is refunded on the other chain.
 */
class AsyncAcknowledgementTest {
  @TempDir Path root;
  private Network n;
  private ForwardingApp forwarding;

  @BeforeEach
  void start() {
    n = Network.start(root, o -> {}, s -> {}, (home, chainId, authority) -> {
      if (!chainId.equals(OsmosisStride.STRIDE)) {
        return ChainComponent.open(home, chainId, authority);
      }
      ForwardingChainComponent c =
          DaggerForwardingChainComponent.factory().create(home, chainId, authority, true);
      forwarding = c.forwardingApp();
      return c.app();
    });
    assertTrue(n.sendUosmoToStride(100).isOk());
    n.relay();
    n.addRateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH, 10, 10, 24);
  }

  @AfterEach
  void stop() {
    n.close();
  }

  @Test
  void asyncErrorAck_throughTheMiddleware_undoesTheInflow_andTheSenderIsRefunded() {
    BigInteger aliceBefore = n.osmosis.balance(ALICE, UOSMO);
    long seq = forward("forward:fail", 5);

    // received, counted, no acknowledgement yet: the marker waits for it
    assertEquals(flow(5, 0, 100), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH));
    assertTrue(pendingRecv(seq));
    assertTrue(ack(seq).isEmpty());
    assertEquals(big(5), n.stride.balance(forwarding.holdAddress(), STRIDE_UOSMO));

    n.net.tick(); // the forward fails: error ack written through the middleware at EndBlock

    assertEquals(flow(0, 0, 100), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH), "inflow given back");
    assertFalse(pendingRecv(seq));
    assertArrayEquals(
        Commitments.acknowledgement(Acknowledgement.error("forward failed").toJsonBytes()),
        ack(seq).orElseThrow());
    assertEquals(big(100), n.stride.totalSupply(STRIDE_UOSMO), "the received vouchers are gone");

    n.relay();
    assertEquals(aliceBefore, n.osmosis.balance(ALICE, UOSMO), "refunded on Osmosis");
    assertEquals(big(100), n.escrowed(n.osmosis, OSMO_CH, UOSMO));
  }

  @Test
  void asyncSuccessAck_keepsTheInflow_andDropsTheMarker() {
    long seq = forward("forward:ok", 5);
    assertTrue(pendingRecv(seq));

    n.net.tick();

    assertEquals(flow(5, 0, 100), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH));
    assertFalse(pendingRecv(seq));
    assertArrayEquals(
        Commitments.acknowledgement(Acknowledgement.SUCCESS.toJsonBytes()), ack(seq).orElseThrow());
    assertEquals(big(105), n.stride.balance(BOB, STRIDE_UOSMO));
    n.relay();
    assertEquals(big(105), n.escrowed(n.osmosis, OSMO_CH, UOSMO));
  }

  @Test
  void overQuota_isRefusedBeforeTheForwardingAppRuns() {
    long seq = forward("forward:ok", 11);
    assertFalse(pendingRecv(seq));
    assertEquals(big(0), n.stride.balance(forwarding.holdAddress(), STRIDE_UOSMO));
    assertArrayEquals(
        Commitments.acknowledgement(Acknowledgement.rateLimitError(4).toJsonBytes()),
        ack(seq).orElseThrow());
  }

  private long forward(String memo, long amount) {
    TxResult r =
        n.net.deliver(n.osmosis,
            new MsgTransfer(ALICE, OSMO_CH, UOSMO, big(amount), BOB, Height.ZERO,
                n.timeoutIn(Duration.ofMinutes(10)), memo));
    assertTrue(r.isOk(), r.log());
    return r.value().orElseThrow();
  }

  private boolean pendingRecv(long seq) {
    return n.stride.query(ctx -> n.stride.rateLimits().isPendingRecvPacket(
        ctx, new PendingPacket(STRIDE_CH, STRIDE_UOSMO, seq)));
  }

  private java.util.Optional<byte[]> ack(long seq) {
    return n.stride.query(ctx -> n.stride.ibc().packetAcknowledgement(ctx, "transfer", STRIDE_CH, seq));
  }
}
