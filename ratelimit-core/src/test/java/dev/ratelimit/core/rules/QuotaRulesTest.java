package dev.ratelimit.core.rules;

import static dev.ratelimit.core.model.PacketDirection.RECV;
import static dev.ratelimit.core.model.PacketDirection.SEND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.Quota;
import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC §2, exactly: {@code threshold = floor(cv * pct / 100)}, reject iff cv != 0 and net + amount > threshold. */
class QuotaRulesTest {
  private static final BigInteger MAX = Amounts.LIMIT.subtract(BigInteger.ONE); // 2^256 - 1

  private static BigInteger n(long v) {
    return BigInteger.valueOf(v);
  }

  private static Flow flow(long inflow, long outflow, long channelValue) {
    return new Flow(n(inflow), n(outflow), n(channelValue));
  }

  private static Quota quota(int send, int recv) {
    return new Quota(send, recv, 24);
  }

  // ---------------------------------------------------------------- threshold

  @ParameterizedTest(name = "threshold({0}, {1}%) = {2}")
  @CsvSource({
    "100, 10, 10",
    "99, 10, 9", // 9.9 truncated
    "3, 33, 0", // 0.99 truncated
    "1000, 0, 0",
    "1000, 100, 1000",
    "0, 50, 0",
    "1, 99, 0",
    "101, 1, 1",
  })
  void threshold_isFloorOfChannelValueTimesPercentOver100(long cv, int pct, long expected) {
    assertEquals(n(expected), QuotaRules.threshold(n(cv), pct));
  }

  @Test
  void thresholdOfMaxChannelValue_isExactWithoutOverflow() {
    // (2^256 - 1) * 100 / 100 = 2^256 - 1; * 50 / 100 = floor((2^256 - 1) / 2) = 2^255 - 1
    assertEquals(MAX, QuotaRules.threshold(MAX, 100));
    assertEquals(BigInteger.ONE.shiftLeft(255).subtract(BigInteger.ONE), QuotaRules.threshold(MAX, 50));
  }

  // ---------------------------------------------------------------- the check, table-driven

  /**
   * direction, inflow, outflow, channel value, pct (of that direction), amount, allowed. When
   * allowed, the flow of that direction grows by the amount; when rejected, nothing changes.
   */
  @ParameterizedTest(name = "[{index}] {0} in={1} out={2} cv={3} pct={4} amount={5} -> allowed={6}")
  @CsvSource({
    // exactly at threshold accepted, one over rejected
    "SEND, 0, 0, 100, 10, 10, true",
    "SEND, 0, 0, 100, 10, 11, false",
    "RECV, 0, 0, 100, 10, 10, true",
    "RECV, 0, 0, 100, 10, 11, false",
    // prior traffic counts
    "SEND, 0, 5, 100, 10, 5, true",
    "SEND, 0, 5, 100, 10, 6, false",
    "RECV, 5, 0, 100, 10, 5, true",
    "RECV, 5, 0, 100, 10, 6, false",
    // truncation: 99 @ 10% -> threshold 9
    "SEND, 0, 0, 99, 10, 9, true",
    "SEND, 0, 0, 99, 10, 10, false",
    "RECV, 0, 0, 99, 10, 9, true",
    "RECV, 0, 0, 99, 10, 10, false",
    // 3 @ 33% -> threshold 0: any positive amount rejected, 0 accepted
    "SEND, 0, 0, 3, 33, 1, false",
    "SEND, 0, 0, 3, 33, 0, true",
    "RECV, 0, 0, 3, 33, 1, false",
    // 0% rejects any positive amount; 0 is accepted
    "SEND, 0, 0, 1000000, 0, 1, false",
    "SEND, 0, 0, 1000000, 0, 0, true",
    "RECV, 0, 0, 1000000, 0, 1, false",
    "RECV, 0, 0, 1000000, 0, 0, true",
    // 0% with opposite traffic: net stays <= 0, so a send that only undoes inflow passes
    "SEND, 7, 0, 1000000, 0, 7, true",
    "SEND, 7, 0, 1000000, 0, 8, false",
    // 100%: up to the whole channel value
    "SEND, 0, 0, 1000, 100, 1000, true",
    "SEND, 0, 0, 1000, 100, 1001, false",
    "RECV, 0, 0, 1000, 100, 1000, true",
    "RECV, 0, 0, 1000, 100, 1001, false",
    // channel value 0 never limits
    "SEND, 0, 0, 0, 10, 1000000000000, true",
    "RECV, 0, 0, 0, 0, 1000000000000, true",
    "SEND, 0, 999, 0, 0, 1, true",
    // net flow with opposite traffic (walk-through step 4): inflow 8, send 12 -> net outflow 4
    "SEND, 8, 0, 100, 10, 12, true",
    "SEND, 8, 0, 100, 10, 18, true",
    "SEND, 8, 0, 100, 10, 19, false",
    // walk-through step 5: inflow 8 outflow 12, recv 8 -> net inflow 4
    "RECV, 8, 12, 100, 10, 8, true",
    "RECV, 8, 12, 100, 10, 14, true",
    "RECV, 8, 12, 100, 10, 15, false",
    // walk-through step 3: inflow 8, recv 8 -> 16 > 10
    "RECV, 8, 0, 100, 10, 8, false",
    // a large opposite flow leaves a negative net: room beyond the threshold
    "RECV, 0, 1000, 100, 10, 1010, true",
    "RECV, 0, 1000, 100, 10, 1011, false",
  })
  void check_table(
      PacketDirection direction,
      long inflow,
      long outflow,
      long cv,
      int pct,
      long amount,
      boolean allowed) {
    Flow before = flow(inflow, outflow, cv);
    Quota quota = direction == SEND ? quota(pct, 50) : quota(50, pct);
    QuotaDecision d = QuotaRules.check(direction, before, quota, n(amount));

    assertEquals(allowed, d.allowed());
    assertEquals(pct, d.percent());
    assertEquals(QuotaRules.threshold(n(cv), pct), d.threshold());
    long net = direction == SEND ? outflow - inflow : inflow - outflow;
    assertEquals(n(net + amount), d.netFlowAfter());
    Flow expected =
        !allowed
            ? before
            : direction == SEND
                ? flow(inflow, outflow + amount, cv)
                : flow(inflow + amount, outflow, cv);
    assertEquals(expected, d.flow());
    if (!allowed) {
      assertSame(before, d.flow());
    }
  }

