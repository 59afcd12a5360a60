package dev.ratelimit.core.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store contract on {@link LevelDbKvStore}, plus persistence and failure behaviour. */
class LevelDbKvStoreTest extends KvStoreContractTest {

  @TempDir Path tempDir;

  @Override
  protected KvStore newStore() {
    return LevelDbKvStore.open(tempDir.resolve("db"));
  }

  private LevelDbKvStore leveldb() {
    return (LevelDbKvStore) store;
  }

  @Test
  void memoryMapping_onlyBeforeJdk24_unlessThePropertySaysSo() {
    assertTrue(LevelDbKvStore.mapsFiles(null, 17));
    assertTrue(LevelDbKvStore.mapsFiles(null, 23));
    assertFalse(LevelDbKvStore.mapsFiles(null, 24));
    assertFalse(LevelDbKvStore.mapsFiles(null, 25));
    assertTrue(LevelDbKvStore.mapsFiles("true", 25));
    assertFalse(LevelDbKvStore.mapsFiles("false", 17));
    assertFalse(LevelDbKvStore.mapsFiles("yes", 17)); // iq80's Boolean.parseBoolean
    // this JVM: what iq80 chose follows the rule (a missing static block fails here on JDK 24+)
    assertEquals(
        LevelDbKvStore.mapsFiles(
            System.getProperty(LevelDbKvStore.MMAP_PROPERTY), Runtime.version().feature()),
        LevelDbKvStore.memoryMapped());
  }

  @Test
  void reopenAfterClose_keepsData() {
    putAll("01", "80", "ff");
    store.write(new WriteBatch().put(hex("02"), hex("22")).delete(hex("80")));
    leveldb().writeSync(new WriteBatch().put(hex("03"), hex("33")));
    store.delete(hex("ff"));
    String digest = StoreDigest.hex(store);
    leveldb().close();

    try (LevelDbKvStore reopened = LevelDbKvStore.open(tempDir.resolve("db"))) {
      assertEquals(List.of("01=", "02=22", "03=33"), dump(reopened));
      assertEquals(digest, StoreDigest.hex(reopened));
    }
  }

  @Test
  void open_createsMissingParentDirectories() {
    Path nested = tempDir.resolve("a/b/c");
    try (LevelDbKvStore other = LevelDbKvStore.open(nested)) {
      other.put(hex("01"), hex("11"));
      assertEquals(nested, other.directory());
    }
    assertTrue(Files.isDirectory(nested));
  }

  @Test
  void open_whileAlreadyOpen_throwsStorageExceptionNamingTheDirectory() {
    Path dir = tempDir.resolve("db");
    StorageException e = assertThrows(StorageException.class, () -> LevelDbKvStore.open(dir));
    assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
    // the first handle is unaffected
    putAll("01");
    assertEquals(List.of("01="), dump(store));
  }

  @Test
  void open_whenCurrentNamesAMissingManifest_saysTheFilesAreDamaged() throws IOException {
    Path dir = tempDir.resolve("damaged");
    LevelDbKvStore.open(dir).close();
    Files.writeString(dir.resolve("CURRENT"), "MANIFEST-000009\n");
    StorageException e = assertThrows(StorageException.class, () -> LevelDbKvStore.open(dir));
    assertTrue(e.getMessage().contains("MANIFEST-000009"), e.getMessage());
    assertTrue(
        e.getMessage().contains("the database files are damaged or incomplete"), e.getMessage());
  }

  @Test
  void open_whenTheManifestIsGarbage_saysTheFilesAreDamaged() throws IOException {
    Path dir = tempDir.resolve("garbled");
    LevelDbKvStore.open(dir).close();
    String manifest = Files.readString(dir.resolve("CURRENT")).trim();
    Files.writeString(dir.resolve(manifest), "garbage\n");
    StorageException e = assertThrows(StorageException.class, () -> LevelDbKvStore.open(dir));
    assertTrue(
        e.getMessage().contains("the database files are damaged or incomplete"), e.getMessage());
  }

