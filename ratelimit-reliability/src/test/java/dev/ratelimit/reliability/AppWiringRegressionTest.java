package dev.ratelimit.reliability;

import static dev.ratelimit.reliability.TwoChains.ALICE;
import static dev.ratelimit.reliability.TwoChains.BOB;
import static dev.ratelimit.reliability.TwoChains.OSMO_CH;
import static dev.ratelimit.reliability.TwoChains.STRIDE_CH;
import static dev.ratelimit.reliability.TwoChains.STRIDE_UOSMO;
import static dev.ratelimit.reliability.TwoChains.UOSMO;
import static dev.ratelimit.reliability.TwoChains.flow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.chain.BlockResult;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.inject.DaggerForwardingChainComponent;
import dev.ratelimit.app.inject.ForwardingChainComponent;
import dev.ratelimit.app.relayer.Coordinator;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.transfer.ForwardingApp;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Go-module regressions that need the wired chain (the example app, Dagger component, LevelDB
 * homes, relayer): nothing here calls the keeper's BeginBlock or the middleware directly; the
 * chain's own block execution does.
 */
class AppWiringRegressionTest {
  /** 00:30 UTC: hour epoch 0; 1h windows end at 01:00. */
  private static final Instant GENESIS = Instant.parse("2024-01-01T00:30:00Z");
  private static final Path OSMO_UOSMO = new Path(UOSMO, OSMO_CH);

  @TempDir java.nio.file.Path root;

  /** A 1%/1% 1h limit on alice's uosmo on Osmosis's channel, from genesis (1,000,000 supply). */
  private TwoChains startWithOsmosisLimit() {
    Genesis limits = new Genesis(
        List.of(new RateLimit(OSMO_UOSMO, new Quota(1, 1, 1), flow(0, 0, 1_000_000))),
        List.of(), List.of(), List.of(), List.of(), Optional.empty());
    return TwoChains.start(root, GENESIS, o -> o.rateLimits(limits), s -> {});
  }

  /**
   * ibc-apps#258: limits shipped that never reset because BeginBlock was not wired. Here the chain
   * runs it: the window rejects until the first block after 01:00, then resets to the supply.
   */
  @Test
  void beginBlockRunsInTheAppWiring_andResetsTheWindowAtTheHour() {
    try (TwoChains n = startWithOsmosisLimit()) {
      assertTrue(n.aliceSends(10_000).isOk()); // exactly 1%
      TxResult over = n.aliceSends(1);
      assertEquals(List.of("ratelimit", 4), List.of(over.codespace(), over.code()));
      n.relay();
      assertEquals(flow(0, 10_000, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));

      n.net.advanceTime(Duration.between(n.net.time(), Instant.parse("2024-01-01T00:59:50Z")));
      assertEquals(4, n.aliceSends(1).code(), "00:59:55, still the 00:00-01:00 window");
      assertEquals(new HourEpoch(0, Instant.parse("2024-01-01T00:00:00Z"), 1), epoch(n.osmosis));

      Coordinator.Tick tick = n.net.tick(); // 01:00:00 is not strictly after the epoch end
      assertEquals(Instant.parse("2024-01-01T01:00:00Z"), tick.first().time());
      assertEquals(flow(0, 10_000, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));

      BlockResult reset = n.net.tick().first(); // 01:00:05: the first block after the hour
      assertEquals(new HourEpoch(1, Instant.parse("2024-01-01T01:00:00Z"), reset.height()),
          epoch(n.osmosis));
      assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
      assertTrue(n.aliceSends(10_000).isOk());
    }
  }

  /**
   * A (Go): one epoch per block, so after an H-hour halt every 1h limit got a fresh window in
   * each of the first H blocks. The chain halts 5 hours: its first block resets once; the next
   * blocks of that hour do not.
   */
  @Test
  void afterAFiveHourHalt_theChainResetsEachLimitOnce() {
    try (TwoChains n = startWithOsmosisLimit()) {
      assertTrue(n.aliceSends(9_000).isOk());
      n.relay();
      BlockResult restart = n.net.advanceTime(Duration.ofHours(5)).first(); // ~05:30
      HourEpoch e = epoch(n.osmosis);
      assertEquals(5, e.epochNumber());
      assertEquals(restart.height(), e.epochStartHeight());
      assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
      assertTrue(n.aliceSends(6_000).isOk());
      n.relay();
      for (int i = 0; i < 10; i++) {
        n.net.tick();
        assertEquals(flow(0, 6_000, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH), "tick " + i);
      }
      assertEquals(4, n.aliceSends(4_001).code(), "6,000 + 4,001 > 1% in the same window");
      assertEquals(e, epoch(n.osmosis));
    }
  }