  @Test
  void sendOverThreshold_rejectsAndLeavesFlowUnchanged() {
    Flow before = flow(3, 4, 100);
    QuotaDecision d = QuotaRules.check(SEND, before, quota(10, 10), n(10));
    assertFalse(d.allowed());
    assertEquals(before, d.flow());
    assertEquals(n(11), d.netFlowAfter());
    assertEquals(n(10), d.threshold());
  }

  @Test
  void sendAndRecv_useTheirOwnPercent() {
    Quota q = new Quota(5, 20, 1);
    assertFalse(QuotaRules.check(SEND, flow(0, 0, 100), q, n(6)).allowed());
    assertTrue(QuotaRules.check(RECV, flow(0, 0, 100), q, n(6)).allowed());
    assertTrue(QuotaRules.check(RECV, flow(0, 0, 100), q, n(20)).allowed());
    assertFalse(QuotaRules.check(RECV, flow(0, 0, 100), q, n(21)).allowed());
  }

  // ---------------------------------------------------------------- amounts near 2^256

  @Test
  void amountsNear2pow256_areExactAtTheThreshold() {
    // cv = 2^256 - 1 at 100%: threshold is cv itself; net 0 + (2^256 - 1) lands exactly on it
    Flow fresh = new Flow(BigInteger.ZERO, BigInteger.ZERO, MAX);
    QuotaDecision d = QuotaRules.check(SEND, fresh, quota(100, 100), MAX);
    assertTrue(d.allowed());
    assertEquals(new Flow(BigInteger.ZERO, MAX, MAX), d.flow());

    // 50%: threshold 2^255 - 1; 2^255 is one over
    BigInteger half = BigInteger.ONE.shiftLeft(255);
    assertTrue(QuotaRules.check(RECV, fresh, quota(50, 50), half.subtract(BigInteger.ONE)).allowed());
    assertFalse(QuotaRules.check(RECV, fresh, quota(50, 50), half).allowed());
  }

  @Test
  void hugeOppositeFlow_makesRoomWithoutOverflow() {
    // inflow 2^256 - 1 and outflow 0: net outflow is -(2^256 - 1), so even at 1% a send of
    // 2^256 - 1 fits (net 0 <= threshold) and the outflow stays below 2^256.
    Flow f = new Flow(MAX, BigInteger.ZERO, n(100));
    QuotaDecision d = QuotaRules.check(SEND, f, quota(1, 1), MAX);
    assertTrue(d.allowed());
    assertEquals(new Flow(MAX, MAX, n(100)), d.flow());
  }

