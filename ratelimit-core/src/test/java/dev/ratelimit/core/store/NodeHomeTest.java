package dev.ratelimit.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The home layout the example chain writes and the CLI reads: both sides must agree on it. */
class NodeHomeTest {
  private final MemoryKvStore db = new MemoryKvStore();

  @Test
  void lastBlock_roundTrips_asHeightSecondsAndNanos() {
    assertEquals(Optional.empty(), NodeHome.readLastBlock(db));
    NodeHome.LastBlock block = new NodeHome.LastBlock(42, Instant.parse("2024-01-01T06:30:00.000000007Z"));
    NodeHome.writeLastBlock(db, block);
    assertEquals(Optional.of(block), NodeHome.readLastBlock(db));
    assertEquals(
        "000000000000002a" + "0000000065925be8" + "00000007",
        HexFormat.of().formatHex(db.get(NodeHome.lastBlockKey()).orElseThrow()));
  }

  @Test
  void lastBlock_ofAnotherLength_isCorruption() {
    db.put(NodeHome.lastBlockKey(), new byte[19]);
    assertEquals("corrupt last block record: 19 bytes",
        assertThrows(StorageException.class, () -> NodeHome.readLastBlock(db)).getMessage());
  }

  @Test
  void theModulesKeys_liveUnderItsPrefix_andTheDataUnderTheHome() {
    NodeHome.rateLimitStore(db).put(new byte[] {1}, new byte[] {2});
    assertArrayEquals(new byte[] {2},
        db.get("s/ratelimit/\u0001".getBytes(StandardCharsets.US_ASCII)).orElseThrow());
    assertEquals(Path.of("/h/data"), NodeHome.dataDir(Path.of("/h")));
  }

  @Test
  void theKeys_areHandedOutAsCopies_soACallerCannotMoveThemForTheProcess() {
    byte[] prefix = NodeHome.ratelimitPrefix();
    byte[] lastBlock = NodeHome.lastBlockKey();
    assertEquals(NodeHome.PREFIX_TEXT, new String(prefix, StandardCharsets.US_ASCII));
    assertEquals("m/last_block", new String(lastBlock, StandardCharsets.US_ASCII));
    prefix[0] = 'x';
    lastBlock[0] = 'x';
    assertArrayEquals("s/ratelimit/".getBytes(StandardCharsets.US_ASCII), NodeHome.ratelimitPrefix());
    assertArrayEquals("m/last_block".getBytes(StandardCharsets.US_ASCII), NodeHome.lastBlockKey());
    NodeHome.writeLastBlock(db, new NodeHome.LastBlock(1, Instant.EPOCH));
    assertEquals(Optional.of(new NodeHome.LastBlock(1, Instant.EPOCH)), NodeHome.readLastBlock(db));
  }

  @Test
  void kvEntries_areEqualByContent() {
    KvEntry a = new KvEntry(new byte[] {1}, new byte[] {2});
    KvEntry same = new KvEntry(new byte[] {1}, new byte[] {2});
    assertEquals(a, same);
    assertEquals(a.hashCode(), same.hashCode());
    assertNotEquals(a, new KvEntry(new byte[] {1}, new byte[] {3}));
    assertNotEquals(a, new KvEntry(new byte[] {0}, new byte[] {2}));
    assertNotEquals(a, (Object) "01=02");
    assertEquals("01=02", a.toString());
  }
}
