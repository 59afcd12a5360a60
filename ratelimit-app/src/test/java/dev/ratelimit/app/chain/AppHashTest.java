package dev.ratelimit.app.chain;

import static dev.ratelimit.app.testing.Network.ALICE;
import static dev.ratelimit.app.testing.Network.BOB;
import static dev.ratelimit.app.testing.Network.OSMO_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static dev.ratelimit.app.testing.Network.UOSMO;
import static dev.ratelimit.app.testing.Network.big;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.bank.MsgSend;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.testing.Network;
import dev.ratelimit.core.store.LevelDbKvStore;
import dev.ratelimit.core.store.NodeHome;
import dev.ratelimit.core.store.StorageException;
import dev.ratelimit.core.store.StoreDigest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commit, app hash, reopening a home, and deterministic replay of a block log. */
class AppHashTest {
  @TempDir Path root;

  @Test
  void reopeningAHome_resumesAtTheLastBlock_withTheSameAppHash() {
    byte[] strideHash;
    long strideHeight;
    try (Network n = Network.start(root)) {
      runScenario(n);
      strideHash = n.stride.lastAppHash();
      strideHeight = n.stride.lastHeight();
      // the app hash is committed with its block
      assertArrayEquals(
          strideHash, n.stride.query(ctx -> ctx.store().get(AppHash.KEY).orElseThrow()));
    }
    Path home = root.resolve(OsmosisStride.STRIDE);
    try (ChainApp reopened =
        ChainComponent.open(home, OsmosisStride.STRIDE, OsmosisStride.STRIDE_AUTHORITY)) {
      assertEquals(strideHeight, reopened.lastHeight());
      assertArrayEquals(strideHash, reopened.lastAppHash());
      assertEquals(big(104), reopened.totalSupply(STRIDE_UOSMO));
      // and it keeps running
      reopened.beginBlock(strideHeight + 1, reopened.lastBlockTime().plusSeconds(5));
      assertTrue(reopened.deliverTx(new MsgSend(BOB, ALICE_ON_STRIDE, "ustrd", big(1))).isOk());
      reopened.endBlock();
      BlockResult next = reopened.commit();
      assertEquals(strideHeight + 1, next.height());
      assertFalse(java.util.Arrays.equals(strideHash, next.appHash()));
    }
    // the CLI's view: the last block record and the rate-limit keys in the NodeHome layout
    try (LevelDbKvStore db = LevelDbKvStore.open(NodeHome.dataDir(home))) {
      assertEquals(strideHeight + 1, NodeHome.readLastBlock(db).orElseThrow().height());
      try (var scan = NodeHome.rateLimitStore(db).scan(null, null)) {
        assertTrue(scan.hasNext(), "rate-limit keys live under " + NodeHome.PREFIX_TEXT);
      }
    }
  }

  private static final String ALICE_ON_STRIDE = OsmosisStride.strideAccount("alice");

  @Test
  void aHomeWithoutAStoredAppHash_resumesFromItsDatabaseDigest_andChainsOnFromIt() {
    try (Network n = Network.start(root)) {
      runScenario(n);
    }
    Path home = root.resolve(OsmosisStride.STRIDE);
    byte[] digest;
    try (LevelDbKvStore db = LevelDbKvStore.open(NodeHome.dataDir(home))) {
      db.delete(AppHash.KEY); // as a home written before the hash chain
      digest = StoreDigest.sha256(db);
    }
    try (ChainApp reopened =
        ChainComponent.open(home, OsmosisStride.STRIDE, OsmosisStride.STRIDE_AUTHORITY)) {
      assertArrayEquals(digest, reopened.lastAppHash());
      reopened.beginBlock(reopened.lastHeight() + 1, reopened.lastBlockTime().plusSeconds(5));
      reopened.endBlock();
      BlockResult next = reopened.commit();
      byte[] stored = reopened.query(ctx -> ctx.store().get(AppHash.KEY).orElseThrow());
      assertArrayEquals(stored, next.appHash());
      assertFalse(java.util.Arrays.equals(digest, next.appHash()));
    }
  }

  @Test
  void aDamagedStoredAppHash_refusesToOpen() {
    try (Network n = Network.start(root)) {
      n.net.tick();
    }
    Path home = root.resolve(OsmosisStride.STRIDE);
    try (LevelDbKvStore db = LevelDbKvStore.open(NodeHome.dataDir(home))) {
      db.put(AppHash.KEY, new byte[31]);
    }
    StorageException e = assertThrows(StorageException.class, () ->
        ChainComponent.open(home, OsmosisStride.STRIDE, OsmosisStride.STRIDE_AUTHORITY));
    assertEquals("stored app hash has 31 bytes, not 32: the home is damaged", e.getMessage());
    // the database was released
    try (LevelDbKvStore db = LevelDbKvStore.open(NodeHome.dataDir(home))) {
      assertTrue(db.has(AppHash.KEY));
    }
  }

