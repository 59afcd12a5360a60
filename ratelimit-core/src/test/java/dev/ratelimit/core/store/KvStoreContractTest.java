package dev.ratelimit.core.store;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The behaviour every {@link KvStore} engine must share, run once per engine by a subclass. Scans
 * are asserted as exact lists of {@code hexkey=hexvalue} so that order and content both count.
 *
 * <p>Shipped in {@code ratelimit-core}'s test jar for hosts with an engine of their own: extend
 * it from any package and implement {@link #newStore()} (README, "Your own store engine").
 */
public abstract class KvStoreContractTest {

  /** A new, empty store of the engine under test; closed after each test if closeable. */
  protected abstract KvStore newStore();

  protected KvStore store;

  @BeforeEach
  void openStore() {
    store = newStore();
  }

  @AfterEach
  void closeStore() throws Exception {
    if (store instanceof AutoCloseable closeable) {
      closeable.close();
    }
  }

  // ---------------------------------------------------------------- point operations

  @Test
  void putGetHasDelete_roundTripAndOverwrite() {
    assertEquals(Optional.empty(), store.get(utf8("a")).map(Bytes::hex));
    assertFalse(store.has(utf8("a")));

    store.put(utf8("a"), utf8("1"));
    assertEquals(Optional.of("31"), store.get(utf8("a")).map(Bytes::hex));
    assertTrue(store.has(utf8("a")));

    store.put(utf8("a"), utf8("22"));
    assertEquals(Optional.of("3232"), store.get(utf8("a")).map(Bytes::hex));

    store.delete(utf8("a"));
    assertEquals(Optional.empty(), store.get(utf8("a")).map(Bytes::hex));
    assertFalse(store.has(utf8("a")));
    assertEquals(List.of(), dump(store));
  }

  @Test
  void deleteOfAbsentKey_isNoOp() {
    store.put(utf8("a"), utf8("1"));
    store.delete(utf8("b"));
    assertEquals(List.of("61=31"), dump(store));
  }

  @Test
  void emptyValue_isStoredAndDistinctFromAbsence() {
    store.put(utf8("empty"), new byte[0]);
    assertTrue(store.has(utf8("empty")));
    assertEquals(Optional.of(""), store.get(utf8("empty")).map(Bytes::hex));
    assertEquals(List.of("656d707479="), dump(store));
  }

  @Test
  void arrays_areCopiedInAndOut() {
    byte[] key = utf8("k");
    byte[] value = utf8("v");
    store.put(key, value);
    key[0] = 'x';
    value[0] = 'x';
    byte[] read = store.get(utf8("k")).orElseThrow();
    read[0] = 'y';
    assertEquals(Optional.of("76"), store.get(utf8("k")).map(Bytes::hex));
    assertFalse(store.has(utf8("x")));
  }

  @Test
  void nullKeyOrValue_throwsNullPointerException() {
    assertThrows(NullPointerException.class, () -> store.get(null));
    assertThrows(NullPointerException.class, () -> store.has(null));
    assertThrows(NullPointerException.class, () -> store.put(null, utf8("v")));
    assertThrows(NullPointerException.class, () -> store.put(utf8("k"), null));
    assertThrows(NullPointerException.class, () -> store.delete(null));
    assertThrows(NullPointerException.class, () -> store.write(null));
    assertEquals(List.of(), dump(store));
  }

  // ---------------------------------------------------------------- scans

  @Test
  void fullScan_ordersKeysAsUnsignedBytes() {
    // inserted out of order; signed order would put 0x80.. and 0xff before 0x00
    for (String hex : List.of("ff", "80", "7f", "00", "ffff", "8000", "61", "0000", "01")) {
      store.put(Bytes.fromHex(hex), Bytes.fromHex("aa"));
    }
    assertEquals(
        List.of(
            "00=aa", "0000=aa", "01=aa", "61=aa", "7f=aa", "80=aa", "8000=aa", "ff=aa", "ffff=aa"),
        dump(store));
  }

  @Test
  void rangeScan_fromInclusiveToExclusive() {
    putAll("10", "20", "30", "40", "80", "ff");
    assertEquals(keys("20", "30"), dumpKeys(store.scan(hex("20"), hex("40"))));
    // bounds that are not keys
    assertEquals(keys("20", "30", "40"), dumpKeys(store.scan(hex("15"), hex("41"))));
    // upper bound above 0x7f is still an upper bound, not a wrap-around
    assertEquals(keys("40", "80"), dumpKeys(store.scan(hex("40"), hex("81"))));
  }

  @Test
  void rangeScan_nullBoundsAreUnbounded() {
    putAll("10", "20", "80", "ff");
    assertEquals(keys("10", "20"), dumpKeys(store.scan(null, hex("80"))));
    assertEquals(keys("80", "ff"), dumpKeys(store.scan(hex("80"), null)));
    assertEquals(keys("10", "20", "80", "ff"), dumpKeys(store.scan(null, null)));
  }

  @Test
  void rangeScan_equalBoundsAreEmptyAndInvertedBoundsRejected() {
    putAll("10", "20");
    assertEquals(List.of(), dumpKeys(store.scan(hex("10"), hex("10"))));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> store.scan(hex("20"), hex("10")));
    assertTrue(
        e.getMessage().contains("20") && e.getMessage().contains("10"),
        "the error names both bounds (in hex): " + e.getMessage());
    // 0x80 > 0x7f unsigned: this range is not inverted
    assertDoesNotThrow(() -> store.scan(hex("7f"), hex("80")).close());
  }

  @Test
  void prefixScan_returnsExactlyTheKeysWithThePrefix() {
    for (String key : List.of("a", "ab", "abc", "abd", "ab\u007f", "ac", "b")) {
      store.put(utf8(key), new byte[0]);
    }
    store.put(Bytes.fromHex("6162ff"), new byte[0]); // "ab" + 0xff
    assertEquals(
        keys("6162", "616263", "616264", "61627f", "6162ff"),
        dumpKeys(store.scanPrefix(utf8("ab"))));
  }

  @Test
  void prefixScan_withTrailingFf_stopsAtTheIncrementedPrefix() {
    putAll("01fe", "01feff", "01ff", "01ff00", "01ffff", "02", "0200");
    assertEquals(keys("01ff", "01ff00", "01ffff"), dumpKeys(store.scanPrefix(hex("01ff"))));
  }

  @Test
  void prefixScan_allFfPrefix_isUnboundedAbove() {
    putAll("fe", "feff", "ff", "ff00", "ffff", "ffffff");
    assertEquals(keys("ff", "ff00", "ffff", "ffffff"), dumpKeys(store.scanPrefix(hex("ff"))));
    assertEquals(keys("ffff", "ffffff"), dumpKeys(store.scanPrefix(hex("ffff"))));
  }

  @Test
  void prefixScan_emptyPrefix_returnsEverything() {
    putAll("00", "7f", "80", "ff");
    assertEquals(keys("00", "7f", "80", "ff"), dumpKeys(store.scanPrefix(new byte[0])));
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"store", "branch"})
  void scan_exhaustedNextThrowsAndClosedScanRejectsUse(String of) {
    putAll("01");
    KvScan scan = of.equals("store") ? store.scan(null, null) : store.branch().scan(null, null);
    assertTrue(scan.hasNext());
    assertEquals("01=", scan.next().toString());
    assertFalse(scan.hasNext());
    assertThrows(NoSuchElementException.class, scan::next);
    scan.close();
    assertThrows(IllegalStateException.class, scan::hasNext);
    assertDoesNotThrow(scan::close);
  }

  @Test
  void scan_seesTheStoreAsOfItsStart_whileTheStoreIsWritten() {
    putAll("01", "02", "03");
    List<String> seen = new ArrayList<>();
    try (KvScan scan = store.scan(null, null)) {
      seen.add(scan.next().toString());
      store.delete(hex("02"));
      store.put(hex("0250"), new byte[] {9});
      store.put(hex("03"), new byte[] {7});
      store.put(hex("04"), new byte[0]);
      while (scan.hasNext()) {
        seen.add(scan.next().toString());
      }
    }
    assertEquals(List.of("01=", "02=", "03="), seen);
    assertEquals(List.of("01=", "0250=09", "03=07", "04="), dump(store));
  }

  /** Whichever kind of write comes first while a scan is open, the scan goes on as it started. */
  @ParameterizedTest(name = "{0} first")
  @ValueSource(strings = {"put", "delete", "write"})
  void scan_seesTheStoreAsOfItsStart_whicheverWriteComesFirst(String first) {
    putAll("01", "02", "03");
    List<String> seen = new ArrayList<>();
    try (KvScan scan = store.scan(null, null)) {
      seen.add(scan.next().toString());
      switch (first) {
        case "put" -> store.put(hex("0250"), hex("25"));
        case "delete" -> store.delete(hex("02"));
        default -> store.write(new WriteBatch().put(hex("0250"), hex("25")).delete(hex("03")));
      }
      while (scan.hasNext()) {
        seen.add(scan.next().toString());
      }
    }
    assertEquals(List.of("01=", "02=", "03="), seen);
  }

  // ---------------------------------------------------------------- write batches

  @Test
  void write_appliesPutsAndDeletes() {
    putAll("01", "02");
    WriteBatch batch =
        new WriteBatch().delete(hex("01")).put(hex("03"), hex("33")).delete(hex("09"));
    store.write(batch);
    assertEquals(List.of("02=", "03=33"), dump(store));
  }

  @Test
  void write_laterOpOnSameKeyWins() {
    store.put(hex("01"), hex("aa"));
    store.put(hex("02"), hex("bb"));
    store.write(
        new WriteBatch()
            .put(hex("01"), hex("11"))
            .delete(hex("01")) // put then delete: deleted
            .delete(hex("02"))
            .put(hex("02"), hex("22")) // delete then put: put
            .put(hex("03"), hex("31"))
            .put(hex("03"), hex("32"))); // put then put: last value
    assertEquals(List.of("02=22", "03=32"), dump(store));
  }

  @Test
  void write_emptyBatchChangesNothing() {
    putAll("01");
    String before = StoreDigest.hex(store);
    store.write(new WriteBatch());
    assertEquals(before, StoreDigest.hex(store));
  }

  // ---------------------------------------------------------------- branches

  @Test
  void branch_readsThroughToParent() {
    store.put(utf8("a"), utf8("1"));
    try (KvBranch branch = store.branch()) {
      assertEquals(Optional.of("31"), branch.get(utf8("a")).map(Bytes::hex));
      assertTrue(branch.has(utf8("a")));
      assertFalse(branch.has(utf8("b")));
      assertEquals(List.of("61=31"), dump(branch));
    }
  }

  @Test
  void branch_seesOwnWritesAndDeletes_parentUnchangedUntilCommit() {
    store.put(utf8("a"), utf8("1"));
    store.put(utf8("b"), utf8("2"));
    String before = StoreDigest.hex(store);
    try (KvBranch branch = store.branch()) {
      branch.put(utf8("a"), utf8("9"));
      branch.delete(utf8("b"));
      branch.put(utf8("c"), new byte[0]);

      assertEquals(Optional.of("39"), branch.get(utf8("a")).map(Bytes::hex));
      assertEquals(Optional.empty(), branch.get(utf8("b")));
      assertFalse(branch.has(utf8("b")));
      assertTrue(branch.has(utf8("c")));
      assertEquals(Optional.of(""), branch.get(utf8("c")).map(Bytes::hex));

      assertEquals(before, StoreDigest.hex(store));
      assertEquals(List.of("61=31", "62=32"), dump(store));
    }
  }

  @Test
  void branchScan_mergesOverlayWithParentInOrder() {
    putAll("20", "40", "60", "80", "ff");
    try (KvBranch branch = store.branch()) {
      branch.delete(hex("40")); // hides a parent key
      branch.put(hex("30"), hex("03")); // new key between parent keys
      branch.put(hex("60"), hex("06")); // overlay wins over parent value
      branch.put(hex("00"), hex("00")); // before every parent key
      branch.put(hex("ffff"), hex("ff")); // after every parent key
      branch.put(hex("7f"), hex("07")); // signed order would misplace 0x7f against 0x80
      branch.delete(hex("50")); // tombstone with nothing below it

      assertEquals(
          List.of("00=00", "20=", "30=03", "60=06", "7f=07", "80=", "ff=", "ffff=ff"),
          dump(branch));
      // bounded: from inclusive, to exclusive, both within merged keys
      assertEquals(keys("30", "60", "7f"), dumpKeys(branch.scan(hex("30"), hex("80"))));
      assertEquals(keys("00", "20"), dumpKeys(branch.scan(null, hex("30"))));
      assertEquals(keys("ff", "ffff"), dumpKeys(branch.scanPrefix(hex("ff"))));
      assertEquals(List.of(), dumpKeys(branch.scan(hex("40"), hex("50"))));
    }
  }

  @Test
  void branchScan_deletingEveryParentKeyGivesEmptyScan() {
    putAll("01", "02");
    try (KvBranch branch = store.branch()) {
      branch.delete(hex("01"));
      branch.delete(hex("02"));
      assertEquals(List.of(), dump(branch));
    }
  }

  @Test
  void branch_putAfterDeleteAndDeleteAfterPut() {
    putAll("01");
    try (KvBranch branch = store.branch()) {
      branch.delete(hex("01"));
      branch.put(hex("01"), hex("11"));
      branch.put(hex("02"), hex("22"));
      branch.delete(hex("02"));
      assertEquals(List.of("01=11"), dump(branch));
      branch.commit();
    }
    assertEquals(List.of("01=11"), dump(store));
  }

  @Test
  void branchDiscard_leavesParentUntouched() {
    putAll("01", "02", "80");
    String before = StoreDigest.hex(store);
    KvBranch branch = store.branch();
    branch.put(hex("03"), hex("33"));
    branch.delete(hex("01"));
    branch.put(hex("80"), hex("88"));
    branch.discard();
    assertEquals(before, StoreDigest.hex(store));
    assertEquals(List.of("01=", "02=", "80="), dump(store));
  }

  @Test
  void branchClose_withoutCommitDiscards() {
    putAll("01");
    String before = StoreDigest.hex(store);
    assertThrows(
        IllegalStateException.class,
        () -> {
          try (KvBranch branch = store.branch()) {
            branch.put(hex("02"), hex("22"));
            branch.delete(hex("01"));
            throw new IllegalStateException("rejected");
          }
        });
    assertEquals(before, StoreDigest.hex(store));
  }

  @Test
  void branchCommit_appliesEveryWriteToParent() {
    putAll("01", "02", "80");
    try (KvBranch branch = store.branch()) {
      branch.put(hex("03"), hex("33"));
      branch.delete(hex("01"));
      branch.put(hex("80"), hex("88"));
      branch.commit();
    }
    assertEquals(List.of("02=", "03=33", "80=88"), dump(store));

    MemoryKvStore expected = new MemoryKvStore();
    expected.put(hex("02"), new byte[0]);
    expected.put(hex("03"), hex("33"));
    expected.put(hex("80"), hex("88"));
    assertEquals(StoreDigest.hex(expected), StoreDigest.hex(store));
  }

  @Test
  void branchCommit_isOneAtomicWriteToParent() {
    putAll("01");
    dev.ratelimit.core.testing.RecordingKvStore parent =
        new dev.ratelimit.core.testing.RecordingKvStore(store);
    try (KvBranch branch = parent.branch()) {
      branch.put(hex("02"), hex("22"));
      branch.delete(hex("01"));
      branch.put(hex("ff"), hex("ee"));
      assertEquals(List.of(), parent.calls());
      branch.commit();
    }
    assertEquals(List.of("write WriteBatch[01 delete, 02=22, ff=ee]"), parent.calls());
    assertEquals(List.of("02=22", "ff=ee"), dump(store));
  }

  @Test
  void branch_useAfterCommitOrDiscardThrows() {
    KvBranch committed = store.branch();
    committed.put(hex("01"), hex("11"));
    committed.commit();
    assertFinished(committed);

    KvBranch discarded = store.branch();
    discarded.discard();
    assertFinished(discarded);

    assertEquals(List.of("01=11"), dump(store));
  }

  @Test
  void nestedBranch_commitGoesToOuterOnly_outerDiscardDropsBoth() {
    putAll("01");
    String before = StoreDigest.hex(store);
    KvBranch outer = store.branch();
    outer.put(hex("02"), hex("22"));
    try (KvBranch inner = outer.branch()) {
      inner.put(hex("03"), hex("33"));
      inner.delete(hex("01"));
      assertEquals(List.of("02=22", "03=33"), dump(inner));
      inner.commit();
    }
    assertEquals(List.of("02=22", "03=33"), dump(outer));
    assertEquals(before, StoreDigest.hex(store));

    outer.discard();
    assertEquals(before, StoreDigest.hex(store));
    assertEquals(List.of("01="), dump(store));
  }

  @Test
  void nestedBranch_innerDiscardKeepsOuter_outerCommitReachesStore() {
    putAll("01");
    try (KvBranch outer = store.branch()) {
      outer.put(hex("02"), hex("22"));
      try (KvBranch inner = outer.branch()) {
        inner.put(hex("03"), hex("33"));
        inner.delete(hex("02"));
      } // closed without commit
      assertEquals(List.of("01=", "02=22"), dump(outer));
      try (KvBranch inner = outer.branch()) {
        inner.put(hex("04"), hex("44"));
        inner.commit();
      }
      outer.commit();
    }
    assertEquals(List.of("01=", "02=22", "04=44"), dump(store));
  }

  @Test
  void branchScan_whileBranchIsWritten_seesBranchAsOfScanStart() {
    putAll("01", "03");
    try (KvBranch branch = store.branch()) {
      branch.put(hex("02"), hex("22"));
      List<String> seen = new ArrayList<>();
      try (KvScan scan = branch.scan(null, null)) {
        seen.add(scan.next().toString());
        branch.delete(hex("02"));
        branch.put(hex("0250"), hex("25"));
        while (scan.hasNext()) {
          seen.add(scan.next().toString());
        }
      }
      assertEquals(List.of("01=", "02=22", "03="), seen);
      assertEquals(List.of("01=", "0250=25", "03="), dump(branch));
    }
  }

  // ---------------------------------------------------------------- any bytes, any sequence

  /** The module's keys hold 0x00 terminators and 0xff escapes: no byte value is special. */
  @Test
  void everyByteValue_inKeysAndValues_isKeptExactlyAndOrderedUnsigned() {
    List<String> expected = new ArrayList<>(); // key b, then b 00 00, for b from 00 to ff
    for (int b = 0; b < 256; b++) {
      expected.add(String.format(Locale.ROOT, "%02x=%02x00ff", b, b));
      expected.add(String.format(Locale.ROOT, "%02x0000=", b));
    }
    for (int i = 0; i < 256; i++) {
      int b = (i * 167) % 256; // every value once, out of order
      store.put(new byte[] {(byte) b}, new byte[] {(byte) b, 0, (byte) 0xff});
      store.put(new byte[] {(byte) b, 0, 0}, new byte[0]);
    }
    assertEquals(expected, dump(store));
    assertEquals(Optional.of("0000ff"), store.get(hex("00")).map(Bytes::hex));
    assertEquals(Optional.of(""), store.get(hex("ff0000")).map(Bytes::hex));
    assertEquals(Optional.empty(), store.get(hex("ff00")).map(Bytes::hex));
  }

  @Test
  void longKeysAndLargeValues_roundTrip() {
    byte[] key = new byte[2048];
    byte[] value = new byte[1 << 20];
    for (int i = 0; i < key.length; i++) {
      key[i] = (byte) (i * 31 + 7);
    }
    for (int i = 0; i < value.length; i++) {
      value[i] = (byte) (i * 131 + i / 256);
    }
    store.put(key, value);
    assertEquals(Bytes.hex(value), store.get(key).map(Bytes::hex).orElseThrow());
    byte[] shorter = Arrays.copyOf(key, key.length - 1);
    assertFalse(store.has(shorter));
    assertEquals(
        List.of(Bytes.hex(key)), dumpKeys(store.scanPrefix(Arrays.copyOf(key, 1000))));
  }

  /**
   * Random puts, deletes, batches, reads, range and prefix scans and nested branches (committed
   * or discarded) agree with a sorted map of unsigned keys after every step. Keys are 1-3 bytes
   * from {00, 01, 7f, 80, fe, ff}, so keys collide, nest as prefixes and sit at the sign edge.
   */
  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void randomOperations_agreeWithASortedMapModel(long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
    for (int step = 0; step < 300; step++) {
      randomStep(store, model, random, 0, "seed " + seed + " step " + step);
    }
    assertEquals(render(model), dump(store));
  }

  private static void randomStep(
      KvStore kv, TreeMap<byte[], byte[]> model, SplittableRandom random,
      int depth, String where) {
    int op = random.nextInt(depth < 2 ? 12 : 11);
    byte[] key = randomKey(random);
    switch (op) {
      case 0, 1, 2 -> {
        byte[] value = randomValue(random);
        kv.put(key, value);
        model.put(key, value);
      }
      case 3 -> {
        kv.delete(key);
        model.remove(key);
      }
      case 4 -> assertEquals(
          Optional.ofNullable(model.get(key)).map(Bytes::hex),
          kv.get(key).map(Bytes::hex), where + ": get " + Bytes.hex(key));
      case 5 -> assertEquals(model.containsKey(key), kv.has(key), where + ": has " + Bytes.hex(key));
      case 6, 7 -> {
        byte[] from = random.nextInt(4) == 0 ? null : key;
        byte[] to = random.nextInt(4) == 0 ? null : randomKey(random);
        if (from != null && to != null && Arrays.compareUnsigned(from, to) > 0) {
          byte[] swap = from;
          from = to;
          to = swap;
        }
        SortedMap<byte[], byte[]> range = model;
        range = from == null ? range : range.tailMap(from);
        range = to == null ? range : range.headMap(to);
        assertEquals(render(range), dumpEntries(kv.scan(from, to)),
            where + ": scan " + (from == null ? "-" : Bytes.hex(from)) + ".."
                + (to == null ? "-" : Bytes.hex(to)));
      }
      case 8 -> {
        byte[] prefix = Arrays.copyOf(key, random.nextInt(key.length + 1));
        TreeMap<byte[], byte[]> matching = new TreeMap<>(model.comparator());
        model.forEach((k, v) -> {
          if (k.length >= prefix.length
              && Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length)) {
            matching.put(k, v);
          }
        });
        assertEquals(render(matching), dumpEntries(kv.scanPrefix(prefix)),
            where + ": prefix " + Bytes.hex(prefix));
      }
      case 9, 10 -> {
        WriteBatch batch = new WriteBatch();
        for (int i = random.nextInt(5); i > 0; i--) {
          byte[] k = randomKey(random);
          if (random.nextInt(3) == 0) {
            batch.delete(k);
            model.remove(k);
          } else {
            byte[] v = randomValue(random);
            batch.put(k, v);
            model.put(k, v);
          }
        }
        kv.write(batch);
      }
      default -> {
        TreeMap<byte[], byte[]> branched = new TreeMap<>(model);
        List<String> parentBefore = dump(kv);
        try (KvBranch branch = kv.branch()) {
          for (int i = random.nextInt(12); i > 0; i--) {
            randomStep(branch, branched, random, depth + 1, where + " branch");
          }
          assertEquals(render(branched), dump(branch), where + ": branch");
          assertEquals(parentBefore, dump(kv), where + ": parent while branched");
          if (random.nextBoolean()) {
            branch.commit();
            model.clear();
            model.putAll(branched);
          }
        }
      }
    }
    if (depth == 0) {
      assertEquals(render(model), dump(kv), where);
    }
  }

  private static final byte[] KEY_BYTES = {0x00, 0x01, 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};

  private static byte[] randomKey(SplittableRandom random) {
    byte[] key = new byte[1 + random.nextInt(3)];
    for (int i = 0; i < key.length; i++) {
      key[i] = KEY_BYTES[random.nextInt(KEY_BYTES.length)];
    }
    return key;
  }

  private static byte[] randomValue(SplittableRandom random) {
    byte[] value = new byte[random.nextInt(4)];
    random.nextBytes(value);
    return value;
  }

  /** {@code map} as {@link #dump} shows a store. */
  private static List<String> render(SortedMap<byte[], byte[]> map) {
    List<String> out = new ArrayList<>();
    map.forEach((k, v) -> out.add(Bytes.hex(k) + "=" + Bytes.hex(v)));
    return out;
  }

  // ---------------------------------------------------------------- digest

  @Test
  void digest_changesWithAnyChangeAndReturnsWhenReverted() {
    putAll("01", "80");
    String before = StoreDigest.hex(store);
    store.put(hex("80"), hex("00"));
    String changedValue = StoreDigest.hex(store);
    assertNotEquals(before, changedValue);
    store.put(hex("80"), new byte[0]);
    assertEquals(before, StoreDigest.hex(store));
    store.put(hex("02"), new byte[0]);
    assertNotEquals(before, StoreDigest.hex(store));
  }

  // ---------------------------------------------------------------- helpers

  private static void assertFinished(KvBranch branch) {
    assertThrows(IllegalStateException.class, () -> branch.get(hex("01")));
    assertThrows(IllegalStateException.class, () -> branch.has(hex("01")));
    assertThrows(IllegalStateException.class, () -> branch.put(hex("01"), hex("01")));
    assertThrows(IllegalStateException.class, () -> branch.delete(hex("01")));
    assertThrows(IllegalStateException.class, () -> branch.scan(null, null));
    assertThrows(IllegalStateException.class, () -> branch.write(new WriteBatch()));
    assertThrows(IllegalStateException.class, branch::branch);
    assertThrows(IllegalStateException.class, branch::commit);
    assertThrows(IllegalStateException.class, branch::discard);
    assertDoesNotThrow(branch::close);
  }

  /** Puts each hex key with an empty value. */
  protected void putAll(String... hexKeys) {
    for (String key : hexKeys) {
      store.put(hex(key), new byte[0]);
    }
  }

  protected static byte[] hex(String hex) {
    return Bytes.fromHex(hex);
  }

  protected static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<String> keys(String... hexKeys) {
    return List.of(hexKeys);
  }

  /** Every entry of {@code kv} as {@code hexkey=hexvalue}, in scan order. */
  protected static List<String> dump(KvStore kv) {
    List<String> out = new ArrayList<>();
    try (KvScan scan = kv.scan(null, null)) {
      scan.forEachRemaining(e -> out.add(e.toString()));
    }
    return out;
  }

  /** The entries of {@code scan} as {@code hexkey=hexvalue}, in order; closes the scan. */
  private static List<String> dumpEntries(KvScan scan) {
    List<String> out = new ArrayList<>();
    try (scan) {
      scan.forEachRemaining(e -> out.add(e.toString()));
    }
    return out;
  }

  /** The hex keys of {@code scan}, which this closes. */
  protected static List<String> dumpKeys(KvScan scan) {
    List<String> out = new ArrayList<>();
    try (scan) {
      scan.forEachRemaining(e -> out.add(Bytes.hex(e.key())));
    }
    return out;
  }
}