  @Test
  void flowReaching2pow256_withChannelValueZero_failsWithFlowOverflow() {
    Flow f = new Flow(BigInteger.ZERO, MAX, BigInteger.ZERO);
    RateLimitException e =
        assertThrows(RateLimitException.class, () -> QuotaRules.check(SEND, f, quota(10, 10), n(1)));
    assertEquals(ErrorCode.FLOW_OVERFLOW, e.code());
    assertEquals(11, e.code().code());
    assertEquals("flow overflow: outflow " + MAX + " + 1 reaches 2^256", e.getMessage());

    Flow g = new Flow(MAX.subtract(n(4)), BigInteger.ZERO, BigInteger.ZERO);
    e = assertThrows(RateLimitException.class, () -> QuotaRules.check(RECV, g, quota(10, 10), n(5)));
    assertEquals(ErrorCode.FLOW_OVERFLOW, e.code());
    assertEquals("flow overflow: inflow " + MAX.subtract(n(4)) + " + 5 reaches 2^256", e.getMessage());
    // one below the limit is still fine
    assertEquals(
        new Flow(MAX, BigInteger.ZERO, BigInteger.ZERO),
        QuotaRules.check(RECV, g, quota(10, 10), n(4)).flow());
  }

  @Test
  void flowReaching2pow256_withOppositeTrafficAndNonZeroChannelValue_failsWithFlowOverflow() {
    // net outflow is 0, so the quota allows the send, but outflow + amount reaches 2^256
    Flow f = new Flow(MAX, MAX, n(100));
    RateLimitException e =
        assertThrows(RateLimitException.class, () -> QuotaRules.check(SEND, f, quota(10, 10), n(1)));
    assertEquals(ErrorCode.FLOW_OVERFLOW, e.code());
  }

  @Test
  void rejectedAmount_isNeverAnOverflowError() {
    // an amount beyond the quota is a quota rejection (decision), not code 11
    Flow f = new Flow(BigInteger.ZERO, MAX, n(100));
    assertFalse(QuotaRules.check(SEND, f, quota(10, 10), n(1)).allowed());
  }

  // ---------------------------------------------------------------- undo

  @ParameterizedTest(name = "undo {0} of {1} from in={2} out={3} -> in={4} out={5}")
  @CsvSource({
    "SEND, 5, 0, 12, 0, 7",
    "SEND, 12, 0, 12, 0, 0",
    "SEND, 13, 0, 12, 0, 0", // clamped at 0
    "SEND, 5, 9, 0, 9, 0", // clamped at 0, the other side untouched
    "RECV, 5, 16, 12, 11, 12",
    "RECV, 99, 16, 12, 0, 12", // clamped at 0
    "RECV, 0, 16, 12, 16, 12",
  })
  void undo_subtractsAndClampsAtZero(
      PacketDirection direction, long amount, long in, long out, long expIn, long expOut) {
    assertEquals(
        flow(expIn, expOut, 100), QuotaRules.undo(direction, flow(in, out, 100), n(amount)));
  }

  // ---------------------------------------------------------------- caller mistakes

