package dev.ratelimit.core.keeper;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.store.Bytes;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.store.StorageException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pins the store layout of SPEC §8: table ids, key bytes, order and value codecs. */
class SchemaTest {
  private static final String CH1 = "6368616e6e656c2d31"; // "channel-1"
  private static final String UATOM = "7561746f6d"; // "uatom"

  private static String hex(byte[] b) {
    return Bytes.hex(b);
  }

  private static String utf8Hex(String s) {
    return HexFormat.of().formatHex(s.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] strings(String... parts) {
    KeyEncoding.Builder b = new KeyEncoding.Builder((byte) 0x01);
    for (String p : parts) {
      b.string(p);
    }
    return b.build();
  }

  // ---------------------------------------------------------------- pinned key bytes

  @Test
  void tableIds_areFixedAndDistinct() {
    assertEquals(0x01, Schema.QUOTA.id());
    assertEquals(0x02, Schema.FLOW.id());
    assertEquals(0x03, Schema.PENDING_SEND.id());
    assertEquals(0x04, Schema.PENDING_RECV.id());
    assertEquals(0x05, Schema.BLACKLIST.id());
    assertEquals(0x06, Schema.WHITELIST.id());
    assertEquals(0x07, Schema.HOUR_EPOCH.id());
    assertEquals(0x08, Schema.RESET_SCHEDULE.id());
  }

  @Test
  void quotaAndFlowKeys_areChannelThenDenom_eachZeroTerminated() {
    Path p = new Path("uatom", "channel-1");
    assertEquals("01" + CH1 + "00" + UATOM + "00", hex(Schema.QUOTA.key(p)));
    assertEquals("02" + CH1 + "00" + UATOM + "00", hex(Schema.FLOW.key(p)));
    assertEquals(
        "016368616e6e656c2d31007561746f6d00", hex(Schema.QUOTA.key(p))); // spelled out once
  }

  @Test
  void pendingKeys_areChannelDenomThenBigEndianSequence() {
    PendingPacket p = new PendingPacket("channel-1", "uatom", 5);
    assertEquals("03" + CH1 + "00" + UATOM + "00" + "0000000000000005", hex(Schema.PENDING_SEND.key(p)));
    assertEquals("04" + CH1 + "00" + UATOM + "00" + "0000000000000005", hex(Schema.PENDING_RECV.key(p)));
    PendingPacket max = new PendingPacket("channel-1", "uatom", -1L); // 2^64 - 1
    assertEquals("03" + CH1 + "00" + UATOM + "00" + "ffffffffffffffff", hex(Schema.PENDING_SEND.key(max)));
  }

  @Test
  void blacklistWhitelistEpochAndScheduleKeys() {
    assertEquals("05" + UATOM + "00", hex(Schema.BLACKLIST.key("uatom")));
    assertEquals(
        "06" + utf8Hex("stride1a") + "00" + utf8Hex("osmo1b") + "00",
        hex(Schema.WHITELIST.key(new WhitelistedAddressPair("stride1a", "osmo1b"))));
    assertEquals("07", hex(Schema.HOUR_EPOCH.key(Schema.Unit.INSTANCE)));
    assertEquals(
        "08" + "0000000000000018" + CH1 + "00" + UATOM + "00",
        hex(Schema.RESET_SCHEDULE.key(new Schema.ScheduledReset(24, new Path("uatom", "channel-1")))));
  }

  @Test
  void zeroBytesInStrings_areEscapedAs00ff() {
    assertEquals("05" + "61" + "00ff" + "62" + "00", hex(Schema.BLACKLIST.key("a\0b")));
    assertEquals("05" + "00ff" + "00ff" + "00", hex(Schema.BLACKLIST.key("\0\0")));
  }

  @Test
  void prefixes_endWithTheTerminatorOfTheLastPart() {
    assertEquals("03" + CH1 + "00", hex(Schema.PENDING_SEND.prefix("channel-1")));
    assertEquals("03" + CH1 + "00" + UATOM + "00", hex(Schema.PENDING_SEND.prefix("channel-1", "uatom")));
    assertEquals("08" + "0000000000000001", hex(Schema.RESET_SCHEDULE.prefix(1L)));
    assertEquals("01", hex(Schema.QUOTA.prefix()));
    assertThrows(IllegalArgumentException.class, () -> Schema.QUOTA.prefix(1));
  }

  // ---------------------------------------------------------------- no collisions

  @Test
  void rawStringPairs_thatConcatenateIdentically_encodeDifferently() {
    // the Go ancestor's "rate-limit" + denom + channel made these one key
    assertNotEquals(hex(strings("uatom", "channel-1")), hex(strings("uatomchannel", "-1")));
    assertNotEquals(hex(strings("uatomchannel-1", "")), hex(strings("uatom", "channel-1")));
    assertNotEquals(hex(strings("a", "bc")), hex(strings("ab", "c")));
    assertNotEquals(hex(strings("a\0", "b")), hex(strings("a", "\0b")));
    assertNotEquals(hex(strings("a", "")), hex(strings("a\0")));
  }

  @Test
  void pathPairs_thatConcatenateIdentically_haveDistinctKeysAndDecodeBack() {
    // channel + denom: "channel-11" + "uatom" == "channel-1" + "1uatom"
    Path a = new Path("uatom", "channel-11");
    Path b = new Path("1uatom", "channel-1");
    // denom + channel (the Go ancestor's order): "uatom" + "channel-11" == "uatomc" + "hannel-11"
    Path c = new Path("uatomc", "hannel-11"); // a valid client id
    for (Path p : List.of(a, b, c)) {
      assertEquals(p, Schema.QUOTA.decodeKey(Schema.QUOTA.key(p)));
    }
    assertNotEquals(hex(Schema.QUOTA.key(a)), hex(Schema.QUOTA.key(b)));
    assertNotEquals(hex(Schema.QUOTA.key(a)), hex(Schema.QUOTA.key(c)));

    MemoryKvStore store = new MemoryKvStore();
    Schema.QUOTA.put(store, a, new Quota(1, 1, 1));
    Schema.QUOTA.put(store, b, new Quota(2, 2, 2));
    Schema.QUOTA.put(store, c, new Quota(3, 3, 3));
    assertEquals(3, store.size());
    assertEquals(new Quota(1, 1, 1), Schema.QUOTA.get(store, a).orElseThrow());
    assertEquals(new Quota(2, 2, 2), Schema.QUOTA.get(store, b).orElseThrow());
    assertEquals(new Quota(3, 3, 3), Schema.QUOTA.get(store, c).orElseThrow());
  }

  @Test
  void channel1Rows_areOutsideChannel11PrefixRange_andViceVersa() {
    MemoryKvStore store = new MemoryKvStore();
    List<PendingPacket> ch1 =
        List.of(new PendingPacket("channel-1", "uatom", 1), new PendingPacket("channel-1", "ustrd", 7));
    List<PendingPacket> ch11 =
        List.of(
            new PendingPacket("channel-11", "uatom", 1), new PendingPacket("channel-11", "1uatom", 2));
    List<PendingPacket> ch10 = List.of(new PendingPacket("channel-10", "uatom", 3));
    for (List<PendingPacket> group : List.of(ch1, ch11, ch10)) {
      group.forEach(p -> Schema.PENDING_SEND.put(store, p, Schema.Unit.INSTANCE));
    }

    byte[] prefix1 = Schema.PENDING_SEND.prefix("channel-1");
    byte[] prefix11 = Schema.PENDING_SEND.prefix("channel-11");
    for (PendingPacket p : ch11) {
      assertFalse(startsWith(Schema.PENDING_SEND.key(p), prefix1), p.toString());
    }
    for (PendingPacket p : ch1) {
      assertFalse(startsWith(Schema.PENDING_SEND.key(p), prefix11), p.toString());
    }
    assertEquals(ch1, Schema.PENDING_SEND.keys(store, prefix1));
    assertEquals(
        List.of(ch11.get(1), ch11.get(0)), // "1uatom" < "uatom"
        Schema.PENDING_SEND.keys(store, prefix11));
    // one path's prefix: (channel-1, uatom) does not reach (channel-1, uatom2) or channel-11
    Schema.PENDING_SEND.put(store, new PendingPacket("channel-1", "uatom2", 9), Schema.Unit.INSTANCE);
    assertEquals(
        List.of(ch1.get(0)),
        Schema.PENDING_SEND.keys(store, Schema.PENDING_SEND.prefix("channel-1", "uatom")));
  }

  // ---------------------------------------------------------------- order and round trips

  @Test
  void stringsWithZeroBytes_roundTripAndSortByUnsignedUtf8() {
    // canonical order: unsigned UTF-8 bytes, a proper prefix first. Note U+FF61 (EF BD A1) sorts
    // before U+10000 (F0 90 80 80) in UTF-8 although String.compareTo puts the surrogate first.
    List<String> canonical =
        List.of("", "a", "a\0", "a\0\0", "a\0b", "a\u0001", "ab", "b", "\u00e9", "\uff61", "\ud800\udc00");
    List<byte[]> keys = new ArrayList<>();
    for (String s : canonical) {
      byte[] key = new KeyEncoding.Builder((byte) 0x05).string(s).build();
      KeyEncoding.Reader r = new KeyEncoding.Reader(key, (byte) 0x05);
      assertEquals(s, r.string());
      r.end();
      keys.add(key);
    }
    List<byte[]> sorted = new ArrayList<>(keys);
    sorted.sort(Bytes.ORDER);
    for (int i = 0; i < keys.size(); i++) {
      assertArrayEquals(keys.get(i), sorted.get(i), "position " + i + ": " + canonical.get(i));
    }
    assertTrue("\ud800\udc00".compareTo("\uff61") < 0); // why UTF-16 order is not canonical
  }

  @Test
  void multiPartKeys_sortByFirstPartThenSecond() {
    // ("a", "z") < ("a\0", "a"): the first part decides, even when it is a prefix of another
    assertTrue(Bytes.compare(strings("a", "z"), strings("a\0", "a")) < 0);
    assertTrue(Bytes.compare(strings("a", "z"), strings("ab", "a")) < 0);
    assertTrue(Bytes.compare(strings("channel-1", "zzz"), strings("channel-10", "a")) < 0);
    assertTrue(Bytes.compare(strings("channel-10", "zzz"), strings("channel-2", "a")) < 0);
  }

  @Test
  void sequences_sortAsUnsignedBigEndian() {
    long[] canonical = {1, 2, 255, 256, Long.MAX_VALUE, Long.MIN_VALUE /* 2^63 */, -2L, -1L};
    MemoryKvStore store = new MemoryKvStore();
    for (int i = canonical.length - 1; i >= 0; i--) {
      Schema.PENDING_RECV.put(store, new PendingPacket("channel-1", "uatom", canonical[i]), Schema.Unit.INSTANCE);
    }
    long[] listed =
        Schema.PENDING_RECV.keys(store, Schema.PENDING_RECV.prefix()).stream()
            .mapToLong(PendingPacket::sequence)
            .toArray();
    assertArrayEquals(canonical, listed);
    assertEquals(
        "8000000000000000",
        hex(new KeyEncoding.Builder((byte) 0).u64(Long.MIN_VALUE).build()).substring(2));
  }

  @Test
  void pendingKeys_withSequenceStartingWithFF_decodeBack() {
    // a sequence >= 0xFF00000000000000 right after the denom's 00 terminator reads "00 FF",
    // which is also the escape of a 0x00 inside a string: the number is read from the end
    for (String denom : List.of("uatom", "a\0", "a\0b", "\0")) {
      for (long seq : new long[] {1, 0xFFL, Long.MAX_VALUE, Long.MIN_VALUE, 0xFF00000000000000L, -2L, -1L}) {
        PendingPacket p = new PendingPacket("channel-1", denom, seq);
        assertEquals(p, Schema.PENDING_SEND.decodeKey(Schema.PENDING_SEND.key(p)), denom + "/" + seq);
      }
    }
    assertEquals(
        "03" + CH1 + "00" + UATOM + "00" + "ffffffffffffffff",
        hex(Schema.PENDING_SEND.key(new PendingPacket("channel-1", "uatom", -1L))));
    MemoryKvStore store = new MemoryKvStore();
    PendingPacket max = new PendingPacket("channel-1", "uatom", -1L);
    Schema.PENDING_SEND.put(store, max, Schema.Unit.INSTANCE);
    assertEquals(List.of(max), Schema.PENDING_SEND.keys(store, Schema.PENDING_SEND.prefix()));
  }

  @Test
  void decodeKey_rejectsMalformedKeysAsStorageException() {
    assertThrows(StorageException.class, () -> Schema.QUOTA.decodeKey(new byte[0]));
    assertThrows(StorageException.class, () -> Schema.QUOTA.decodeKey(Schema.FLOW.key(new Path("u", "channel-1"))));
    assertThrows(StorageException.class, () -> Schema.QUOTA.decodeKey(HexFormat.of().parseHex("01" + CH1)));
    assertThrows(StorageException.class, () -> Schema.QUOTA.decodeKey(HexFormat.of().parseHex("01" + CH1 + "00" + UATOM + "00" + "ff")));
    assertThrows(StorageException.class, () -> Schema.PENDING_SEND.decodeKey(HexFormat.of().parseHex("03" + CH1 + "00" + UATOM + "00" + "0000")));
    // a sequence of 0 or an invalid channel is corruption, not a caller mistake
    assertThrows(StorageException.class, () -> Schema.PENDING_SEND.decodeKey(HexFormat.of().parseHex("03" + CH1 + "00" + UATOM + "00" + "0000000000000000")));
    assertThrows(StorageException.class, () -> Schema.QUOTA.decodeKey(HexFormat.of().parseHex("01" + utf8Hex("bad") + "00" + UATOM + "00")));
  }

  // ---------------------------------------------------------------- value codecs

  @Test
  void flowValue_roundTripsIncludingZeroAndMax() {
    BigInteger max = Amounts.LIMIT.subtract(BigInteger.ONE);
    MemoryKvStore store = new MemoryKvStore();
    Path p = new Path("uatom", "channel-1");
    for (Flow f :
        List.of(
            new Flow(BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO),
            new Flow(BigInteger.valueOf(8), BigInteger.valueOf(12), BigInteger.valueOf(100)),
            new Flow(BigInteger.valueOf(255), BigInteger.valueOf(256), BigInteger.valueOf(128)),
            new Flow(max, max, max),
            new Flow(BigInteger.ZERO, max, BigInteger.ONE))) {
      Schema.FLOW.put(store, p, f);
      assertEquals(f, Schema.FLOW.get(store, p).orElseThrow());
    }
  }

  @Test
  void flowValue_bytesArePinned() {
    MemoryKvStore store = new MemoryKvStore();
    Path p = new Path("uatom", "channel-1");
    Schema.FLOW.put(store, p, new Flow(BigInteger.ZERO, BigInteger.valueOf(12), BigInteger.valueOf(128)));
    assertEquals("00" + "010c" + "0180", hex(store.get(Schema.FLOW.key(p)).orElseThrow()));
    BigInteger max = Amounts.LIMIT.subtract(BigInteger.ONE);
    Schema.FLOW.put(store, p, new Flow(max, BigInteger.ZERO, BigInteger.ONE));
    assertEquals("20" + "ff".repeat(32) + "00" + "0101", hex(store.get(Schema.FLOW.key(p)).orElseThrow()));
  }

  @Test
  void corruptFlowValue_isStorageException() {
    MemoryKvStore store = new MemoryKvStore();
    Path p = new Path("uatom", "channel-1");
    byte[] key = Schema.FLOW.key(p);
    for (String bad : List.of("", "00", "0000", "00000000", "21" + "ff".repeat(33) + "0000", "0501")) {
      store.put(key, HexFormat.of().parseHex(bad));
      assertThrows(StorageException.class, () -> Schema.FLOW.get(store, p), bad);
    }
  }

  @Test
  void quotaAndEpochValues_roundTrip() {
    MemoryKvStore store = new MemoryKvStore();
    Path p = new Path("uatom", "channel-1");
    for (Quota q : List.of(new Quota(0, 100, 1), new Quota(10, 10, 24), new Quota(100, 0, Long.MAX_VALUE))) {
      Schema.QUOTA.put(store, p, q);
      assertEquals(q, Schema.QUOTA.get(store, p).orElseThrow());
    }
    for (HourEpoch e :
        List.of(
            new HourEpoch(0, Instant.parse("2024-01-01T00:00:00Z"), 1),
            new HourEpoch(-1L, Instant.parse("2024-01-01T23:00:00.5Z"), Long.MAX_VALUE))) {
      Schema.HOUR_EPOCH.put(store, Schema.Unit.INSTANCE, e);
      assertEquals(e, Schema.HOUR_EPOCH.get(store, Schema.Unit.INSTANCE).orElseThrow());
    }
    store.put(Schema.QUOTA.key(p), new byte[] {(byte) 0xff});
    assertThrows(StorageException.class, () -> Schema.QUOTA.get(store, p));
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }
}