  @Test
  void sameBlockLog_onTwoFreshInstances_givesTheSameAppHashAtEveryHeight() {
    Map<String, List<BlockResult>> original = new LinkedHashMap<>();
    AppGenesis osmosisGenesis;
    AppGenesis strideGenesis;
    try (Network n = Network.start(root.resolve("original"))) {
      osmosisGenesis = n.osmosisGenesis;
      strideGenesis = n.strideGenesis;
      n.net.onCommit((chain, block) ->
          original.computeIfAbsent(chain.chainId(), k -> new ArrayList<>()).add(block));
      runScenario(n);
    }
    for (String chainId : List.of(OsmosisStride.OSMOSIS, OsmosisStride.STRIDE)) {
      AppGenesis genesis = chainId.equals(OsmosisStride.OSMOSIS) ? osmosisGenesis : strideGenesis;
      String authority = chainId.equals(OsmosisStride.OSMOSIS)
          ? OsmosisStride.OSMOSIS_AUTHORITY : OsmosisStride.STRIDE_AUTHORITY;
      List<BlockResult> blocks = original.get(chainId);
      assertTrue(blocks.size() >= 15, "scenario too short: " + blocks.size());
      try (ChainApp a = ChainComponent.open(root.resolve("replay-a").resolve(chainId), chainId, authority);
          ChainApp b = ChainComponent.open(root.resolve("replay-b").resolve(chainId), chainId, authority)) {
        assertArrayEquals(a.initChain(genesis), b.initChain(genesis));
        for (BlockResult block : blocks) {
          BlockResult ra = a.executeBlock(block.block());
          BlockResult rb = b.executeBlock(block.block());
          String at = chainId + " height " + block.height();
          assertEquals(block.appHashHex(), ra.appHashHex(), at);
          assertEquals(block.appHashHex(), rb.appHashHex(), at);
          assertEquals(block.txs().stream().map(TxResult::code).toList(),
              ra.txs().stream().map(TxResult::code).toList(), at);
          assertEquals(block.events(), ra.events(), at);
        }
      }
    }
  }

  @Test
  void blockNotCommitted_leavesNothing_onReopen() {
    byte[] hash;
    long height;
    try (Network n = Network.start(root)) {
      n.net.tick();
      height = n.stride.lastHeight();
      hash = n.stride.lastAppHash();
      n.stride.beginBlock(height + 1, n.stride.lastBlockTime().plusSeconds(5));
      assertTrue(n.stride.deliverTx(new MsgSend(BOB, ALICE_ON_STRIDE, "ustrd", big(10))).isOk());
      // the node stops before Commit: closing discards the block
    }
    try (ChainApp reopened = ChainComponent.open(
        root.resolve(OsmosisStride.STRIDE), OsmosisStride.STRIDE, OsmosisStride.STRIDE_AUTHORITY)) {
      assertEquals(height, reopened.lastHeight());
      assertArrayEquals(hash, reopened.lastAppHash());
      assertEquals(big(0), reopened.balance(ALICE_ON_STRIDE, "ustrd"));
    }
  }

  @Test
  void failedTransaction_writesNothing_butTheBlockCommits() {
    try (Network n = Network.start(root)) {
      ChainApp s = n.stride;
      s.beginBlock(s.lastHeight() + 1, s.lastBlockTime().plusSeconds(5));
      TxResult ok = s.deliverTx(new MsgSend(BOB, ALICE_ON_STRIDE, "ustrd", big(10)));
      TxResult tooMuch = s.deliverTx(new MsgSend(BOB, ALICE_ON_STRIDE, "ustrd", big(10_000_000)));
      TxResult badAddress = s.deliverTx(new MsgSend(BOB, "stride1nope", "ustrd", big(1)));
      s.endBlock();
      s.commit();
      assertTrue(ok.isOk());
      assertEquals("sdk", tooMuch.codespace());
      assertEquals(5, tooMuch.code());
      assertEquals(7, badAddress.code());
      assertEquals(big(10), s.balance(ALICE_ON_STRIDE, "ustrd"));
      assertEquals(big(999_990), s.balance(BOB, "ustrd"));
    }
  }

  @Test
  void aHomeBelongsToOneChain() {
    try (Network n = Network.start(root)) {
      n.net.tick();
    }
    IllegalStateException e = assertThrows(IllegalStateException.class, () ->
        ChainComponent.open(root.resolve(OsmosisStride.STRIDE), OsmosisStride.OSMOSIS,
            OsmosisStride.OSMOSIS_AUTHORITY));
    assertTrue(e.getMessage().contains("stride-1"), e.getMessage());
    // the database was released: the right chain opens it
    try (ChainApp ok = ChainComponent.open(root.resolve(OsmosisStride.STRIDE),
        OsmosisStride.STRIDE, OsmosisStride.STRIDE_AUTHORITY)) {
      assertTrue(ok.isInitialized());
      assertThrows(IllegalStateException.class, () -> ok.initChain(
          OsmosisStride.strideGenesis(Network.GENESIS).build()));
    }
  }

  @Test
  void differentStates_differentHashes() {
    try (Network n = Network.start(root)) {
      assertNotEquals(
          HexFormat.of().formatHex(n.osmosis.lastAppHash()),
          HexFormat.of().formatHex(n.stride.lastAppHash()));
    }
  }

  /**
   * The walk-through plus a timeout, a return transfer and a window reset: every kind of block.
   */
  private static void runScenario(Network n) {
    assertTrue(n.sendUosmoToStride(100).isOk());
    n.relay();
    n.addRateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH, 10, 10, 24);
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CH, 10, 10, 1);
    assertTrue(n.sendUosmoToStride(8).isOk());
    n.relay();
    assertTrue(n.sendUosmoToStride(8).isOk()); // error ack: quota
    n.relay();
    assertTrue(n.sendUosmoBackToOsmosis(12).isOk());
    n.relay();
    assertTrue(n.net.deliver(n.osmosis,
        n.transferMsg(ALICE, OSMO_CH, UOSMO, 3, BOB, n.timeoutIn(Duration.ofSeconds(1)))).isOk());
    n.relay(); // timed out
    assertTrue(n.sendUosmoToStride(8).isOk());
    n.relay();
    n.net.advanceTime(Duration.ofHours(24));
    n.net.tick();
  }
}