  @Test
  void damageHint_onlyForAFileThatIsNotThere_orCorruption() throws IOException {
    Path there = Files.writeString(tempDir.resolve("MANIFEST-000001"), "x");
    assertEquals("", LevelDbKvStore.damageHint(
        new java.io.FileNotFoundException(there + " (Permission denied)")));
    assertTrue(LevelDbKvStore.damageHint(new java.io.FileNotFoundException(
        tempDir.resolve("MANIFEST-000009") + " (No such file or directory)")).contains("damaged"));
    assertTrue(LevelDbKvStore.damageHint(new RuntimeException("corruption of 8 bytes: x"))
        .contains("damaged"));
    assertEquals("", LevelDbKvStore.damageHint(new RuntimeException("other")));
  }

  @Test
  void open_lockedByAnotherHandle_isNotCalledDamaged() {
    StorageException e =
        assertThrows(StorageException.class, () -> LevelDbKvStore.open(tempDir.resolve("db")));
    assertFalse(e.getMessage().contains("damaged"), e.getMessage());
  }

  @Test
  void open_onARegularFile_throwsStorageExceptionNamingThePath() throws IOException {
    Path file = Files.writeString(tempDir.resolve("not-a-dir"), "x");
    StorageException e = assertThrows(StorageException.class, () -> LevelDbKvStore.open(file));
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  @Test
  void useAfterClose_throwsIllegalState_andCloseIsIdempotent() {
    leveldb().close();
    assertDoesNotThrow(leveldb()::close);
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> store.get(hex("01")));
    assertTrue(e.getMessage().contains(tempDir.resolve("db").toString()), e.getMessage());
    assertThrows(IllegalStateException.class, () -> store.has(hex("01")));
    assertThrows(IllegalStateException.class, () -> store.put(hex("01"), hex("01")));
    assertThrows(IllegalStateException.class, () -> store.delete(hex("01")));
    assertThrows(IllegalStateException.class, () -> store.scan(null, null));
    assertThrows(IllegalStateException.class, () -> store.write(new WriteBatch()));
  }

  @Test
  void close_closesScansStillOpen() {
    putAll("01", "02");
    KvScan scan = store.scan(null, null);
    scan.next();
    leveldb().close();
    assertThrows(IllegalStateException.class, scan::hasNext);
    assertDoesNotThrow(scan::close);
  }

  @Test
  void writeSync_appliesTheBatch() {
    putAll("01");
    leveldb().writeSync(new WriteBatch().delete(hex("01")).put(hex("02"), new byte[0]));
    assertEquals(List.of("02="), dump(store));
  }

  @Test
  void manyKeys_flushedToTableFiles_keepUnsignedOrder() throws IOException {
    // 6 MB exceeds iq80's 4 MB write buffer, so the memtable is flushed to sorted table files and
    // the order is checked on disk as well as in memory. The flush runs in iq80's background
    // thread, which close() may stop before it writes; reopening replays the log into a table file
    // either way, so the file check comes after the reopen (before it, a loaded machine failed it).
    byte[] value = new byte[1024];
    MemoryKvStore memory = new MemoryKvStore();
    for (int i = 0; i < 6000; i++) {
      byte[] key = {(byte) (i >>> 8), (byte) i, (byte) 0x80};
      store.put(key, value);
      memory.put(key, value);
    }
    leveldb().close();
    try (LevelDbKvStore reopened = LevelDbKvStore.open(tempDir.resolve("db"))) {
      try (Stream<Path> files = Files.list(tempDir.resolve("db"))) {
        assertTrue(files.anyMatch(f -> f.toString().endsWith(".sst")), "no table file written");
      }
      assertEquals(StoreDigest.hex(memory), StoreDigest.hex(reopened));
      assertEquals(List.of("007f80", "008080"), dumpKeys(reopened.scan(hex("007f"), hex("0081"))));
    }
  }