  @Test
  void amountOutOfRange_isIllegalArgument() {
    Flow f = flow(0, 0, 100);
    Quota q = quota(10, 10);
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.check(SEND, f, q, Amounts.LIMIT));
    assertThrows(
        IllegalArgumentException.class,
        () -> QuotaRules.check(RECV, f, q, Amounts.LIMIT.add(BigInteger.TEN)));
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.check(SEND, f, q, n(-1)));
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.undo(SEND, f, Amounts.LIMIT));
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.undo(RECV, f, n(-1)));
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.check(SEND, f, q, null));
  }

  @Test
  void flowValuesOutOfRange_areRefusedByFlow() {
    assertThrows(IllegalArgumentException.class, () -> new Flow(n(-1), n(0), n(0)));
    assertThrows(IllegalArgumentException.class, () -> new Flow(n(0), Amounts.LIMIT, n(0)));
    assertThrows(IllegalArgumentException.class, () -> new Flow(n(0), n(0), Amounts.LIMIT));
  }

  // ---------------------------------------------------------------- property

  /**
   * {@code check} agrees with the floor definition on seeded random cases of every scale.
   *
   * <p>The oracle is the SPEC's floor threshold, computed independently with divideAndRemainder.
   * For an integer n and real x, {@code n > floor(x)} iff {@code n > x}, so the cross-multiplied
   * form {@code (net + amount) * 100 > cv * pct} is asserted to agree too (it is the same rule,
   * not a different one). What is NOT the same is the percentage form of the original README
   * evaluated in integers, {@code floor((net + amount) * 100 / cv) > pct}: with cv = 99, pct = 10
   * and amount 10 it gives floor(1000 / 99) = 10, not > 10, and would accept what the floor
   * threshold (9) rejects. See {@link #truncatedPercentForm_differsFromFloorThreshold()}.
   */
  @Test
  void check_agreesWithFloorDefinition_onSeededRandomCases() {
    Random random = new Random(20240101L);
    int overflows = 0;
    int accepted = 0;
    int rejected = 0;
    for (int i = 0; i < 5000; i++) {
      PacketDirection direction = random.nextBoolean() ? SEND : RECV;
      BigInteger cv = randomAmount(random);
      int pct = random.nextInt(8) == 0 ? (random.nextBoolean() ? 0 : 100) : random.nextInt(101);
      BigInteger inflow = randomAmount(random);
      BigInteger outflow = randomAmount(random);
      Flow f = new Flow(inflow, outflow, cv);
      BigInteger net = direction == SEND ? outflow.subtract(inflow) : inflow.subtract(outflow);

      BigInteger[] qr = cv.multiply(n(pct)).divideAndRemainder(n(100));
      BigInteger floorThreshold = qr[0];
      BigInteger amount;
      if (random.nextBoolean()) {
        // aim at the boundary: threshold - net + {-1, 0, +1}, when that is a valid amount
        BigInteger aim = floorThreshold.subtract(net).add(n(random.nextInt(3) - 1));
        amount = Amounts.inRange(aim) ? aim : randomAmount(random);
      } else {
        amount = randomAmount(random);
      }

      BigInteger netAfter = net.add(amount);
      boolean exceedsFloor = cv.signum() != 0 && netAfter.compareTo(floorThreshold) > 0;
      boolean exceedsCross =
          cv.signum() != 0 && netAfter.multiply(n(100)).compareTo(cv.multiply(n(pct))) > 0;
      assertEquals(exceedsFloor, exceedsCross, "lemma n > floor(x) <=> n > x, case " + i);

      BigInteger counted = direction == SEND ? outflow : inflow;
      boolean overflow = !exceedsFloor && counted.add(amount).compareTo(Amounts.LIMIT) >= 0;
      Quota q = direction == SEND ? new Quota(pct, 100, 1) : new Quota(100, pct, 1);
      String where = "case " + i + ": " + direction + " " + f + " pct=" + pct + " amount=" + amount;
      if (overflow) {
        overflows++;
        RateLimitException e =
            assertThrows(RateLimitException.class, () -> QuotaRules.check(direction, f, q, amount), where);
        assertEquals(ErrorCode.FLOW_OVERFLOW, e.code(), where);
        continue;
      }
      QuotaDecision d = QuotaRules.check(direction, f, q, amount);
      assertEquals(!exceedsFloor, d.allowed(), where);
      assertEquals(floorThreshold, d.threshold(), where);
      assertEquals(netAfter, d.netFlowAfter(), where);
      if (d.allowed()) {
        accepted++;
        Flow expected =
            direction == SEND
                ? new Flow(inflow, outflow.add(amount), cv)
                : new Flow(inflow.add(amount), outflow, cv);
        assertEquals(expected, d.flow(), where);
      } else {
        rejected++;
        assertEquals(f, d.flow(), where);
      }
    }
    // the generator reaches every outcome
    assertTrue(accepted > 500, "accepted " + accepted);
    assertTrue(rejected > 500, "rejected " + rejected);
    assertTrue(overflows > 10, "overflows " + overflows);
  }

  /**
   * The check's shortcuts (a net of at most 0; a net 8 bits shorter than the channel value) agree
   * with the floor definition where they switch on and off: channel values and nets at and next to
   * powers of two, their bit lengths 6 to 10 apart, every percent.
   */
  @Test
  void exceeds_agreesWithFloorDefinition_atTheShortcutsEdges() {
    int exceeding = 0;
    int within = 0;
    for (int k = 11; k <= 300; k += k < 40 ? 1 : 37) {
      for (int dcv = -1; dcv <= 1; dcv++) {
        BigInteger cv = BigInteger.ONE.shiftLeft(k).add(n(dcv));
        for (int j = k - 10; j <= k - 6; j++) {
          for (int dnet = -1; dnet <= 1; dnet++) {
            BigInteger net = BigInteger.ONE.shiftLeft(j).add(n(dnet));
            for (int pct = 0; pct <= 100; pct++) {
              BigInteger threshold = cv.multiply(n(pct)).divide(n(100));
              boolean expected = net.compareTo(threshold) > 0;
              assertEquals(expected, QuotaRules.exceeds(net, cv, pct),
                  "cv=2^" + k + "+" + dcv + " net=2^" + j + "+" + dnet + " pct=" + pct);
              assertFalse(QuotaRules.exceeds(net.negate(), cv, pct));
              exceeding += expected ? 1 : 0;
              within += expected ? 0 : 1;
            }
          }
        }
      }
    }
    assertFalse(QuotaRules.exceeds(BigInteger.ZERO, BigInteger.ONE, 0));
    assertTrue(QuotaRules.exceeds(BigInteger.ONE, BigInteger.ONE.shiftLeft(256), 0));
    // both answers on both sides of the 8-bit edge: pct 0 and 1 exceed, larger ones do not
    assertTrue(exceeding > 1_000 && within > 10_000, exceeding + " exceeding, " + within + " within");
  }

  @Test
  void truncatedPercentForm_differsFromFloorThreshold() {
    BigInteger cv = n(99);
    BigInteger amount = n(10);
    int pct = 10;
    boolean percentFormExceeds = amount.multiply(n(100)).divide(cv).compareTo(n(pct)) > 0;
    assertFalse(percentFormExceeds); // floor(1000 / 99) = 10, not > 10
    assertFalse(QuotaRules.check(SEND, new Flow(n(0), n(0), cv), quota(pct, pct), amount).allowed());
    assertNotEquals(percentFormExceeds, !QuotaRules.check(SEND, new Flow(n(0), n(0), cv), quota(pct, pct), amount).allowed());
  }

  /** Small values, mid-size values, or values close to 2^256, each with fair probability. */
  private static BigInteger randomAmount(Random random) {
    switch (random.nextInt(6)) {
      case 0:
        return BigInteger.ZERO;
      case 1:
        return n(random.nextInt(200));
      case 2:
        return n(random.nextInt(1_000_000));
      case 3:
        return new BigInteger(1 + random.nextInt(128), random);
      case 4:
        return new BigInteger(256, random);
      default:
        return MAX.subtract(n(random.nextInt(1000)));
    }
  }

  /**
   * The long shortcut never disagrees with {@link QuotaRules#check}: where it answers, check
   * accepts with exactly that flow; where check rejects, it answers -1. Seeded cases cluster on
   * the threshold (net landing one below, on and one above it), the 63- to 71-bit channel values
   * around its own limits and the percents 0, 1, 99 and 100.
   */
  @Test
  void addIfWithin_agreesWithCheck() {
    Random r = new Random(0x5C_2026_1121L);
    int answered = 0;
    int rejectedByCheck = 0;
    for (int i = 0; i < 200_000; i++) {
      PacketDirection dir = r.nextBoolean() ? SEND : RECV;
      int pct = switch (r.nextInt(6)) {
        case 0 -> 0;
        case 1 -> 1;
        case 2 -> 99;
        case 3 -> 100;
        default -> r.nextInt(101);
      };
      int cvBits = switch (r.nextInt(4)) {
        case 0 -> 60 + r.nextInt(14); // 60..73: the shortcut's edges
        case 1 -> r.nextInt(8);
        default -> r.nextInt(75);
      };
      BigInteger cv = cvBits == 0 ? BigInteger.ZERO : new BigInteger(cvBits, r).setBit(cvBits - 1);
      long inflow = shortcutValue(r);
      long outflow = shortcutValue(r);
      long amount = shortcutValue(r);
      if (r.nextInt(3) == 0) { // aim the net flow at the threshold: -1, 0 or +1 from it
        BigInteger threshold = QuotaRules.threshold(cv, pct);
        long other = dir == SEND ? inflow : outflow;
        long own = dir == SEND ? outflow : inflow;
        BigInteger want = threshold.add(BigInteger.valueOf(r.nextInt(3) - 1))
            .add(BigInteger.valueOf(other)).subtract(BigInteger.valueOf(own));
        if (want.signum() >= 0 && want.compareTo(BigInteger.valueOf(QuotaRules.SHORTCUT_LIMIT)) < 0) {
          amount = want.longValue();
        }
      }
      Flow flow = new Flow(BigInteger.valueOf(inflow), BigInteger.valueOf(outflow), cv);
      Quota quota = dir == SEND ? new Quota(pct, 50, 1) : new Quota(50, pct, 1);
      QuotaDecision exact = QuotaRules.check(dir, flow, quota, BigInteger.valueOf(amount));
      long fast = QuotaRules.addIfWithin(
          dir, inflow, outflow, amount, cv.bitLength(), cv.bitLength() <= 63 ? cv.longValue() : 0, pct);
      String what = dir + " " + flow + " pct " + pct + " amount " + amount;
      if (fast >= 0) {
        answered++;
        assertTrue(exact.allowed(), what);
        BigInteger expected = dir == SEND ? exact.flow().outflow() : exact.flow().inflow();
        assertEquals(expected, BigInteger.valueOf(fast), what);
      }
      if (!exact.allowed()) {
        rejectedByCheck++;
        assertEquals(-1, fast, what);
      } else if (cv.bitLength() < 64 || cv.bitLength() > 70 || exact.netFlowAfter().signum() <= 0) {
        assertTrue(fast >= 0, "not answered: " + what); // only those channel values are left open
      }
    }
    assertTrue(answered > 80_000, "answered " + answered);
    assertTrue(rejectedByCheck > 50_000, "rejected " + rejectedByCheck);
  }

  /** The extremes: flows and amounts at 0, 1 and just below 2^62, channel values of 0-72 bits. */
  @Test
  void addIfWithin_agreesWithCheckAtTheExtremes() {
    long top = QuotaRules.SHORTCUT_LIMIT - 1;
    long[] values = {0, 1, 1L << 61, top - 1, top};
    int checked = 0;
    for (int bits = 0; bits <= 72; bits++) {
      BigInteger low = bits == 0 ? BigInteger.ZERO : BigInteger.ONE.shiftLeft(bits - 1);
      BigInteger high = BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE);
      for (BigInteger cv : new BigInteger[] {low, high}) {
        for (int pct : new int[] {0, 1, 2, 50, 99, 100}) {
          for (long own : values) {
            for (long other : values) {
              for (long amount : values) {
                for (PacketDirection dir : PacketDirection.values()) {
                  long in = dir == SEND ? other : own;
                  long out = dir == SEND ? own : other;
                  Flow flow = new Flow(BigInteger.valueOf(in), BigInteger.valueOf(out), cv);
                  Quota quota = dir == SEND ? new Quota(pct, 50, 1) : new Quota(50, pct, 1);
                  QuotaDecision exact = QuotaRules.check(dir, flow, quota, BigInteger.valueOf(amount));
                  long fast = QuotaRules.addIfWithin(
                      dir, in, out, amount, bits, bits <= 63 ? cv.longValue() : 0, pct);
                  String what = dir + " " + flow + " pct " + pct + " amount " + amount;
                  if (exact.allowed()
                      && (bits < 64 || bits > 70 || exact.netFlowAfter().signum() <= 0)) {
                    BigInteger expected = dir == SEND ? exact.flow().outflow() : exact.flow().inflow();
                    assertEquals(expected, BigInteger.valueOf(fast), what);
                  } else if (!exact.allowed()) {
                    assertEquals(-1, fast, what);
                  } else {
                    assertTrue(fast == -1 || BigInteger.valueOf(fast).equals(
                        dir == SEND ? exact.flow().outflow() : exact.flow().inflow()), what);
                  }
                  checked++;
                }
              }
            }
          }
        }
      }
    }
    assertEquals(73 * 2 * 6 * 125 * 2, checked);
  }

  @Test
  void addIfWithin_refusesValuesOutsideItsRange() {
    long limit = QuotaRules.SHORTCUT_LIMIT;
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.addIfWithin(SEND, limit, 0, 0, 1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.addIfWithin(SEND, 0, -1, 0, 1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.addIfWithin(SEND, 0, limit, 0, 1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.addIfWithin(SEND, 0, 0, -1, 1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.addIfWithin(SEND, 0, 0, 0, 1, 1, -1));
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.addIfWithin(RECV, 0, 0, limit, 1, 1, 1));
    assertThrows(IllegalArgumentException.class, () -> QuotaRules.addIfWithin(RECV, 0, 0, 0, 1, 1, 101));
    assertEquals(limit - 1, QuotaRules.addIfWithin(RECV, limit - 1, 0, 0, 0, 0, 0));
  }

  /** Below 2^62: mostly small, sometimes near the top. */
  private static long shortcutValue(Random r) {
    int bits = r.nextInt(5) == 0 ? 55 + r.nextInt(8) : r.nextInt(45);
    return bits == 0 ? 0 : (r.nextLong() >>> (64 - bits));
  }
}
