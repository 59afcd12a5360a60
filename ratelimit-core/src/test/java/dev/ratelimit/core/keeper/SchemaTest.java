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
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.PureMemo;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.rules.QuotaDecision;
import dev.ratelimit.core.rules.QuotaRules;
import dev.ratelimit.core.store.Bytes;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.store.StorageException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
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

  /** SHA-256 of {@code u32 9, "channel-1", u32 5, "uatom"}, first 16 bytes (python hashlib). */
  private static final String H_CH1_UATOM = "2cd4e303946e23a90dda2e95252a602e";

  @Test
  void tableIds_areFixedAndDistinct_andRetiredIdsAreNotReused() {
    List<Table<?, ?>> tables = List.of(Schema.BLACKLIST, Schema.WHITELIST, Schema.HOUR_EPOCH,
        Schema.RESET_SCHEDULE, Schema.LIMIT_INDEX, Schema.LIMIT, Schema.PENDING_SEND,
        Schema.PENDING_RECV, Schema.MARKER_PATH, Schema.LIMIT_BY_DENOM);
    List<Integer> ids = tables.stream().map(t -> (int) t.id()).toList();
    assertEquals(List.of(0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E), ids);
  }

  @Test
  void pathHash_isPinned_andLengthPrefixed() {
    assertEquals(H_CH1_UATOM, hex(PathHash.of("channel-1", "uatom")));
    assertEquals("7d1b65003be5b4242620082f16349e6b", hex(PathHash.of("channel-0",
        "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2")));
    // "channel-11" + "uatom" and "channel-1" + "1uatom" concatenate identically
    assertNotEquals(hex(PathHash.of("channel-11", "uatom")), hex(PathHash.of("channel-1", "1uatom")));
    assertEquals(16, PathHash.of("channel-1", "a\0b").length);
  }

  /**
   * Path hashes are memoized: whatever the memo holds, every call answers the definition (SHA-256
   * of the length-prefixed parts, first 16 bytes), in a fresh array the caller may change.
   */
  @Test
  void pathHash_andRowKey_memoized_answerTheDefinition_inTheCallersOwnArray() throws Exception {
    Random random = new Random(0x9A7_5EEDL);
    String[] channels = {"channel-0", "channel-1", "channel-11", "07-tendermint-3"};
    for (int i = 0; i < 5_000; i++) {
      String channel = channels[random.nextInt(channels.length)];
      // mostly a few denoms (memo hits), sometimes one longer than the memo takes
      String denom = random.nextInt(50) == 0
          ? "u" + "x".repeat(PureMemo.MAX_KEY_CHARS - channel.length() + random.nextInt(3) - 1)
          : "denom" + random.nextInt(40);
      byte[] got = PathHash.of(channel, denom);
      assertEquals(definition(channel, denom), hex(got), channel + " " + denom);
      got[0] ^= 1; // the next call must not see this
      assertEquals(definition(channel, denom), hex(PathHash.of(channel, denom)));
      byte[] rowKey = Schema.limitKey(channel, denom);
      assertEquals("0a" + definition(channel, denom), hex(rowKey));
      rowKey[1] ^= 1; // nor this
      assertEquals(hex(Schema.LIMIT.key(new Path(denom, channel))), hex(Schema.limitKey(channel, denom)));
    }
  }

  private static String definition(String channel, String denom) throws Exception {
    byte[] c = channel.getBytes(StandardCharsets.UTF_8);
    byte[] d = denom.getBytes(StandardCharsets.UTF_8);
    ByteBuffer in = ByteBuffer.allocate(8 + c.length + d.length).putInt(c.length).put(c)
        .putInt(d.length).put(d);
    byte[] full = MessageDigest.getInstance("SHA-256").digest(in.array());
    return hex(Arrays.copyOf(full, 16));
  }

  @Test
  void limitIndexKeys_areChannelThenDenom_eachZeroTerminated() {
    Path p = new Path("uatom", "channel-1");
    assertEquals("09" + CH1 + "00" + UATOM + "00", hex(Schema.LIMIT_INDEX.key(p)));
    assertEquals("096368616e6e656c2d31007561746f6d00", hex(Schema.LIMIT_INDEX.key(p)));
    assertEquals(p, Schema.LIMIT_INDEX.decodeKey(Schema.LIMIT_INDEX.key(p)));
    assertEquals("0e" + UATOM + "00" + CH1 + "00", hex(Schema.LIMIT_BY_DENOM.key(p)));
    assertEquals(p, Schema.LIMIT_BY_DENOM.decodeKey(Schema.LIMIT_BY_DENOM.key(p)));
  }

  @Test
  void perPacketKeys_areTheTableIdThenThePathHash_andTheMarkersSequence() {
    Path p = new Path("uatom", "channel-1");
    assertEquals("0a" + H_CH1_UATOM, hex(Schema.LIMIT.key(p)));
    assertEquals("0d" + H_CH1_UATOM, hex(Schema.MARKER_PATH.key(p)));
    Schema.Marker m = Schema.Marker.of(new PendingPacket("channel-1", "uatom", 5));
    assertEquals("0b" + H_CH1_UATOM + "0000000000000005", hex(Schema.PENDING_SEND.key(m)));
    assertEquals("0c" + H_CH1_UATOM + "0000000000000005", hex(Schema.PENDING_RECV.key(m)));
    Schema.Marker max = Schema.Marker.of(new PendingPacket("channel-1", "uatom", -1L));
    assertEquals("0b" + H_CH1_UATOM + "ffffffffffffffff", hex(Schema.PENDING_SEND.key(max)));
    assertEquals("0b" + H_CH1_UATOM, hex(Schema.markerPrefix(Schema.PENDING_SEND, p)));
    // a 17-byte row key and a 25-byte marker key, whatever the denom's length
    Path ibc = new Path("ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2", "channel-0");
    assertEquals(17, Schema.LIMIT.key(ibc).length);
    assertEquals(25, Schema.PENDING_SEND.key(
        Schema.Marker.of(new PendingPacket("channel-0", ibc.denom(), 1))).length);
    assertThrows(StorageException.class, () -> Schema.LIMIT.decodeKey(Schema.LIMIT.key(p)));
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

  /**
   * A NUL at any position of a 0-40-character string (beside bytes that trip word tricks: 0x01,
   * 0x80, 0xFF, 0x7F in UTF-8) is escaped, and strings without one are copied as they are.
   */
  @Test
  void zeroBytesAtEveryPosition_areEscaped_andOthersCopied() {
    String[] fillers = {"a", "\u0001", "\u0080", "\u00ff", "\u007f", "\u0100", "\uffff"};
    Random random = new Random(0x2E_50_2026L);
    for (int n = 0; n <= 40; n++) {
      for (int trial = 0; trial < 20; trial++) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
          sb.append(fillers[random.nextInt(fillers.length)]);
        }
        String plain = sb.toString();
        assertEquals("05" + hex(plain.getBytes(StandardCharsets.UTF_8)) + "00",
            hex(Schema.BLACKLIST.key(plain)), plain);
        for (int at = 0; at < n; at++) {
          String withNul = plain.substring(0, at) + '\0' + plain.substring(at + 1);
          StringBuilder expected = new StringBuilder("05");
          for (byte b : withNul.getBytes(StandardCharsets.UTF_8)) {
            expected.append(b == 0 ? "00ff" : hex(new byte[] {b}));
          }
          assertEquals(expected + "00", hex(Schema.BLACKLIST.key(withNul)), "NUL at " + at);
        }
      }
    }
  }

  @Test
  void prefixes_endWithTheTerminatorOfTheLastPart() {
    assertEquals("09" + CH1 + "00", hex(Schema.LIMIT_INDEX.prefix("channel-1")));
    assertEquals("09" + CH1 + "00" + UATOM + "00", hex(Schema.LIMIT_INDEX.prefix("channel-1", "uatom")));
    assertEquals("08" + "0000000000000001", hex(Schema.RESET_SCHEDULE.prefix(1L)));
    assertEquals("09", hex(Schema.LIMIT_INDEX.prefix()));
    assertThrows(IllegalArgumentException.class, () -> Schema.LIMIT_INDEX.prefix(1));
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
      assertEquals(p, Schema.LIMIT_INDEX.decodeKey(Schema.LIMIT_INDEX.key(p)));
      assertEquals(p, Schema.MARKER_PATH.values().decode(Schema.MARKER_PATH.values().encode(p)));
    }
    assertNotEquals(hex(Schema.LIMIT_INDEX.key(a)), hex(Schema.LIMIT_INDEX.key(b)));
    assertNotEquals(hex(Schema.LIMIT_INDEX.key(a)), hex(Schema.LIMIT_INDEX.key(c)));

    MemoryKvStore store = new MemoryKvStore();
    Flow f = new Flow(BigInteger.ZERO, BigInteger.ZERO, BigInteger.TEN);
    Schema.LIMIT.put(store, a, new Schema.LimitRow(new Quota(1, 1, 1), false, f));
    Schema.LIMIT.put(store, b, new Schema.LimitRow(new Quota(2, 2, 2), false, f));
    Schema.LIMIT.put(store, c, new Schema.LimitRow(new Quota(3, 3, 3), true, f));
    assertEquals(3, store.size());
    assertEquals(new Quota(1, 1, 1), Schema.LIMIT.get(store, a).orElseThrow().quota());
    assertEquals(new Quota(2, 2, 2), Schema.LIMIT.get(store, b).orElseThrow().quota());
    assertEquals(new Quota(3, 3, 3), Schema.LIMIT.get(store, c).orElseThrow().quota());
  }

  @Test
  void onePathsMarkers_areOnePrefix_thatNoOtherPathReaches() {
    MemoryKvStore store = new MemoryKvStore();
    List<PendingPacket> all = List.of(
        new PendingPacket("channel-1", "uatom", 1), new PendingPacket("channel-1", "uatom", 7),
        new PendingPacket("channel-1", "ustrd", 7), new PendingPacket("channel-11", "uatom", 1),
        new PendingPacket("channel-1", "1uatom", 2), new PendingPacket("channel-1", "uatom\0", 3),
        new PendingPacket("channel-10", "uatom", 3));
    all.forEach(p -> Schema.PENDING_SEND.put(store, Schema.Marker.of(p), Schema.Unit.INSTANCE));
    byte[] prefix = Schema.markerPrefix(Schema.PENDING_SEND, new Path("uatom", "channel-1"));
    List<Long> seqs = Schema.PENDING_SEND.keys(store, prefix).stream()
        .map(Schema.Marker::sequence).toList();
    assertEquals(List.of(1L, 7L), seqs);
    for (PendingPacket p : all.subList(2, all.size())) {
      assertFalse(startsWith(Schema.PENDING_SEND.key(Schema.Marker.of(p)), prefix), p.toString());
    }
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
      Schema.PENDING_RECV.put(store, Schema.Marker.of(new PendingPacket("channel-1", "uatom", canonical[i])), Schema.Unit.INSTANCE);
    }
    long[] listed =
        Schema.PENDING_RECV.keys(store, Schema.PENDING_RECV.prefix()).stream()
            .mapToLong(Schema.Marker::sequence)
            .toArray();
    assertArrayEquals(canonical, listed);
    assertEquals(
        "8000000000000000",
        hex(new KeyEncoding.Builder((byte) 0).u64(Long.MIN_VALUE).build()).substring(2));
  }

  @Test
  void markerKeys_decodeBack_forEverySequence() {
    for (long seq : new long[] {1, 0xFFL, Long.MAX_VALUE, Long.MIN_VALUE, 0xFF00000000000000L, -2L, -1L}) {
      Schema.Marker m = Schema.Marker.of(new PendingPacket("channel-1", "a\0", seq));
      Schema.Marker back = Schema.PENDING_SEND.decodeKey(Schema.PENDING_SEND.key(m));
      assertArrayEquals(m.pathHash(), back.pathHash());
      assertEquals(seq, back.sequence());
    }
  }

  @Test
  void decodeKey_rejectsMalformedKeysAsStorageException() {
    assertThrows(StorageException.class, () -> Schema.LIMIT_INDEX.decodeKey(new byte[0]));
    assertThrows(StorageException.class, () -> Schema.LIMIT_INDEX.decodeKey(Schema.LIMIT.key(new Path("u", "channel-1"))));
    assertThrows(StorageException.class, () -> Schema.LIMIT_INDEX.decodeKey(HexFormat.of().parseHex("09" + CH1)));
    assertThrows(StorageException.class, () -> Schema.LIMIT_INDEX.decodeKey(HexFormat.of().parseHex("09" + CH1 + "00" + UATOM + "00" + "ff")));
    assertThrows(StorageException.class, () -> Schema.PENDING_SEND.decodeKey(HexFormat.of().parseHex("0b" + H_CH1_UATOM + "0000")));
    assertThrows(StorageException.class, () -> Schema.PENDING_SEND.decodeKey(HexFormat.of().parseHex("0b" + H_CH1_UATOM.substring(4))));
    // an invalid channel is corruption, not a caller mistake
    assertThrows(StorageException.class, () -> Schema.LIMIT_INDEX.decodeKey(HexFormat.of().parseHex("09" + utf8Hex("bad") + "00" + UATOM + "00")));
    assertThrows(StorageException.class, () -> Schema.MARKER_PATH.values().decode(HexFormat.of().parseHex(utf8Hex("bad") + "00" + UATOM + "00")));
  }

  // ---------------------------------------------------------------- value codecs

  @Test
  void limitValue_roundTripsIncludingZeroMaxAndTheBlacklistBit() {
    BigInteger max = Amounts.LIMIT.subtract(BigInteger.ONE);
    MemoryKvStore store = new MemoryKvStore();
    Path p = new Path("uatom", "channel-1");
    for (Quota q : List.of(new Quota(0, 100, 1), new Quota(10, 10, 24), new Quota(100, 0, Long.MAX_VALUE),
        new Quota(100, 100, 127), new Quota(1, 1, 128),
        new Quota(1, 1, Long.MIN_VALUE) /* 2^63 h: a 10-byte varint */, new Quota(1, 1, -1L) /* 2^64 - 1 h */)) {
      for (Flow f : List.of(
          new Flow(BigInteger.ZERO, BigInteger.ZERO, BigInteger.ZERO),
          new Flow(BigInteger.valueOf(8), BigInteger.valueOf(12), BigInteger.valueOf(100)),
          new Flow(BigInteger.valueOf(255), BigInteger.valueOf(256), BigInteger.valueOf(128)),
          new Flow(max, max, max),
          new Flow(BigInteger.ZERO, max, BigInteger.ONE))) {
        for (boolean bl : new boolean[] {false, true}) {
          Schema.LimitRow row = new Schema.LimitRow(q, bl, f);
          Schema.LIMIT.put(store, p, row);
          assertEquals(row, Schema.LIMIT.get(store, p).orElseThrow());
        }
      }
    }
  }

  @Test
  void limitValue_bytesArePinned() {
    MemoryKvStore store = new MemoryKvStore();
    Path p = new Path("uatom", "channel-1");
    Flow f = new Flow(BigInteger.ZERO, BigInteger.valueOf(12), BigInteger.valueOf(128));
    Schema.LIMIT.put(store, p, new Schema.LimitRow(new Quota(10, 20, 24), false, f));
    assertEquals("0a" + "14" + "18" + "00" + "010c" + "0180", hex(store.get(Schema.LIMIT.key(p)).orElseThrow()));
    Schema.LIMIT.put(store, p, new Schema.LimitRow(new Quota(100, 0, 300), true, f));
    // 100 | 0x80 = e4; 300 = varint ac 02
    assertEquals("e4" + "00" + "ac02" + "00" + "010c" + "0180", hex(store.get(Schema.LIMIT.key(p)).orElseThrow()));
    BigInteger max = Amounts.LIMIT.subtract(BigInteger.ONE);
    Schema.LIMIT.put(store, p, new Schema.LimitRow(new Quota(1, 1, 1), false, new Flow(max, BigInteger.ZERO, BigInteger.ONE)));
    assertEquals("0101" + "01" + "20" + "ff".repeat(32) + "00" + "0101", hex(store.get(Schema.LIMIT.key(p)).orElseThrow()));
  }

  /**
   * The flow's magnitudes are written as length byte + big-endian magnitude whichever way the
   * encoder takes (from a long up to 8 bytes, from the two's-complement array beyond): seeded
   * values of every bit length 0 to 256, each side of the 64-bit edge included, against that
   * definition written out here, and read back.
   */
  @Test
  void limitValue_magnitudesOfEveryBitLength_matchTheDefinition() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(256);
    MemoryKvStore store = new MemoryKvStore();
    Path p = new Path("uatom", "channel-1");
    for (int bits = 0; bits <= 256; bits++) {
      for (int k = 0; k < 4; k++) {
        BigInteger[] v = new BigInteger[3];
        for (int i = 0; i < 3; i++) {
          int b = i == k % 3 ? bits : random.nextInt(257);
          // the top bit set, the rest random: a value of exactly b bits (0 for b = 0)
          v[i] = b == 0 ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(b - 1).or(
              new BigInteger(b - 1, new java.util.Random(random.nextLong())));
        }
        Flow f = new Flow(v[0], v[1], v[2]);
        Schema.LimitRow row = new Schema.LimitRow(new Quota(5, 6, 7), k == 3, f);
        Schema.LIMIT.put(store, p, row);
        String expected = (k == 3 ? "85" : "05") + "06" + "07"
            + magnitudeHex(v[0]) + magnitudeHex(v[1]) + magnitudeHex(v[2]);
        assertEquals(expected, hex(store.get(Schema.LIMIT.key(p)).orElseThrow()), "bits " + bits);
        assertEquals(row, Schema.LIMIT.get(store, p).orElseThrow());
      }
    }
  }

  /**
   * A packet's write-back copies the unchanged parts of the stored row: on seeded rows (durations
   * of 1 to 10 varint bytes, magnitudes of 0 to 32 bytes) and new flows that keep, replace (with a
   * shorter, equal-length or longer value) or re-create as an equal value each magnitude, the bytes
   * are exactly the row's encoding with the new flow.
   */
  @Test
  void encodeWithFlow_isTheEncodingOfTheRowWithTheNewFlow() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(0xF10L);
    for (int i = 0; i < 20_000; i++) {
      long duration = Math.max(1, (random.nextLong() & Long.MAX_VALUE) >>> random.nextInt(63));
      Quota q = new Quota(random.nextInt(101), random.nextInt(101), duration);
      Flow old = new Flow(randomAmount(random), randomAmount(random), randomAmount(random));
      Schema.LimitRow row = new Schema.LimitRow(q, random.nextBoolean(), old);
      byte[] stored = Schema.LIMIT.values().encode(row);
      Flow updated = new Flow(
          changed(random, old.inflow()), changed(random, old.outflow()),
          changed(random, old.channelValue()));
      assertEquals(
          hex(Schema.LIMIT.values().encode(row.withFlow(updated))),
          hex(Schema.encodeWithFlow(stored, Schema.RowLayout.of(stored), old, updated)),
          row + " -> " + updated);
    }
  }

  /**
   * The packet hot path's row shortcut: where it answers, the bytes are the exact rules' (decode,
   * {@link QuotaRules#check}, {@link Schema#encodeWithFlow}); where the exact rules reject, it
   * does not answer. Rows from the whole value range, amounts sometimes aimed at the threshold.
   */
  @Test
  void addToFlowIfWithin_isTheExactRulesEncoding() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(0xFA57L);
    int answered = 0;
    for (int i = 0; i < 50_000; i++) {
      int send = random.nextInt(101);
      Quota q = new Quota(send, send == 0 ? 1 + random.nextInt(100) : random.nextInt(101),
          1 + random.nextInt(1000));
      Flow flow = new Flow(randomAmount(random), randomAmount(random), randomAmount(random));
      Schema.LimitRow row = new Schema.LimitRow(q, random.nextBoolean(), flow);
      byte[] stored = Schema.LIMIT.values().encode(row);
      PacketDirection dir = random.nextBoolean() ? PacketDirection.SEND : PacketDirection.RECV;
      BigInteger amount = randomAmount(random);
      if (random.nextInt(3) == 0) {
        BigInteger aimed = QuotaRules.threshold(flow.channelValue(), QuotaRules.percent(q, dir))
            .subtract(QuotaRules.netFlow(flow, dir)).add(BigInteger.valueOf(random.nextInt(3) - 1));
        amount = aimed.signum() >= 0 ? aimed : amount;
      }
      QuotaDecision exact;
      try {
        exact = QuotaRules.check(dir, flow, q, amount);
      } catch (dev.ratelimit.core.RateLimitException overflow) {
        assertEquals(null, Schema.addToFlowIfWithin(stored, Schema.RowLayout.of(stored), dir, amount));
        continue;
      }
      byte[] fast = Schema.addToFlowIfWithin(stored, Schema.RowLayout.of(stored), dir, amount);
      String what = row + " " + dir + " " + amount;
      if (fast != null) {
        answered++;
        assertTrue(exact.allowed(), what);
        assertEquals(hex(Schema.encodeWithFlow(stored, Schema.RowLayout.of(stored), flow, exact.flow())), hex(fast), what);
        assertEquals(hex(Schema.LIMIT.values().encode(row.withFlow(exact.flow()))), hex(fast), what);
      }
      if (!exact.allowed()) {
        assertEquals(null, fast, what);
      }
    }
    assertTrue(answered > 10_000, "answered " + answered);
  }

  /** A row's layout is read with the same checks and messages as its decoding. */
  @Test
  void rowLayout_rejectsCorruptRowsAsDecodingDoes() {
    byte[] good = Schema.LIMIT.values().encode(
        new Schema.LimitRow(new Quota(10, 20, 300), true, new Flow(BigInteger.ONE, BigInteger.TEN, BigInteger.valueOf(1000))));
    Schema.RowLayout layout = Schema.RowLayout.of(good);
    assertEquals(new Quota(10, 20, 300), layout.quota());
    assertTrue(layout.blacklisted());
    assertEquals(new Flow(BigInteger.ONE, BigInteger.TEN, BigInteger.valueOf(1000)), layout.flow(good));
    assertEquals("corrupt limit value: trailing bytes",
        assertThrows(StorageException.class, () -> Schema.RowLayout.of(Arrays.copyOf(good, good.length + 1))).getMessage());
    assertEquals("corrupt limit value: truncated flow",
        assertThrows(StorageException.class, () -> Schema.RowLayout.of(Arrays.copyOf(good, 4))).getMessage());
    // the channel value's two bytes cut to one: its length runs one byte past the row's end
    assertEquals("corrupt limit value: bad flow length 2",
        assertThrows(StorageException.class,
            () -> Schema.RowLayout.of(Arrays.copyOf(good, good.length - 1))).getMessage());
    assertEquals("corrupt limit value: truncated",
        assertThrows(StorageException.class, () -> Schema.RowLayout.of(new byte[] {0, 0})).getMessage());
    assertEquals("corrupt limit value: truncated flow", // three bytes: a quota without flows
        assertThrows(StorageException.class, () -> Schema.RowLayout.of(new byte[] {10, 20, 1})).getMessage());
    byte[] badPercent = good.clone();
    badPercent[1] = 101;
    assertEquals("corrupt limit value: max_percent_recv must be in [0, 100], got 101",
        assertThrows(StorageException.class, () -> Schema.RowLayout.of(badPercent)).getMessage());
  }

  /** 0 to 256 bits, small values more often (flows are mostly far below their maximum). */
  private static BigInteger randomAmount(java.util.SplittableRandom random) {
    int bits = random.nextInt(4) == 0 ? random.nextInt(257) : random.nextInt(70);
    return new BigInteger(bits, new java.util.Random(random.nextLong()));
  }

  /** {@code v} kept, re-created as an equal value, or replaced by a random amount. */
  private static BigInteger changed(java.util.SplittableRandom random, BigInteger v) {
    return switch (random.nextInt(3)) {
      case 0 -> v;
      case 1 -> new BigInteger(v.toString());
      default -> randomAmount(random);
    };
  }

  /** Length byte, then the magnitude: the two's-complement bytes without the leading zeros. */
  private static String magnitudeHex(BigInteger v) {
    byte[] raw = v.toByteArray();
    int skip = 0;
    while (skip < raw.length && raw[skip] == 0) {
      skip++;
    }
    byte[] magnitude = Arrays.copyOfRange(raw, skip, raw.length);
    return String.format("%02x", magnitude.length) + hex(magnitude);
  }

  @Test
  void corruptLimitValue_isStorageException() {
    MemoryKvStore store = new MemoryKvStore();
    Path p = new Path("uatom", "channel-1");
    byte[] key = Schema.LIMIT.key(p);
    for (String bad : List.of("", "0a", "0a0a", "0a0a18", "0a0a1800", "0a0a18" + "21" + "ff".repeat(33) + "0000",
        "0a0a180501", "0a0a18000000" + "00", "0a0a00000000" /* duration 0 */, "650a18000000" /* 101 % */,
        "0a0a" + "ff".repeat(10) + "01000000" /* varint too long */,
        "0a0a80", "0a0a" + "ff".repeat(9) /* varint cut off at the row's end */)) {
      store.put(key, HexFormat.of().parseHex(bad));
      assertThrows(StorageException.class, () -> Schema.LIMIT.get(store, p), bad);
    }
  }

  @Test
  void epochValues_roundTrip() {
    MemoryKvStore store = new MemoryKvStore();
    for (HourEpoch e :
        List.of(
            new HourEpoch(0, Instant.parse("2024-01-01T00:00:00Z"), 1),
            new HourEpoch(-1L, Instant.parse("2024-01-01T23:00:00.5Z"), Long.MAX_VALUE))) {
      Schema.HOUR_EPOCH.put(store, Schema.Unit.INSTANCE, e);
      assertEquals(e, Schema.HOUR_EPOCH.get(store, Schema.Unit.INSTANCE).orElseThrow());
    }
    store.put(Schema.HOUR_EPOCH.key(Schema.Unit.INSTANCE), new byte[] {(byte) 0xff});
    assertThrows(StorageException.class, () -> Schema.HOUR_EPOCH.get(store, Schema.Unit.INSTANCE));
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length
        && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }
}