  @Test
  void scanOpenAcrossWritesThatFlushAndCompact_returnsTheStoreAsOfItsStart() {
    // 5 MB, then 12 MB of overwrites and deletes while the scan is open: the memtable is flushed
    // and compactions run (they delete table files), yet the scan finishes with the old content
    byte[] old = new byte[1024];
    java.util.Arrays.fill(old, (byte) 1);
    for (int i = 0; i < 5000; i++) {
      store.put(new byte[] {(byte) (i >>> 8), (byte) i}, old);
    }
    List<String> before = dump(store);
    try (KvScan scan = store.scan(null, null)) {
      List<String> seen = new java.util.ArrayList<>();
      for (int i = 0; i < 10; i++) {
        seen.add(scan.next().toString());
      }
      byte[] fresh = new byte[1024];
      for (int round = 0; round < 3; round++) {
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < 4000; i++) {
          byte[] key = {(byte) (i >>> 8), (byte) i};
          if (i % 7 == round) {
            batch.delete(key);
          } else {
            batch.put(key, fresh);
          }
        }
        store.write(batch);
      }
      while (scan.hasNext()) {
        seen.add(scan.next().toString());
      }
      assertEquals(before, seen);
    }
    assertNotEquals(before, dump(store));
  }

  @Test
  void randomBlocksOfWritesReadsAndScans_matchTheMemoryStore() {
    // blocks as a chain writes them (one batch each), with gets and full scans in between, over
    // enough data (about 20 MB written) that flushes and compactions run between the reads
    java.util.Random random = new java.util.Random(20261121);
    MemoryKvStore model = new MemoryKvStore();
    List<byte[]> keys = new java.util.ArrayList<>();
    for (int block = 0; block < 400; block++) {
      WriteBatch batch = new WriteBatch();
      for (int i = 0; i < 60; i++) {
        byte[] key;
        if (keys.isEmpty() || random.nextInt(3) == 0) {
          key = new byte[8 + random.nextInt(40)];
          random.nextBytes(key);
          keys.add(key);
        } else {
          key = keys.get(random.nextInt(keys.size()));
        }
        if (random.nextInt(5) == 0) {
          batch.delete(key);
          model.delete(key);
        } else {
          byte[] value = new byte[random.nextInt(1500)];
          random.nextBytes(value);
          batch.put(key, value);
          model.put(key, value);
        }
      }
      store.write(batch);
      for (int i = 0; i < 20; i++) {
        byte[] key = keys.get(random.nextInt(keys.size()));
        assertEquals(model.get(key).map(Bytes::hex), store.get(key).map(Bytes::hex), "block " + block);
      }
      if (block % 50 == 49) {
        assertEquals(StoreDigest.hex(model), StoreDigest.hex(store), "block " + block);
      }
    }
  }

  @Test
  void aTableFileGoneUnderneath_isAStorageException_neverAPlainRuntimeException() throws IOException {
    // what a read racing a compaction saw in iq80 0.12 ("Could not open table", an unchecked
    // exception that is not a DBException): a chain must halt on it, not fail one transaction
    byte[] value = new byte[1024];
    for (int i = 0; i < 6000; i++) {
      store.put(new byte[] {(byte) (i >>> 8), (byte) i}, value);
    }
    leveldb().close();
    LevelDbKvStore.open(tempDir.resolve("db")).close(); // recovery moves the log into tables
    try (Stream<Path> files = Files.list(tempDir.resolve("db"))) {
      List<Path> tables = files.filter(f -> f.toString().endsWith(".sst")).toList();
      assertTrue(!tables.isEmpty(), "no table file written");
      for (Path f : tables) {
        Files.delete(f);
      }
    }
    try (LevelDbKvStore reopened = LevelDbKvStore.open(tempDir.resolve("db"))) {
      StorageException get = assertThrows(StorageException.class, () -> reopened.get(new byte[] {0, 1}));
      assertTrue(get.getMessage().contains(tempDir.resolve("db").toString()), get.getMessage());
      assertThrows(StorageException.class, () -> StoreDigest.hex(reopened));
    }
  }

  @Test
  void digest_equalsMemoryStoreWithSameContent_andDiffersAfterOneChange() {
    MemoryKvStore memory = new MemoryKvStore();
    for (KvStore kv : List.of(store, memory)) {
      kv.put(hex("00"), hex("00"));
      kv.put(hex("7f"), hex("01"));
      kv.put(hex("80"), new byte[0]);
      kv.put(hex("ffff"), hex("deadbeef"));
      kv.put(utf8("rate/uatom"), utf8("10"));
    }
    assertEquals(StoreDigest.hex(memory), StoreDigest.hex(store));

    store.put(hex("80"), hex("00"));
    assertNotEquals(StoreDigest.hex(memory), StoreDigest.hex(store));
    memory.put(hex("80"), hex("00"));
    assertEquals(StoreDigest.hex(memory), StoreDigest.hex(store));
  }
}