  /**
   * xrplevm/node#116 class: a transfer whose ICS4 wrapper is not the limiter sends unchecked.
   * Here every MsgTransfer goes through it: three transfers in one block sum up against the
   * quota, the one that does not fit fails with code 4 and leaves no trace (balance, escrow,
   * sequence, commitment), and its denial event survives the rollback.
   */
  @Test
  void appLevelSendPath_cannotBypassTheCheck() {
    try (TwoChains n = startWithOsmosisLimit()) {
      for (int i = 0; i < 3; i++) {
        n.net.submit(n.osmosis, n.transfer(ALICE, OSMO_CH, UOSMO, 4_000, BOB, "t" + i));
      }
      BlockResult block = n.net.tick().first();
      List<TxResult> txs = block.txs();
      assertTrue(txs.get(0).isOk() && txs.get(1).isOk(), txs.toString());
      assertEquals(List.of("ratelimit", 4), List.of(txs.get(2).codespace(), txs.get(2).code()));
      assertTrue(txs.get(2).event(RateLimitEvents.TRANSFER_DENIED).isPresent());
      assertFalse(txs.get(2).event(IbcEvents.SEND_PACKET).isPresent());
      assertEquals(2, block.events().stream()
          .filter(ev -> ev.type().equals(IbcEvents.SEND_PACKET)).count());
      assertEquals(BigInteger.valueOf(992_000), n.osmosis.balance(ALICE, UOSMO));
      assertEquals(BigInteger.valueOf(8_000), n.escrowed(n.osmosis, OSMO_CH, UOSMO));
      long nextSequence =
          n.osmosis.query(ctx -> n.osmosis.ibc().nextSequenceSend(ctx, "transfer", OSMO_CH));
      assertEquals(3L, nextSequence);
      assertTrue(n.osmosis.query(ctx -> n.osmosis.ibc()
          .packetCommitment(ctx, "transfer", OSMO_CH, 3)).isEmpty());
      assertEquals(flow(0, 8_000, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
      assertEquals(2, n.pendingSend(n.osmosis).size());
      n.relay();
      assertEquals(List.of(), n.pendingSend(n.osmosis));
      assertEquals(BigInteger.valueOf(8_000), n.stride.balance(BOB, STRIDE_UOSMO));
    }
  }

  /**
   * SPEC §5: an app below the middleware that acknowledges later (packet forwarding) must write
   * through the middleware. Wired that way, the error ack gives Stride's inflow back and drops the
   * marker, and alice is refunded; wired straight to IBC core (the bug), the marker is stranded
   * and the inflow stays counted although the tokens went back.
   */
  @Test
  void asyncAckOfAnAppBelowTheMiddleware_goesThroughIt() {
    assertEquals(List.of(), forwardFailing(true));
    assertEquals(1, forwardFailing(false).size(), "the bypass wiring strands the marker");
  }

  /** Returns Stride's pending recv markers once everything settled. */
  private List<PendingPacket> forwardFailing(boolean throughMiddleware) {
    ForwardingApp[] forward = new ForwardingApp[1];
    OsmosisStride.ChainOpener opener = (home, chainId, authority) -> {
      if (!chainId.equals(OsmosisStride.STRIDE)) {
        return ChainComponent.open(home, chainId, authority);
      }
      ForwardingChainComponent node = DaggerForwardingChainComponent.factory()
          .create(home, chainId, authority, throughMiddleware);
      forward[0] = node.forwardingApp();
      return node.app();
    };
    Genesis strideLimit = new Genesis(
        List.of(new RateLimit(new Path(STRIDE_UOSMO, STRIDE_CH), new Quota(50, 50, 24),
            flow(0, 0, 1_000))),
        List.of(), List.of(), List.of(), List.of(), Optional.empty());
    java.nio.file.Path dir = root.resolve(throughMiddleware ? "through" : "bypass");
    try (TwoChains n = TwoChains.start(dir, GENESIS, o -> {}, s -> s.rateLimits(strideLimit),
        opener)) {
      ChainApp stride = n.stride;
      TxResult sent = n.net.deliver(n.osmosis,
          n.transfer(ALICE, OSMO_CH, UOSMO, 300, BOB, "forward:fail"));
      assertTrue(sent.isOk(), sent.log()); // Stride received it in the same tick:
      // counted, held, no acknowledgement yet
      assertEquals(flow(300, 0, 1_000), n.flow(stride, STRIDE_UOSMO, STRIDE_CH));
      assertEquals(1, n.pendingRecv(stride).size());
      assertEquals(BigInteger.valueOf(300), stride.balance(forward[0].holdAddress(), STRIDE_UOSMO));
      n.net.tick(); // the forward fails at the next EndBlock, written through its ICS4 wrapper
      n.relay(); // the error ack goes back; alice is refunded
      assertEquals(BigInteger.valueOf(1_000_000), n.osmosis.balance(ALICE, UOSMO));
      assertEquals(BigInteger.ZERO, stride.totalSupply(STRIDE_UOSMO));
      assertEquals(throughMiddleware ? flow(0, 0, 1_000) : flow(300, 0, 1_000),
          n.flow(stride, STRIDE_UOSMO, STRIDE_CH));
      return n.pendingRecv(stride);
    }
  }

  private static HourEpoch epoch(ChainApp chain) {
    return chain.query(ctx -> chain.rateLimits().getHourEpoch(ctx)).orElseThrow();
  }
}
