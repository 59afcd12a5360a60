package dev.ratelimit.core.model;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import org.junit.jupiter.api.Test;

/** Value records refuse what the SPEC calls invalid, with IllegalArgumentException. */
class RecordsTest {

  @Test
  void quota_percentsIn0to100_notBoth0_durationPositive() {
    assertDoesNotThrow(() -> new Quota(0, 100, 1));
    assertDoesNotThrow(() -> new Quota(100, 0, Long.MAX_VALUE));
    assertThrows(IllegalArgumentException.class, () -> new Quota(0, 0, 1));
    assertThrows(IllegalArgumentException.class, () -> new Quota(101, 10, 1));
    assertThrows(IllegalArgumentException.class, () -> new Quota(10, -1, 1));
    assertThrows(IllegalArgumentException.class, () -> new Quota(10, 10, 0));
    assertDoesNotThrow(() -> new Quota(10, 10, -1)); // 2^64 - 1 hours: a uint64, read unsigned
  }

  @Test
  void path_needsDenomAndValidId_wellFormedUtf16() {
    assertDoesNotThrow(() -> new Path("a\0b", "channel-1"));
    assertThrows(IllegalArgumentException.class, () -> new Path("", "channel-1"));
    assertThrows(IllegalArgumentException.class, () -> new Path("uatom", "channel-x"));
    assertThrows(IllegalArgumentException.class, () -> new Path("u\ud800", "channel-1"));
    assertThrows(IllegalArgumentException.class, () -> new Path("\udc00u", "channel-1"));
    assertThrows(NullPointerException.class, () -> new Path(null, "channel-1"));
    assertEquals("channel-1/uatom", new Path("uatom", "channel-1").toString());
  }

  /** Found by GovFuzzTest: "no rate limit on ..." carried a governance denom's NUL raw. */
  @Test
  void path_showsAnOddDenomQuotedEscapedAndCut() {
    assertEquals("channel-1/\"Remove\\u0004\\u0000Rate\"",
        new Path("Remove\u0004\u0000Rate", "channel-1").toString());
    String ibc = "ibc/" + "A".repeat(64);
    assertEquals("channel-1/" + ibc, new Path(ibc, "channel-1").toString());
    assertEquals("channel-1/" + "d".repeat(128), new Path("d".repeat(128), "channel-1").toString());
    assertEquals("channel-1/\"" + "d".repeat(128) + "\"... (129 chars)",
        new Path("d".repeat(129), "channel-1").toString());
  }

  @Test
  void pendingPacket_sequenceIsUnsignedAndNotZero() {
    assertThrows(IllegalArgumentException.class, () -> new PendingPacket("channel-1", "u", 0));
    assertThrows(IllegalArgumentException.class, () -> new PendingPacket("channel-1", "", 1));
    assertThrows(IllegalArgumentException.class, () -> new PendingPacket("bad", "u", 1));
    assertEquals(
        "channel-1/18446744073709551615/transfer/channel-2/uatom",
        new PendingPacket("channel-1", "transfer/channel-2/uatom", -1L).genesisId());
    assertEquals(new Path("u", "channel-1"), new PendingPacket("channel-1", "u", 3).path());
  }

  @Test
  void rateLimitWithFlow_replacesTheFlowAlone() {
    Flow fresh = Flow.fresh(BigInteger.valueOf(1000));
    Flow used = new Flow(BigInteger.ONE, BigInteger.TWO, BigInteger.valueOf(1000));
    RateLimit limit = new RateLimit(new Path("u", "channel-1"), new Quota(10, 20, 24), fresh);
    assertEquals(
        new RateLimit(new Path("u", "channel-1"), new Quota(10, 20, 24), used),
        limit.withFlow(used));
    assertThrows(NullPointerException.class, () -> limit.withFlow(null));
  }

