package dev.ratelimit.app.relayer;

import static dev.ratelimit.app.testing.Network.ALICE;
import static dev.ratelimit.app.testing.Network.BOB;
import static dev.ratelimit.app.testing.Network.GENESIS;
import static dev.ratelimit.app.testing.Network.UOSMO;
import static dev.ratelimit.app.testing.Network.USTRD;
import static dev.ratelimit.app.testing.Network.big;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.chain.AppGenesis;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.testing.Network;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The coordinator's clock, ticks and lifecycle, and how {@link OsmosisStride} starts it. */
class CoordinatorTest {
  @TempDir Path root;

  @Test
  void vouchers_areTheIbcDenomsOfTheirTrace() {
    assertEquals("ibc/D24B4564BCD51D3D02D9987D92571EAC5915676A9BD6D9B0C1D0254CB8A5EA34",
        OsmosisStride.voucher("channel-5", "uosmo"));
    assertEquals("ibc/A8CA5EE328FA10C9519DF6057DA1F69682D28F7D0F5CCC7ECB72E3DCA2D157A4",
        OsmosisStride.voucher("channel-326", "ustrd"));
  }

  @Test
  void startsAtTheLaterGenesisTime_whicheverChainHasIt() {
    Instant later = GENESIS.plus(Duration.ofHours(1));
    try (Coordinator c = OsmosisStride.start(root.resolve("a"),
        OsmosisStride.osmosisGenesis(GENESIS).build(),
        OsmosisStride.strideGenesis(later).build())) {
      assertEquals(later, c.time());
      assertEquals(later.plusSeconds(5), c.tick().second().time());
    }
    try (Coordinator c = OsmosisStride.start(root.resolve("b"),
        OsmosisStride.osmosisGenesis(later).build(),
        OsmosisStride.strideGenesis(GENESIS).build())) {
      assertEquals(later, c.time());
      assertEquals(later.plusSeconds(5), c.tick().first().time());
    }
  }

  @Test
  void advanceTime_returnsTheTickOfOneBlockOnEachChain() {
    try (Network n = Network.start(root)) {
      Coordinator.Tick t = n.net.advanceTime(Duration.ofHours(2));

      assertEquals(GENESIS.plus(Duration.ofHours(2)), n.net.time());
      assertEquals(1, t.first().height());
      assertEquals(GENESIS.plus(Duration.ofHours(2)), t.first().time());
      assertArrayEquals(n.osmosis.lastAppHash(), t.first().appHash());
      assertEquals(1, t.second().height());
      assertEquals(GENESIS.plus(Duration.ofHours(2)), t.second().time());
      assertArrayEquals(n.stride.lastAppHash(), t.second().appHash());
      assertSame(t.first(), t.of(n.osmosis));
      assertSame(t.second(), t.of(n.stride));
      assertEquals(List.of(t.first().block()), n.net.log(n.osmosis));
      assertEquals(List.of(t.second().block()), n.net.log(n.stride));
    }
  }

  @Test
  void relayUntilIdle_countsItsTicks_andStopsAtItsLimit() {
    try (Network n = Network.start(root)) {
      assertEquals(0, n.net.relayUntilIdle(0), "idle already");
      assertTrue(n.sendUosmoToStride(10).isOk()); // received in the same tick
      IllegalStateException busy =
          assertThrows(IllegalStateException.class, () -> n.net.relayUntilIdle(0));
      assertEquals("relayer still busy after 0 ticks", busy.getMessage());
      assertEquals(1, n.osmosis.lastHeight(), "no tick at the limit");

      assertEquals(1, n.net.relayUntilIdle(1)); // the acknowledgement
      assertEquals(2, n.osmosis.lastHeight());
    }
  }

  @Test
  void close_closesBothChains() {
    Coordinator c = OsmosisStride.start(root, GENESIS, o -> { }, s -> { });
    c.close();
    assertClosed(c.first());
    assertClosed(c.second());
  }

  @Test
  void start_appliesEachChainsCustomisationToItsGenesis() {
    try (Coordinator c = OsmosisStride.start(root, GENESIS,
        o -> o.balance(ALICE, UOSMO, 7), s -> s.balance(BOB, USTRD, 9))) {
      assertEquals(OsmosisStride.OSMOSIS, c.first().chainId());
      assertEquals(OsmosisStride.STRIDE, c.second().chainId());
      assertEquals(big(7), c.first().balance(ALICE, UOSMO));
      assertEquals(big(0), c.first().balance(BOB, USTRD));
      assertEquals(big(9), c.second().balance(BOB, USTRD));
      assertEquals(big(0), c.second().balance(ALICE, UOSMO));
      assertTrue(c.first().query(ctx -> c.first().ibc()
          .channel(ctx, "transfer", OsmosisStride.OSMOSIS_CHANNEL)).isPresent());
      assertTrue(c.second().query(ctx -> c.second().ibc()
          .channel(ctx, "transfer", OsmosisStride.STRIDE_CHANNEL)).isPresent());
      assertEquals(GENESIS, c.time());
    }
  }

  @Test
  void start_closesOsmosis_whenStrideCannotBeOpened() {
    List<ChainApp> opened = new ArrayList<>();
    OsmosisStride.ChainOpener opener = (home, chainId, authority) -> {
      if (chainId.equals(OsmosisStride.STRIDE)) {
        throw new IllegalStateException("stride's home is locked");
      }
      ChainApp chain = ChainComponent.open(home, chainId, authority);
      opened.add(chain);
      return chain;
    };
    AppGenesis osmosis = OsmosisStride.osmosisGenesis(GENESIS).build();
    AppGenesis stride = OsmosisStride.strideGenesis(GENESIS).build();

    IllegalStateException e = assertThrows(IllegalStateException.class, () ->
        OsmosisStride.start(root, osmosis, stride, Coordinator.DEFAULT_BLOCK_STEP, opener));

    assertEquals("stride's home is locked", e.getMessage());
    assertEquals(1, opened.size());
    IllegalStateException closed =
        assertThrows(IllegalStateException.class, () -> opened.get(0).initChain(osmosis));
    assertEquals("chain osmosis-1 is closed", closed.getMessage());
  }

  @Test
  void start_closesBothChains_whenAHomeAlreadyHoldsAChain() {
    List<ChainApp> opened = new ArrayList<>();
    OsmosisStride.ChainOpener opener = (home, chainId, authority) -> {
      ChainApp chain = ChainComponent.open(home, chainId, authority);
      opened.add(chain);
      return chain;
    };
    AppGenesis osmosis = OsmosisStride.osmosisGenesis(GENESIS).build();
    AppGenesis stride = OsmosisStride.strideGenesis(GENESIS).build();
    OsmosisStride.start(root, osmosis, stride, Coordinator.DEFAULT_BLOCK_STEP, opener).close();
    opened.clear();

    IllegalStateException e = assertThrows(IllegalStateException.class, () ->
        OsmosisStride.start(root, osmosis, stride, Coordinator.DEFAULT_BLOCK_STEP, opener));

    assertEquals("home already holds chain osmosis-1", e.getMessage());
    assertEquals(2, opened.size());
    assertClosed(opened.get(0));
    assertClosed(opened.get(1));
  }

  private static void assertClosed(ChainApp chain) {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> chain.query(ctx -> chain.lastHeight()));
    assertEquals("chain " + chain.chainId() + " is closed", e.getMessage());
  }
}