  @Test
  void flowAndPacketAmounts_areBelow2pow256() {
    BigInteger max = Amounts.LIMIT.subtract(BigInteger.ONE);
    assertDoesNotThrow(() -> new Flow(max, max, max));
    assertThrows(IllegalArgumentException.class, () -> new Flow(Amounts.LIMIT, BigInteger.ZERO, BigInteger.ZERO));
    assertThrows(IllegalArgumentException.class, () -> new Flow(BigInteger.ZERO, BigInteger.ONE.negate(), BigInteger.ZERO));
    assertThrows(IllegalArgumentException.class,
        () -> new RateLimitedPacket("channel-1", "u", Amounts.LIMIT, "a", "b"));
    assertThrows(IllegalArgumentException.class,
        () -> new RateLimitedPacket("channel-1", "", BigInteger.ONE, "a", "b"));
  }

  @Test
  void amountsInRange_isZeroUpTo2pow256Exclusive() {
    assertEquals(true, Amounts.inRange(BigInteger.ZERO));
    assertEquals(true, Amounts.inRange(Amounts.LIMIT.subtract(BigInteger.ONE)));
    assertEquals(false, Amounts.inRange(Amounts.LIMIT));
    assertEquals(false, Amounts.inRange(BigInteger.ONE.negate()));
    assertEquals(false, Amounts.inRange(null));
  }

  @Test
  void hourEpoch_heightMayBeZero_notNegative() {
    java.time.Instant hour = java.time.Instant.parse("2024-01-01T06:00:00Z");
    assertEquals(0, new HourEpoch(0, hour, 0).epochStartHeight());
    assertEquals("epoch_start_height must not be negative, got -1",
        assertThrows(IllegalArgumentException.class, () -> new HourEpoch(6, hour, -1)).getMessage());
  }

  @Test
  void amountsParse_isCanonicalAsciiDecimalBelow2pow256() {
    assertEquals(BigInteger.ZERO, Amounts.parse("0", "x"));
    assertEquals(Amounts.LIMIT.subtract(BigInteger.ONE), Amounts.parse(Amounts.LIMIT.subtract(BigInteger.ONE).toString(), "x"));
    for (String bad : new String[] {"", "00", "01", "+1", "-1", "1.0", "1e3", "٣", " 1", "1 ", "0x10",
        Amounts.LIMIT.toString(), "9".repeat(79)}) {
      assertThrows(IllegalArgumentException.class, () -> Amounts.parse(bad, "x"), bad);
    }
  }

  /** Seeded texts around the 18-digit fast path: parsed iff canonical, to the exact value. */
  @Test
  void amountsParse_agreesWithItsDefinitionOnSeededTexts() {
    String alphabet = "0123456789000999+- e\u0663";
    java.util.Random r = new java.util.Random(0xA_2026_11_21L);
    java.util.regex.Pattern canonical = java.util.regex.Pattern.compile("0|[1-9][0-9]*");
    int parsed = 0;
    for (int i = 0; i < 50_000; i++) {
      StringBuilder sb = new StringBuilder();
      int length = r.nextInt(24);
      for (int j = 0; j < length; j++) {
        sb.append(r.nextInt(4) == 0 ? alphabet.charAt(r.nextInt(alphabet.length())) : (char) ('0' + r.nextInt(10)));
      }
      String text = sb.toString();
      if (canonical.matcher(text).matches()) {
        assertEquals(new BigInteger(text), Amounts.parse(text, "x"), text);
        parsed++;
      } else {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> Amounts.parse(text, "x"), text);
        assertEquals("x must be a canonical decimal integer, got " + Texts.quote(text), e.getMessage());
      }
    }
    assertEquals(true, parsed > 10_000, "parsed " + parsed);
    assertEquals(new BigInteger("999999999999999999"), Amounts.parse("999999999999999999", "x"));
    assertEquals(new BigInteger("9999999999999999999"), Amounts.parse("9999999999999999999", "x"));
  }

  @Test
  void whitelistedPair_needsBothAddresses() {
    assertThrows(IllegalArgumentException.class, () -> new WhitelistedAddressPair("", "b"));
    assertThrows(IllegalArgumentException.class, () -> new WhitelistedAddressPair("a", ""));
  }
}
