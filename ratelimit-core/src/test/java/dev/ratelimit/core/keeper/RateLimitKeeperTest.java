package dev.ratelimit.core.keeper;

import static dev.ratelimit.core.model.PacketDirection.RECV;
import static dev.ratelimit.core.model.PacketDirection.SEND;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.RateLimitedPacket;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.store.StorageException;
import dev.ratelimit.core.testing.StoreEngine;
import dev.ratelimit.core.testing.TestChain;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The keeper's state transitions, queries and window resets, on both store engines. Every
 * failure is asserted by code, and a failure must leave the store digest unchanged.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreEngine.class)
class RateLimitKeeperTest {
  /** Genesis at 06:30 UTC: epoch 6, started 06:00 (SPEC §7 remaining-capacity example). */
  private static final Instant GENESIS = Instant.parse("2024-01-01T06:30:00Z");

  private static final BigInteger MAX = Amounts.LIMIT.subtract(BigInteger.ONE);
  private static final String SENDER = "stride1sender";
  private static final String RECEIVER = "osmo1receiver";

  @Parameter StoreEngine engine;
  @TempDir java.nio.file.Path tempDir;

  private TestChain chain;
  private RateLimitKeeper keeper;

  @BeforeEach
  void setUp() {
    chain = TestChain.open(engine, tempDir, GENESIS);
    keeper = chain.keeper();
    chain.channels()
        .add("channel-1", "osmosis-1")
        .add("channel-2", "osmosis-1")
        .add("channel-11", "juno-1")
        .add("07-tendermint-0", "cosmoshub-4");
    chain.initGenesis(Genesis.empty());
  }

  @AfterEach
  void tearDown() {
    chain.close();
  }

  // ---------------------------------------------------------------- helpers

  private BlockContext ctx() {
    return chain.ctx();
  }

  private static BigInteger n(long v) {
    return BigInteger.valueOf(v);
  }

  private static Path path(String denom, String channel) {
    return new Path(denom, channel);
  }

  private static Flow flow(long in, long out, long cv) {
    return new Flow(n(in), n(out), n(cv));
  }

  private RateLimit add(String denom, String channel, int send, int recv, long hours, long supply) {
    chain.bank().set(denom, supply);
    return keeper.addRateLimit(ctx(), path(denom, channel), new Quota(send, recv, hours));
  }

  private static RateLimitedPacket packet(String channel, String denom, long amount) {
    return new RateLimitedPacket(channel, denom, n(amount), SENDER, RECEIVER);
  }

  private boolean check(PacketDirection direction, String channel, String denom, long amount) {
    return keeper.checkRateLimitAndUpdateFlow(ctx(), direction, packet(channel, denom, amount));
  }

  private Flow flowOf(String denom, String channel) {
    return keeper.getRateLimit(ctx(), path(denom, channel)).orElseThrow().flow();
  }

  private static PendingPacket pending(String channel, String denom, long sequence) {
    return new PendingPacket(channel, denom, sequence);
  }

  /** Runs a failing step and proves it changed nothing in the store. */
  private RateLimitException assertFailsUnchanged(ErrorCode code, Executable step) {
    String before = chain.digest();
    RateLimitException e = assertThrows(RateLimitException.class, step);
    assertEquals(code, e.code());
    assertEquals(before, chain.digest(), "a failed step must leave the store unchanged");
    return e;
  }

  private static void assertAttributes(Event e, String... keyValues) {
    for (int i = 0; i < keyValues.length; i += 2) {
      assertEquals(
          Optional.of(keyValues[i + 1]), e.attribute(keyValues[i]), "attribute " + keyValues[i]);
    }
  }

  // ---------------------------------------------------------------- set / get / remove / list

  @Test
  void setGetReplaceRemove_roundTripsAndLeavesNoRows() {
    String empty = chain.digest();
    Path p = path("uatom", "channel-1");
    assertEquals(Optional.empty(), keeper.getRateLimit(ctx(), p));
    assertFalse(keeper.hasRateLimit(ctx(), p));

    RateLimit rl = new RateLimit(p, new Quota(10, 20, 24), flow(1, 2, 3));
    keeper.setRateLimit(ctx(), rl);
    assertEquals(Optional.of(rl), keeper.getRateLimit(ctx(), p));
    assertTrue(keeper.hasRateLimit(ctx(), p));

    RateLimit replaced = new RateLimit(p, new Quota(5, 0, 1), flow(0, 7, 300));
    keeper.setRateLimit(ctx(), replaced);
    assertEquals(Optional.of(replaced), keeper.getRateLimit(ctx(), p));
    assertEquals(List.of(replaced), keeper.getAllRateLimits(ctx()));

    keeper.removeRateLimit(ctx(), p);
    assertEquals(Optional.empty(), keeper.getRateLimit(ctx(), p));
    assertEquals(List.of(), keeper.getAllRateLimits(ctx()));
    // no quota, flow or reset-schedule row is left behind (also not for the replaced duration)
    assertEquals(empty, chain.digest());
  }

  @Test
  void getAllRateLimits_isInCanonicalOrder_channelThenDenom_unsignedUtf8() {
    List<Path> canonical =
        List.of(
            path("uatom", "07-tendermint-0"),
            path("ibc/ABC", "channel-1"),
            path("uatom", "channel-1"),
            path("\uff61denom", "channel-1"), // EF BD A1 ...
            path("\ud800\udc00denom", "channel-1"), // F0 90 80 80 ...: after, unlike UTF-16 order
            path("uatom", "channel-10"),
            path("uatom", "channel-2"));
    for (int i = canonical.size() - 1; i >= 0; i--) {
      keeper.setRateLimit(ctx(), new RateLimit(canonical.get(i), new Quota(1, 1, 1), flow(0, 0, i)));
    }
    assertEquals(canonical, keeper.getAllRateLimits(ctx()).stream().map(RateLimit::path).toList());
    assertEquals(
        List.of(path("ibc/ABC", "channel-1"), path("uatom", "channel-1"),
            path("\uff61denom", "channel-1"), path("\ud800\udc00denom", "channel-1")),
        keeper.getRateLimitsByChannelOrClient(ctx(), "channel-1").stream()
            .map(RateLimit::path)
            .toList());
  }

  // ---------------------------------------------------------------- add

  @Test
  void addRateLimit_startsFreshWindowWithCurrentSupply() {
    RateLimit rl = add("uatom", "channel-1", 10, 20, 24, 1000);
    RateLimit expected = new RateLimit(path("uatom", "channel-1"), new Quota(10, 20, 24), flow(0, 0, 1000));
    assertEquals(expected, rl);
    assertEquals(Optional.of(expected), keeper.getRateLimit(ctx(), path("uatom", "channel-1")));
    // a client id works like a channel id
    add("uatom", "07-tendermint-0", 5, 5, 1, 1000);
    assertTrue(keeper.hasRateLimit(ctx(), path("uatom", "07-tendermint-0")));
  }

  @Test
  void addRateLimit_clearsMarkersThePathHeldWithoutALimit_onlyThose() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "uatom", 1));
    for (long seq = 1; seq <= 2; seq++) { // e.g. imported from a Go chain that removed its limit
      keeper.setPendingSendPacket(ctx(), pending("channel-11", "uatom", seq));
      keeper.setPendingRecvPacket(ctx(), pending("channel-11", "uatom", seq));
    }

    add("uatom", "channel-11", 10, 10, 24, 1000);
    assertTrue(keeper.checkRateLimitAndUpdateFlow(
        ctx(), SEND, new RateLimitedPacket("channel-11", "uatom", n(30), "a", "b")));
    // a timeout of a packet sent before the limit existed gives nothing back
    assertFalse(keeper.undoSendPacket(ctx(), pending("channel-11", "uatom", 1), n(30)));

    assertEquals(flow(0, 30, 1000), flowOf("uatom", "channel-11"));
    assertEquals(List.of(pending("channel-1", "uatom", 1)), keeper.getAllPendingSendPackets(ctx()));
    assertEquals(List.of(), keeper.getAllPendingRecvPackets(ctx()));
  }

  @Test
  void aSupplyOf2Pow256_isCode11_whereverAChannelValueIsTaken_andChangesNothing() {
    add("uatom", "channel-1", 10, 10, 1, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 40));
    chain.bank().set("uatom", Amounts.LIMIT);
    Quota q = new Quota(5, 5, 1);

    for (Executable step : List.<Executable>of(
        () -> keeper.addRateLimit(ctx(), path("uatom", "channel-11"), q),
        () -> keeper.updateRateLimit(ctx(), path("uatom", "channel-1"), q),
        () -> keeper.resetRateLimit(ctx(), path("uatom", "channel-1")))) {
      RateLimitException e = assertFailsUnchanged(ErrorCode.FLOW_OVERFLOW, step);
      assertTrue(e.getMessage().endsWith("a channel value must stay below 2^256"), e.getMessage());
    }
    String before = chain.digest();
    RateLimitException atReset = assertThrows(RateLimitException.class,
        () -> chain.beginBlock(Instant.parse("2024-01-01T07:00:01Z")));
    assertEquals(ErrorCode.FLOW_OVERFLOW, atReset.code());
    assertEquals(before, chain.digest(), "the block's epoch and resets are not half-written");

    chain.bank().set("uatom", Amounts.LIMIT.subtract(BigInteger.ONE)); // the largest a bank holds
    chain.beginBlock(Instant.parse("2024-01-01T07:00:02Z"));
    assertEquals(new Flow(BigInteger.ZERO, BigInteger.ZERO, Amounts.LIMIT.subtract(BigInteger.ONE)),
        flowOf("uatom", "channel-1"));
  }

  @Test
  void addRateLimit_errorsInOrder_zeroSupplyThenExistsThenChannelNotFound() {
    // an existing limit on a channel that no longer exists, with zero supply: all three apply
    keeper.setRateLimit(
        ctx(), new RateLimit(path("uatom", "channel-9"), new Quota(10, 10, 24), flow(0, 0, 50)));
    Quota q = new Quota(10, 10, 24);
    chain.bank().set("uatom", 0);
    assertFailsUnchanged(
        ErrorCode.ZERO_CHANNEL_VALUE, () -> keeper.addRateLimit(ctx(), path("uatom", "channel-9"), q));

    chain.bank().set("uatom", 1000);
    assertFailsUnchanged(
        ErrorCode.RATE_LIMIT_ALREADY_EXISTS,
        () -> keeper.addRateLimit(ctx(), path("uatom", "channel-9"), q));

    assertFailsUnchanged(
        ErrorCode.CHANNEL_NOT_FOUND, () -> keeper.addRateLimit(ctx(), path("uatom", "channel-8"), q));

    // zero supply is checked before a missing channel too
    chain.bank().set("ufoo", 0);
    assertFailsUnchanged(
        ErrorCode.ZERO_CHANNEL_VALUE, () -> keeper.addRateLimit(ctx(), path("ufoo", "channel-8"), q));
  }

  // ---------------------------------------------------------------- update

  @Test
  void updateRateLimit_notFound_isCode2AndChangesNothing() {
    chain.bank().set("uatom", 1000);
    assertFailsUnchanged(
        ErrorCode.RATE_LIMIT_NOT_FOUND,
        () -> keeper.updateRateLimit(ctx(), path("uatom", "channel-1"), new Quota(1, 1, 1)));
  }

  @Test
  void updateRateLimit_replacesQuota_freshFlowWithNewSupply_clearsThatPathsMarkersOnly() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    add("ustrd", "channel-1", 10, 10, 24, 1000);
    add("uatom", "channel-11", 10, 10, 24, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 50));
    assertTrue(check(RECV, "channel-1", "uatom", 20));
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "uatom", 1));
    keeper.setPendingRecvPacket(ctx(), pending("channel-1", "uatom", 2));
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "ustrd", 3));
    keeper.setPendingSendPacket(ctx(), pending("channel-11", "uatom", 4));
    keeper.setPendingRecvPacket(ctx(), pending("channel-11", "uatom", 5));

    chain.bank().set("uatom", 1200);
    RateLimit updated = keeper.updateRateLimit(ctx(), path("uatom", "channel-1"), new Quota(5, 7, 1));

    RateLimit expected = new RateLimit(path("uatom", "channel-1"), new Quota(5, 7, 1), flow(0, 0, 1200));
    assertEquals(expected, updated);
    assertEquals(Optional.of(expected), keeper.getRateLimit(ctx(), path("uatom", "channel-1")));
    assertEquals(
        List.of(pending("channel-1", "ustrd", 3), pending("channel-11", "uatom", 4)),
        keeper.getAllPendingSendPackets(ctx()));
    assertEquals(List.of(pending("channel-11", "uatom", 5)), keeper.getAllPendingRecvPackets(ctx()));

    // the new 1-hour duration is scheduled: the next hour resets it, the 24h neighbours stay
    assertTrue(check(SEND, "channel-1", "uatom", 10));
    assertTrue(check(SEND, "channel-1", "ustrd", 10));
    chain.beginBlock(Instant.parse("2024-01-01T07:00:01Z"));
    assertEquals(flow(0, 0, 1200), flowOf("uatom", "channel-1"));
    assertEquals(flow(0, 10, 1000), flowOf("ustrd", "channel-1"));
  }

  @Test
  void updateOrReset_withZeroSupply_keepsPreviousChannelValueAndEmits() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 50));
    chain.bank().set("uatom", 0);
    chain.events().clear();

    assertEquals(flow(0, 0, 1000), keeper.updateRateLimit(ctx(), path("uatom", "channel-1"), new Quota(20, 20, 24)).flow());
    assertTrue(check(SEND, "channel-1", "uatom", 200));
    assertEquals(flow(0, 0, 1000), keeper.resetRateLimit(ctx(), path("uatom", "channel-1")).flow());
    assertEquals(flow(0, 0, 1000), flowOf("uatom", "channel-1"));

    List<Event> kept = chain.events().ofType(RateLimitEvents.CHANNEL_VALUE_KEPT);
    assertEquals(2, kept.size());
    assertEquals(
        Event.of(RateLimitEvents.CHANNEL_VALUE_KEPT,
            "module", "ratelimit", "denom", "uatom", "channel_or_client", "channel-1",
            "channel_value", "1000"),
        kept.get(0));
  }

  // ---------------------------------------------------------------- reset

  @Test
  void resetRateLimit_notFound_isCode2AndChangesNothing() {
    assertFailsUnchanged(
        ErrorCode.RATE_LIMIT_NOT_FOUND, () -> keeper.resetRateLimit(ctx(), path("uatom", "channel-1")));
  }

  @Test
  void resetRateLimit_freshFlowWithSupply_keepsQuota_clearsThatPathsMarkersOnly() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    add("ustrd", "channel-1", 10, 10, 24, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 40));
    assertTrue(check(RECV, "channel-1", "uatom", 30));
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "uatom", 1));
    keeper.setPendingRecvPacket(ctx(), pending("channel-1", "uatom", 1));
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "ustrd", 1));
    keeper.setPendingRecvPacket(ctx(), pending("channel-1", "ustrd", 2));
    chain.bank().set("uatom", 900);

    RateLimit reset = keeper.resetRateLimit(ctx(), path("uatom", "channel-1"));

    RateLimit expected = new RateLimit(path("uatom", "channel-1"), new Quota(10, 10, 24), flow(0, 0, 900));
    assertEquals(expected, reset);
    assertEquals(Optional.of(expected), keeper.getRateLimit(ctx(), path("uatom", "channel-1")));
    assertEquals(List.of(pending("channel-1", "ustrd", 1)), keeper.getAllPendingSendPackets(ctx()));
    assertEquals(List.of(pending("channel-1", "ustrd", 2)), keeper.getAllPendingRecvPackets(ctx()));
  }

  // ---------------------------------------------------------------- remove

  @Test
  void removeRateLimit_clearsThatPathsMarkersOnly() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    add("ustrd", "channel-1", 10, 10, 24, 1000);
    add("uatom", "channel-11", 10, 10, 24, 1000);
    for (long seq = 1; seq <= 3; seq++) {
      keeper.setPendingSendPacket(ctx(), pending("channel-1", "uatom", seq));
      keeper.setPendingRecvPacket(ctx(), pending("channel-1", "uatom", seq));
    }
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "ustrd", 1));
    keeper.setPendingRecvPacket(ctx(), pending("channel-1", "ustrd", 1));
    keeper.setPendingSendPacket(ctx(), pending("channel-11", "uatom", 1));
    keeper.setPendingRecvPacket(ctx(), pending("channel-11", "uatom", 1));

    keeper.removeRateLimit(ctx(), path("uatom", "channel-1"));

    assertFalse(keeper.hasRateLimit(ctx(), path("uatom", "channel-1")));
    assertEquals(
        List.of(path("ustrd", "channel-1"), path("uatom", "channel-11")),
        keeper.getAllRateLimits(ctx()).stream().map(RateLimit::path).toList());
    List<PendingPacket> others = List.of(pending("channel-1", "ustrd", 1), pending("channel-11", "uatom", 1));
    assertEquals(others, keeper.getAllPendingSendPackets(ctx()));
    assertEquals(others, keeper.getAllPendingRecvPackets(ctx()));
  }

  @Test
  void removeRateLimit_absent_isNoOp() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    String before = chain.digest();
    keeper.removeRateLimit(ctx(), path("uatom", "channel-11"));
    keeper.removeRateLimit(ctx(), path("uato", "channel-1"));
    assertEquals(before, chain.digest());
  }

  // ---------------------------------------------------------------- pending markers

  @Test
  void pendingMarkers_setRemoveList_sendAndRecvAreSeparateTables() {
    List<PendingPacket> canonical =
        List.of(
            pending("07-tendermint-0", "uatom", 1),
            pending("channel-1", "uatom", 2),
            pending("channel-1", "uatom", 10),
            pending("channel-1", "uatom", Long.MIN_VALUE), // 2^63 sorts after 10
            pending("channel-1", "ustrd", 1),
            pending("channel-11", "uatom", 1));
    for (int i = canonical.size() - 1; i >= 0; i--) {
      keeper.setPendingSendPacket(ctx(), canonical.get(i));
    }
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "uatom", 2)); // idempotent
    assertEquals(canonical, keeper.getAllPendingSendPackets(ctx()));
    assertEquals(List.of(), keeper.getAllPendingRecvPackets(ctx()));
    assertEquals(
        List.of(pending("channel-1", "uatom", 2), pending("channel-1", "uatom", 10),
            pending("channel-1", "uatom", Long.MIN_VALUE)),
        keeper.getPendingSendPackets(ctx(), path("uatom", "channel-1")));
    assertTrue(keeper.isPendingSendPacket(ctx(), pending("channel-1", "uatom", 10)));
    assertFalse(keeper.isPendingRecvPacket(ctx(), pending("channel-1", "uatom", 10)));

    keeper.removePendingSendPacket(ctx(), pending("channel-1", "uatom", 10));
    assertFalse(keeper.isPendingSendPacket(ctx(), pending("channel-1", "uatom", 10)));
    keeper.removePendingSendPacket(ctx(), pending("channel-1", "uatom", 10)); // absent: a no-op
    assertFalse(keeper.isPendingSendPacket(ctx(), pending("channel-1", "uatom", 10)));

    keeper.setPendingRecvPacket(ctx(), pending("channel-1", "uatom", 3));
    assertTrue(keeper.isPendingRecvPacket(ctx(), pending("channel-1", "uatom", 3)));
    assertFalse(keeper.isPendingSendPacket(ctx(), pending("channel-1", "uatom", 3)));
    assertEquals(List.of(pending("channel-1", "uatom", 3)), keeper.getAllPendingRecvPackets(ctx()));
    assertEquals(
        List.of(pending("channel-1", "uatom", 3)),
        keeper.getPendingRecvPackets(ctx(), path("uatom", "channel-1")));
    keeper.removePendingRecvPacket(ctx(), pending("channel-1", "uatom", 2)); // absent: a no-op
    assertEquals(1, keeper.getAllPendingRecvPackets(ctx()).size());
    keeper.removePendingRecvPacket(ctx(), pending("channel-1", "uatom", 3));
    assertEquals(List.of(), keeper.getAllPendingRecvPackets(ctx()));
    assertEquals(5, keeper.getAllPendingSendPackets(ctx()).size());
  }

  /** The middleware's fast path records the same markers as setPending*, and refuses sequence 0. */
  @Test
  void countedPackets_markersEqualThoseOfSetPending_sequenceZeroRefused() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    RateLimitedPacket counted = packet("channel-1", "uatom", 5);
    assertTrue(keeper.checkRateLimitAndUpdateFlow(ctx(), SEND, counted));
    keeper.setCountedSendPacket(ctx(), counted, 7);
    keeper.setCountedRecvPacket(ctx(), counted, -1L); // 2^64 - 1
    assertEquals(List.of(pending("channel-1", "uatom", 7)), keeper.getAllPendingSendPackets(ctx()));
    assertEquals(List.of(pending("channel-1", "uatom", -1L)), keeper.getAllPendingRecvPackets(ctx()));
    String withMarkers = chain.digest();
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "uatom", 7));
    keeper.setPendingRecvPacket(ctx(), pending("channel-1", "uatom", -1L));
    assertEquals(withMarkers, chain.digest(), "the same keys and values");

    for (Executable zero : List.<Executable>of(
        () -> keeper.setCountedSendPacket(ctx(), counted, 0),
        () -> keeper.setCountedRecvPacket(ctx(), counted, 0))) {
      assertEquals("sequence must be at least 1",
          assertThrows(IllegalArgumentException.class, zero).getMessage());
    }
    assertEquals(withMarkers, chain.digest());
  }

  @Test
  void pathMarkers_areExact_evenForDenomsThatExtendAnotherWithAZeroByte() {
    // "a" encodes as 61 00 and "a\0b" as 61 00 FF 62 00: the second is inside the first's prefix
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "a", 1));
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "a", -1L));
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "a\0b", 2));
    keeper.setPendingRecvPacket(ctx(), pending("channel-1", "a\0", 3));
    keeper.setPendingRecvPacket(ctx(), pending("channel-1", "a", 4));

    assertEquals(
        List.of(pending("channel-1", "a", 1), pending("channel-1", "a", -1L)),
        keeper.getPendingSendPackets(ctx(), path("a", "channel-1")));
    assertEquals(
        List.of(pending("channel-1", "a", 4)), keeper.getPendingRecvPackets(ctx(), path("a", "channel-1")));

    keeper.removeAllPendingPackets(ctx(), path("a", "channel-1"));
    assertEquals(List.of(pending("channel-1", "a\0b", 2)), keeper.getAllPendingSendPackets(ctx()));
    assertEquals(List.of(pending("channel-1", "a\0", 3)), keeper.getAllPendingRecvPackets(ctx()));
  }

  // ---------------------------------------------------------------- blacklist

  @Test
  void blacklist_addListRemove_canonicalAndIdempotent() {
    keeper.addDenomToBlacklist(ctx(), "ustrd");
    keeper.addDenomToBlacklist(ctx(), "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2");
    keeper.addDenomToBlacklist(ctx(), "uatom");
    keeper.addDenomToBlacklist(ctx(), "uatom");
    assertEquals(
        List.of("ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2", "uatom", "ustrd"),
        keeper.getAllBlacklistedDenoms(ctx()));
    assertTrue(keeper.isDenomBlacklisted(ctx(), "uatom"));
    assertFalse(keeper.isDenomBlacklisted(ctx(), "uato"));
    keeper.removeDenomFromBlacklist(ctx(), "uatom");
    keeper.removeDenomFromBlacklist(ctx(), "uatom");
    assertEquals(
        List.of("ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2", "ustrd"),
        keeper.getAllBlacklistedDenoms(ctx()));
    assertThrows(IllegalArgumentException.class, () -> keeper.addDenomToBlacklist(ctx(), ""));
  }

  @Test
  void blacklistedDenom_isRejectedBothWays_evenWithoutRateLimit_andEmitsTransferDenied() {
    keeper.addDenomToBlacklist(ctx(), "uatom");
    chain.events().clear();

    assertFailsUnchanged(ErrorCode.DENOM_BLACKLISTED, () -> check(SEND, "channel-1", "uatom", 5));
    assertFailsUnchanged(ErrorCode.DENOM_BLACKLISTED, () -> check(RECV, "channel-11", "uatom", 7));

    List<Event> denied = chain.events().ofType(RateLimitEvents.TRANSFER_DENIED);
    assertEquals(2, denied.size());
    assertEquals(
        List.of("module", "reason", "action", "denom", "channel_or_client", "amount", "error"),
        denied.get(0).attributes().stream().map(Event.Attribute::key).toList());
    assertAttributes(denied.get(0),
        "module", "ratelimit", "reason", "blacklisted_denom", "action", "packet_send",
        "denom", "uatom", "channel_or_client", "channel-1", "amount", "5");
    assertAttributes(denied.get(1),
        "module", "ratelimit", "reason", "blacklisted_denom", "action", "packet_recv",
        "denom", "uatom", "channel_or_client", "channel-11", "amount", "7");
    assertFalse(denied.get(0).attribute("error").orElseThrow().isEmpty());

    keeper.removeDenomFromBlacklist(ctx(), "uatom");
    assertFalse(check(SEND, "channel-1", "uatom", 5));
  }

  @Test
  void blacklist_winsOverRateLimitAndWhitelist() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    keeper.setWhitelistedAddressPair(ctx(), new WhitelistedAddressPair(SENDER, RECEIVER));
    keeper.addDenomToBlacklist(ctx(), "uatom");
    assertFailsUnchanged(ErrorCode.DENOM_BLACKLISTED, () -> check(SEND, "channel-1", "uatom", 1));
    assertEquals(flow(0, 0, 1000), flowOf("uatom", "channel-1"));
  }

  @Test
  void blacklistBit_followsTheBlacklist_whicheverComesFirst_onEveryLimitOfTheDenom() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    keeper.addDenomToBlacklist(ctx(), "uatom");
    add("uatom", "channel-2", 10, 10, 24, 1000); // added while blacklisted
    add("ustrd", "channel-1", 10, 10, 24, 1000); // another denom: untouched
    for (String ch : List.of("channel-1", "channel-2")) {
      assertFailsUnchanged(ErrorCode.DENOM_BLACKLISTED, () -> check(SEND, ch, "uatom", 1));
      assertFailsUnchanged(ErrorCode.DENOM_BLACKLISTED, () -> check(RECV, ch, "uatom", 1));
    }
    assertTrue(check(SEND, "channel-1", "ustrd", 1));

    keeper.removeDenomFromBlacklist(ctx(), "uatom");
    assertTrue(check(SEND, "channel-1", "uatom", 1));
    assertTrue(check(SEND, "channel-2", "uatom", 1));
    // an update keeps the bit; a removed and re-added limit reads the blacklist again
    keeper.addDenomToBlacklist(ctx(), "uatom");
    keeper.updateRateLimit(ctx(), path("uatom", "channel-1"), new Quota(20, 20, 24));
    assertFailsUnchanged(ErrorCode.DENOM_BLACKLISTED, () -> check(SEND, "channel-1", "uatom", 1));
    keeper.removeRateLimit(ctx(), path("uatom", "channel-2"));
    add("uatom", "channel-2", 10, 10, 24, 1000);
    assertFailsUnchanged(ErrorCode.DENOM_BLACKLISTED, () -> check(SEND, "channel-2", "uatom", 1));
  }

  @Test
  void markersOfPathsWithoutARateLimit_areListedInCanonicalOrder_withTheLimitedOnes() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    List<PendingPacket> canonical = List.of(
        pending("channel-1", "a", 1), // no limit: its path is recorded beside the marker
        pending("channel-1", "a", -1L),
        pending("channel-1", "a\0", 1),
        pending("channel-1", "uatom", 3),
        pending("channel-1", "uatom", 0xFF00000000000001L),
        pending("channel-11", "\uff61", 1),
        pending("channel-11", "\ud800\udc00", 1)); // UTF-8 order, not UTF-16
    for (int i = canonical.size() - 1; i >= 0; i--) {
      keeper.setPendingSendPacket(ctx(), canonical.get(i));
      keeper.setPendingRecvPacket(ctx(), canonical.get(i));
    }
    assertEquals(canonical, keeper.getAllPendingSendPackets(ctx()));
    assertEquals(canonical, keeper.getAllPendingRecvPackets(ctx()));
    Genesis exported = keeper.exportGenesis(ctx());
    assertEquals(canonical, exported.pendingSendPackets());
    // a limit stored later on a marked path (as genesis does): listed once, through the index
    assertTrue(Schema.MARKER_PATH.has(ctx().store(), path("a", "channel-1")));
    keeper.setRateLimit(
        ctx(), new RateLimit(path("a", "channel-1"), new Quota(10, 10, 24), flow(0, 0, 1000)));
    assertFalse(Schema.MARKER_PATH.has(ctx().store(), path("a", "channel-1"))); // the index names it
    assertEquals(canonical, keeper.getAllPendingSendPackets(ctx()));
    keeper.removeRateLimit(ctx(), path("a", "channel-1")); // removes that path's markers
    assertEquals(canonical.subList(2, canonical.size()), keeper.getAllPendingSendPackets(ctx()));
  }

  /** An indexed limit whose row is gone is store corruption: every reader says so, none guesses. */
  @Test
  void anIndexedLimitWithoutItsRow_isStorageCorruption_whereverItIsRead() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    ctx().store().delete(Schema.LIMIT.key(path("uatom", "channel-1")));
    for (Executable read : List.<Executable>of(
        () -> keeper.getRateLimit(ctx(), path("uatom", "channel-1")),
        () -> keeper.getAllRateLimits(ctx()),
        () -> keeper.resetRateLimit(ctx(), path("uatom", "channel-1")),
        () -> keeper.removeRateLimit(ctx(), path("uatom", "channel-1")),
        () -> keeper.addDenomToBlacklist(ctx(), "uatom"))) {
      assertEquals("rate limit channel-1/uatom is indexed but has no row",
          assertThrows(StorageException.class, read).getMessage());
    }
  }

  @Test
  void aPathWhoseRowKeyAnotherPathHolds_isRefused() {
    // a 128-bit collision cannot be found; plant a row under the path's key without its index
    Path taken = path("uatom", "channel-1");
    add("ustrd", "channel-1", 10, 10, 24, 1000);
    RateLimit other = keeper.getRateLimit(ctx(), path("ustrd", "channel-1")).orElseThrow();
    Schema.LIMIT.put(ctx().store(), taken, new Schema.LimitRow(other.quota(), false, other.flow()));
    chain.bank().set("uatom", 1000);
    assertFailsUnchanged(ErrorCode.RATE_LIMIT_ALREADY_EXISTS,
        () -> keeper.addRateLimit(ctx(), taken, new Quota(10, 10, 24)));
    String before = chain.digest();
    IllegalStateException held = assertThrows(IllegalStateException.class, () -> keeper.setRateLimit(ctx(),
        new RateLimit(taken, new Quota(10, 10, 24), flow(0, 0, 1000))));
    assertEquals("the store key of channel-1/uatom (a 16-byte hash of the path) is held by another"
        + " path's rate limit", held.getMessage());
    // governance and queries go by the canonical index: the planted row is not taken's limit
    assertEquals(Optional.empty(), keeper.getRateLimit(ctx(), taken));
    assertFalse(keeper.hasRateLimit(ctx(), taken));
    keeper.removeRateLimit(ctx(), taken); // a no-op
    assertFailsUnchanged(ErrorCode.RATE_LIMIT_NOT_FOUND,
        () -> keeper.resetRateLimit(ctx(), taken));
    assertEquals(before, chain.digest());
    assertEquals(List.of(path("ustrd", "channel-1")),
        keeper.getAllRateLimits(ctx()).stream().map(RateLimit::path).toList());
  }

  @Test
  void layoutCheck_acceptsThisLayout_andNamesAnOlderOrUnknownOne() {
    keeper.requireCurrentLayout(ctx()); // InitGenesis wrote version 2
    assertEquals(Optional.of(2L), Schema.LAYOUT.get(ctx().store(), Schema.Unit.INSTANCE));

    // the first layout: a quota row under table 01 and an epoch, no layout row
    Schema.LAYOUT.delete(ctx().store(), Schema.Unit.INSTANCE);
    ctx().store().put(new byte[] {0x01, 'c', 0, 'u', 0}, new byte[] {0x0a});
    dev.ratelimit.core.store.StorageException first = assertThrows(
        dev.ratelimit.core.store.StorageException.class, () -> keeper.requireCurrentLayout(ctx()));
    assertTrue(first.getMessage().contains("first layout (version 1"), first.getMessage());

    Schema.LAYOUT.put(ctx().store(), Schema.Unit.INSTANCE, 3L);
    dev.ratelimit.core.store.StorageException newer = assertThrows(
        dev.ratelimit.core.store.StorageException.class, () -> keeper.requireCurrentLayout(ctx()));
    assertTrue(newer.getMessage().contains("layout version 3; this build reads version 2"),
        newer.getMessage());
  }

  @Test
  void layoutCheck_acceptsAnEmptyModuleStore() {
    TestChain empty = TestChain.open(engine, tempDir.resolve("empty"), GENESIS);
    try {
      empty.keeper().requireCurrentLayout(empty.ctx());
    } finally {
      empty.close();
    }
  }

  @Test
  void addingLimits_deletesNothing() {
    // a delete of an absent key is a tombstone on LevelDB that every scan crossing it steps over
    // (a blind delete per limit once made rollovers 100x slower): adding limits writes, never deletes
    dev.ratelimit.core.testing.RecordingKvStore recording =
        new dev.ratelimit.core.testing.RecordingKvStore(new dev.ratelimit.core.store.MemoryKvStore());
    dev.ratelimit.core.testing.FakeBank bank = new dev.ratelimit.core.testing.FakeBank().set("uatom", 1000);
    dev.ratelimit.core.testing.FakeChannels channels = new dev.ratelimit.core.testing.FakeChannels();
    RateLimitKeeper k = new RateLimitKeeper(bank, channels);
    BlockContext c = BlockContext.of(1, GENESIS, recording,
        dev.ratelimit.core.host.EventSink.discarding());
    k.initGenesis(c, Genesis.empty());
    for (int i = 0; i < 20; i++) {
      channels.add("channel-" + i, "osmosis-1");
      k.addRateLimit(c, path("uatom", "channel-" + i), new Quota(10, 10, 24));
    }
    k.addDenomToBlacklist(c, "uatom");
    assertFalse(recording.deletedAnything(), recording.calls().toString());
  }

  // ---------------------------------------------------------------- whitelist

  @Test
  void whitelistedPair_skipsTheQuotaAndRecordsNothing_inItsDirectionOnly() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    keeper.setWhitelistedAddressPair(ctx(), new WhitelistedAddressPair(SENDER, RECEIVER));
    String before = chain.digest();
    chain.events().clear();

    assertFalse(check(SEND, "channel-1", "uatom", 1000));
    assertFalse(check(RECV, "channel-1", "uatom", 1000));
    assertEquals(before, chain.digest());
    assertEquals(0, chain.events().size());

    // directional: the reverse pair is counted
    RateLimitedPacket reverse =
        new RateLimitedPacket(
            "channel-1", "uatom", n(1000), /* sender= */ RECEIVER, /* receiver= */ SENDER);
    assertFailsUnchanged(
        ErrorCode.QUOTA_EXCEEDED, () -> keeper.checkRateLimitAndUpdateFlow(ctx(), SEND, reverse));
    assertTrue(keeper.checkRateLimitAndUpdateFlow(ctx(), SEND,
        new RateLimitedPacket(
            "channel-1", "uatom", n(100), /* sender= */ RECEIVER, /* receiver= */ SENDER)));
    assertEquals(flow(0, 100, 1000), flowOf("uatom", "channel-1"));
  }

  @Test
  void whitelistedPair_matchesExactStringsOnly() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    keeper.setWhitelistedAddressPair(ctx(), new WhitelistedAddressPair(SENDER, RECEIVER));
    String before = chain.digest();
    for (String[] nearMiss : new String[][] {
        {SENDER.toUpperCase(java.util.Locale.ROOT), RECEIVER}, {SENDER + " ", RECEIVER},
        {SENDER, " " + RECEIVER}, {SENDER, RECEIVER.toUpperCase(java.util.Locale.ROOT)}}) {
      RateLimitedPacket p =
          new RateLimitedPacket("channel-1", "uatom", n(1000), nearMiss[0], nearMiss[1]);
      assertFailsUnchanged(
          ErrorCode.QUOTA_EXCEEDED, () -> keeper.checkRateLimitAndUpdateFlow(ctx(), SEND, p));
      assertFailsUnchanged(
          ErrorCode.QUOTA_EXCEEDED, () -> keeper.checkRateLimitAndUpdateFlow(ctx(), RECV, p));
    }
    assertEquals(before, chain.digest());
  }

  @Test
  void addressesTheWhitelistCouldNotHold_areNotWhitelisted_andTheQuotaApplies() {
    // a host's own RateLimitedPacket may carry any sender text; the middleware's are checked
    add("uatom", "channel-1", 10, 10, 24, 1000);
    keeper.setWhitelistedAddressPair(ctx(), new WhitelistedAddressPair("a?", "b"));
    assertFalse(keeper.isAddressPairWhitelisted(ctx(), "a\uD800", "b")); // UTF-8 would write "a?"
    assertFalse(keeper.isAddressPairWhitelisted(ctx(), "b", "\uDC00"));
    RateLimitedPacket lone = new RateLimitedPacket("channel-1", "uatom", n(1000), "a\uD800", "b");
    assertFailsUnchanged(
        ErrorCode.QUOTA_EXCEEDED, () -> keeper.checkRateLimitAndUpdateFlow(ctx(), SEND, lone));
    assertTrue(keeper.checkRateLimitAndUpdateFlow(ctx(), SEND,
        new RateLimitedPacket("channel-1", "uatom", n(100), "a\uD800", "b")));
    assertEquals(flow(0, 100, 1000), flowOf("uatom", "channel-1"));
  }

  @Test
  void whitelist_setListRemove_canonicalOrder() {
    keeper.setWhitelistedAddressPair(ctx(), new WhitelistedAddressPair("b", "a"));
    keeper.setWhitelistedAddressPair(ctx(), new WhitelistedAddressPair("a", "b"));
    keeper.setWhitelistedAddressPair(ctx(), new WhitelistedAddressPair("a", "a"));
    keeper.setWhitelistedAddressPair(ctx(), new WhitelistedAddressPair("a", "b"));
    assertEquals(
        List.of(new WhitelistedAddressPair("a", "a"), new WhitelistedAddressPair("a", "b"),
            new WhitelistedAddressPair("b", "a")),
        keeper.getAllWhitelistedAddressPairs(ctx()));
    assertTrue(keeper.isAddressPairWhitelisted(ctx(), "a", "b"));
    assertFalse(keeper.isAddressPairWhitelisted(ctx(), "ab", ""));
    assertFalse(keeper.isAddressPairWhitelisted(ctx(), "", "a"));
    keeper.removeWhitelistedAddressPair(ctx(), new WhitelistedAddressPair("a", "b"));
    assertFalse(keeper.isAddressPairWhitelisted(ctx(), "a", "b"));
    assertEquals(2, keeper.getAllWhitelistedAddressPairs(ctx()).size());
  }

  // ---------------------------------------------------------------- packets

  @Test
  void packetWithoutRateLimit_passesAndWritesNothing() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    String before = chain.digest();
    chain.events().clear();
    assertFalse(check(SEND, "channel-11", "uatom", 10_000));
    assertFalse(check(RECV, "channel-1", "ustrd", 10_000));
    assertEquals(before, chain.digest());
    assertEquals(0, chain.events().size());
  }

  @Test
  void acceptedPackets_updateTheFlowOfTheirDirection() {
    add("uatom", "channel-1", 10, 20, 24, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 100)); // exactly the send threshold
    assertEquals(flow(0, 100, 1000), flowOf("uatom", "channel-1"));
    assertTrue(check(RECV, "channel-1", "uatom", 300)); // net inflow 200 = recv threshold
    assertEquals(flow(300, 100, 1000), flowOf("uatom", "channel-1"));
    assertTrue(check(SEND, "channel-1", "uatom", 300)); // net outflow 100
    assertEquals(flow(300, 400, 1000), flowOf("uatom", "channel-1"));
  }

  @Test
  void sendOverThreshold_rejectsWithCode4_leavesStoreUnchanged_andEmitsTransferDenied() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 60));
    chain.events().clear();

    assertFailsUnchanged(ErrorCode.QUOTA_EXCEEDED, () -> check(SEND, "channel-1", "uatom", 41));
    assertEquals(flow(0, 60, 1000), flowOf("uatom", "channel-1"));

    List<Event> denied = chain.events().ofType(RateLimitEvents.TRANSFER_DENIED);
    assertEquals(1, denied.size());
    assertAttributes(denied.get(0),
        "module", "ratelimit", "reason", "rate_limit_exceeded", "action", "packet_send",
        "denom", "uatom", "channel_or_client", "channel-1", "amount", "41");
  }

  /**
   * The record of a receive settled while its app ran (an ack written during onRecvPacket): made
   * once per receive, read without removing, taken once, keyed by path and sequence, and rolled
   * back with the branch it was made in.
   */
  @Test
  void settledWhileReceiving_recordedOnce_takenOnce_andRolledBackWithItsBranch() {
    RateLimitedPacket counted = packet("channel-1", "uatom", 5);
    RateLimitedPacket otherDenom = packet("channel-1", "ustrd", 5);
    String before = chain.digest();
    assertFalse(keeper.isSettledWhileReceiving(ctx(), counted, 7));
    assertFalse(keeper.takeSettledWhileReceiving(ctx(), counted, 7), "nothing to take");
    assertEquals(before, chain.digest());

    assertTrue(keeper.recordSettledWhileReceiving(ctx(), counted, 7));
    String recorded = chain.digest();
    assertNotEquals(before, recorded, "the record is in the store");
    assertFalse(keeper.recordSettledWhileReceiving(ctx(), counted, 7), "settled once");
    assertEquals(recorded, chain.digest());
    assertTrue(keeper.isSettledWhileReceiving(ctx(), counted, 7));
    assertTrue(keeper.isSettledWhileReceiving(ctx(), counted, 7), "reading does not remove it");
    assertFalse(keeper.isSettledWhileReceiving(ctx(), counted, 8), "another sequence");
    assertFalse(keeper.isSettledWhileReceiving(ctx(), otherDenom, 7), "another denom");
    assertEquals(List.of(), keeper.getAllPendingRecvPackets(ctx()), "no marker");

    assertTrue(keeper.takeSettledWhileReceiving(ctx(), counted, 7));
    assertEquals(before, chain.digest(), "taking removes it");
    assertFalse(keeper.takeSettledWhileReceiving(ctx(), counted, 7), "taken once");

    try (BlockContext branch = ctx().branch()) {
      assertTrue(keeper.recordSettledWhileReceiving(branch, counted, 7));
      assertTrue(keeper.isSettledWhileReceiving(branch, counted, 7));
      branch.discard();
    }
    assertFalse(keeper.isSettledWhileReceiving(ctx(), counted, 7), "gone with its branch");
    assertEquals(before, chain.digest());
  }

  @Test
  void rejectionInDiscardedBranch_stillEmitsTransferDenied_andAcceptedBranchWorkIsDropped() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    String before = chain.digest();
    chain.events().clear();
    try (BlockContext branch = ctx().branch()) {
      assertTrue(keeper.checkRateLimitAndUpdateFlow(branch, RECV, packet("channel-1", "uatom", 80)));
      keeper.setPendingRecvPacket(branch, pending("channel-1", "uatom", 1));
      RateLimitException e = assertThrows(RateLimitException.class,
          () -> keeper.checkRateLimitAndUpdateFlow(branch, RECV, packet("channel-1", "uatom", 21)));
      assertEquals(ErrorCode.QUOTA_EXCEEDED, e.code());
      branch.discard();
    }
    assertEquals(before, chain.digest());
    assertEquals(1, chain.events().ofType(RateLimitEvents.TRANSFER_DENIED).size());
    assertAttributes(chain.events().ofType(RateLimitEvents.TRANSFER_DENIED).get(0),
        "action", "packet_recv", "amount", "21");
  }

  @Test
  void flowReaching2pow256_isCode11AndChangesNothing() {
    // channel value 0 never limits, so only the 2^256 bound stops the flow
    keeper.setRateLimit(ctx(), new RateLimit(path("uatom", "channel-1"), new Quota(10, 10, 24),
        new Flow(BigInteger.ZERO, MAX, BigInteger.ZERO)));
    RateLimitException e =
        assertFailsUnchanged(ErrorCode.FLOW_OVERFLOW, () -> check(SEND, "channel-1", "uatom", 1));
    String error = "send on channel-1/uatom: outflow " + MAX + " + 1 reaches 2^256"
        + "; window resets at 2024-01-02T00:00:00Z (in 63000s)";
    assertEquals("flow overflow: " + error, e.getMessage());
    assertEquals(error, e.detail());
    // not a transfer_denied (SPEC §6 keeps that for quota and blacklist), but as visible
    assertEquals(List.of(), chain.events().ofType(RateLimitEvents.TRANSFER_DENIED));
    List<Event> overflow = chain.events().ofType(RateLimitEvents.FLOW_OVERFLOW);
    assertEquals(1, overflow.size());
    assertAttributes(overflow.get(0), "module", "ratelimit", "action", "packet_send",
        "denom", "uatom", "channel_or_client", "channel-1", "amount", "1", "error", error);
    assertEquals(6, overflow.get(0).attributes().size());

    assertTrue(check(RECV, "channel-1", "uatom", 1)); // a flow this wide takes the exact rules
    assertEquals(new Flow(BigInteger.ONE, MAX, BigInteger.ZERO), flowOf("uatom", "channel-1"));
    assertEquals(1, chain.events().ofType(RateLimitEvents.FLOW_OVERFLOW).size());
  }

  // ---------------------------------------------------------------- undo

  @Test
  void undoSendPacket_onlyWithMarker_clampsAtZero_removesMarker() {
    add("uatom", "channel-1", 50, 50, 24, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 30));
    PendingPacket marker = pending("channel-1", "uatom", 7);

    String before = chain.digest();
    assertFalse(keeper.undoSendPacket(ctx(), marker, n(10))); // not sent in this window
    assertEquals(before, chain.digest());

    keeper.setPendingSendPacket(ctx(), marker);
    assertTrue(keeper.undoSendPacket(ctx(), marker, n(10)));
    assertEquals(flow(0, 20, 1000), flowOf("uatom", "channel-1"));
    assertFalse(keeper.isPendingSendPacket(ctx(), marker));
    assertFalse(keeper.undoSendPacket(ctx(), marker, n(10))); // at most once
    assertEquals(flow(0, 20, 1000), flowOf("uatom", "channel-1"));

    keeper.setPendingSendPacket(ctx(), marker);
    assertTrue(keeper.undoSendPacket(ctx(), marker, n(500)));
    assertEquals(flow(0, 0, 1000), flowOf("uatom", "channel-1"));
    // a recv marker with the same id does not undo a send
    keeper.setPendingRecvPacket(ctx(), marker);
    assertFalse(keeper.undoSendPacket(ctx(), marker, n(1)));
    // a marker of a path without a limit is settled (removed) and changes no flow
    PendingPacket unlimited = pending("channel-1", "ustrd", 1);
    keeper.setPendingSendPacket(ctx(), unlimited);
    assertFalse(keeper.undoSendPacket(ctx(), unlimited, n(1)));
    assertFalse(keeper.isPendingSendPacket(ctx(), unlimited));
    assertEquals(Optional.empty(), keeper.getRateLimit(ctx(), path("ustrd", "channel-1")));
  }

  @Test
  void undoReceivePacket_onlyWithMarker_clampsAtZero_removesMarker() {
    add("uatom", "channel-1", 50, 50, 24, 1000);
    assertTrue(check(RECV, "channel-1", "uatom", 16));
    assertTrue(check(SEND, "channel-1", "uatom", 5));
    PendingPacket marker = pending("channel-1", "uatom", 3);

    assertFalse(keeper.undoReceivePacket(ctx(), marker, n(8)));
    assertEquals(flow(16, 5, 1000), flowOf("uatom", "channel-1"));

    keeper.setPendingRecvPacket(ctx(), marker);
    assertTrue(keeper.undoReceivePacket(ctx(), marker, n(8)));
    assertEquals(flow(8, 5, 1000), flowOf("uatom", "channel-1"));
    assertFalse(keeper.isPendingRecvPacket(ctx(), marker));

    keeper.setPendingRecvPacket(ctx(), marker);
    assertTrue(keeper.undoReceivePacket(ctx(), marker, n(9)));
    assertEquals(flow(0, 5, 1000), flowOf("uatom", "channel-1"));
  }

  // ---------------------------------------------------------------- beginBlock

  @Test
  void beginBlock_withoutEpoch_isCode13() {
    try (TestChain bare = TestChain.open(engine, tempDir.resolve("bare"), GENESIS)) {
      String before = bare.digest();
      RateLimitException e = assertThrows(RateLimitException.class, () -> bare.keeper().beginBlock(bare.ctx()));
      assertEquals(ErrorCode.HOUR_EPOCH_INVALID, e.code());
      assertEquals(before, bare.digest());
      assertEquals(
          ErrorCode.HOUR_EPOCH_INVALID,
          assertThrows(RateLimitException.class, () -> {
            bare.bank().set("uatom", 10);
            bare.keeper().setRateLimit(bare.ctx(), new RateLimit(path("uatom", "channel-1"),
                new Quota(1, 1, 1), flow(0, 0, 10)));
            bare.keeper().remainingCapacity(bare.ctx(), path("uatom", "channel-1"));
          }).code());
      // checked before the limit: a store without the epoch never answers "no limit" (code 2)
      assertEquals(ErrorCode.HOUR_EPOCH_INVALID, assertThrows(RateLimitException.class,
          () -> bare.keeper().remainingCapacity(bare.ctx(), path("ustrd", "channel-1"))).code());
    }
  }

  @Test
  void beginBlock_pastTheLargestEpochNumber_isCode13_andChangesNothing() {
    long max = -1L; // 2^64 - 1, unsigned
    try (TestChain wrap = TestChain.open(engine, tempDir.resolve("wrap"), GENESIS)) {
      wrap.channels().add("channel-1", "osmosis-1");
      wrap.bank().set("uatom", 1000);
      wrap.initGenesis(new Genesis(
          List.of(new RateLimit(path("uatom", "channel-1"), new Quota(10, 10, 1), flow(0, 50, 1000))),
          List.of(), List.of(), List.of(), List.of(),
          Optional.of(new HourEpoch(max - 2, Instant.parse("2024-01-01T06:00:00Z"), 1))));
      wrap.beginBlock(Instant.parse("2024-01-01T08:00:01Z")); // + 2 hours: epoch 2^64 - 1
      assertEquals(
          Optional.of(new HourEpoch(max, Instant.parse("2024-01-01T08:00:00Z"), 2)),
          wrap.keeper().getHourEpoch(wrap.ctx()));
      String before = wrap.digest();

      RateLimitException e = assertThrows(RateLimitException.class,
          () -> wrap.beginBlock(Instant.parse("2024-01-01T09:00:01Z")));

      assertEquals(ErrorCode.HOUR_EPOCH_INVALID, e.code());
      assertEquals(before, wrap.digest(), "no wrapped epoch, no reset");
    }
  }

  @Test
  void initGenesis_runsOnce_aSecondRunIsRefusedAndChangesNothing() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    String before = chain.digest();

    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> chain.initGenesis(Genesis.empty()));

    assertTrue(e.getMessage().startsWith("InitGenesis already ran on this module store"), e.getMessage());
    assertEquals(before, chain.digest());
  }

  @Test
  void initGenesis_storesEpochOfGenesisHour() {
    assertEquals(
        Optional.of(new HourEpoch(6, Instant.parse("2024-01-01T06:00:00Z"), 1)),
        keeper.getHourEpoch(ctx()));
  }

  @Test
  void beginBlock_withinTheHour_orExactlyOnIt_changesNothing() {
    add("uatom", "channel-1", 10, 10, 1, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 50));
    String before = chain.digest();
    chain.beginBlock(Instant.parse("2024-01-01T06:59:59Z"));
    chain.beginBlock(Instant.parse("2024-01-01T07:00:00Z")); // strictly after is needed
    assertEquals(before, chain.digest());
    assertEquals(flow(0, 50, 1000), flowOf("uatom", "channel-1"));
  }

  @Test
  void beginBlock_singleHour_resetsHourlyLimitsOnly() {
    add("uatom", "channel-1", 10, 10, 1, 1000);
    add("ustrd", "channel-1", 10, 10, 24, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 50));
    assertTrue(check(SEND, "channel-1", "ustrd", 50));
    chain.bank().set("uatom", 1100);

    BlockContext block = chain.beginBlock(Instant.parse("2024-01-01T07:00:00.000000001Z"));

    assertEquals(
        Optional.of(new HourEpoch(7, Instant.parse("2024-01-01T07:00:00Z"), block.height())),
        keeper.getHourEpoch(ctx()));
    assertEquals(flow(0, 0, 1100), flowOf("uatom", "channel-1")); // supply change picked up
    assertEquals(flow(0, 50, 1000), flowOf("ustrd", "channel-1"));
  }

  @Test
  void beginBlock_afterFiveHourHalt_resetsEachLimitOnce_andOnlyWindowsThatEnded() {
    add("h1", "channel-1", 10, 10, 1, 1000);
    add("h2", "channel-1", 10, 10, 2, 1000);
    add("h5", "channel-1", 10, 10, 5, 1000);
    add("h24", "channel-1", 10, 10, 24, 1000);
    add("h7", "channel-1", 10, 10, 7, 1000);
    add("h12", "channel-1", 10, 10, 12, 1000);
    List<String> all = List.of("h1", "h2", "h5", "h24", "h7", "h12");
    for (String d : all) {
      assertTrue(check(SEND, "channel-1", d, 40));
    }
    // zero supply makes each reset visible as one channel-value-kept event
    for (String d : all) {
      chain.bank().set(d, 0);
    }
    chain.events().clear();

    // halt from 06:30 to 11:30: epoch 6 -> 11 in one block
    BlockContext block = chain.beginBlock(Instant.parse("2024-01-01T11:30:00Z"));

    assertEquals(
        Optional.of(new HourEpoch(11, Instant.parse("2024-01-01T11:00:00Z"), block.height())),
        keeper.getHourEpoch(ctx()));
    // reset iff floor(11 / d) > floor(6 / d): d=1, 2 (5 > 3), 5 (2 > 1), 7 (1 > 0) reset;
    // d=12 (0 = 0) and d=24 (0 = 0) do not. Events come in schedule order (by duration).
    assertEquals(
        List.of("h1", "h2", "h5", "h7"),
        chain.events().ofType(RateLimitEvents.CHANNEL_VALUE_KEPT).stream()
            .map(e -> e.attribute("denom").orElseThrow())
            .toList());
    for (String d : List.of("h1", "h2", "h5", "h7")) {
      assertEquals(flow(0, 0, 1000), flowOf(d, "channel-1"), d);
    }
    assertEquals(flow(0, 40, 1000), flowOf("h12", "channel-1"));
    assertEquals(flow(0, 40, 1000), flowOf("h24", "channel-1"));

    // the next blocks of hour 11 do not reset again (the Go module would, once per missed hour)
    assertTrue(check(SEND, "channel-1", "h1", 30));
    chain.beginBlock(Instant.parse("2024-01-01T11:40:00Z"));
    chain.beginBlock(Instant.parse("2024-01-01T11:50:00Z"));
    assertEquals(flow(0, 30, 1000), flowOf("h1", "channel-1"));
    assertEquals(4, chain.events().ofType(RateLimitEvents.CHANNEL_VALUE_KEPT).size());
  }

  @Test
  void beginBlock_dailyLimit_resetsOnlyWhenCrossingMidnightUtc() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 40));
    chain.bank().set("uatom", 1234);

    chain.beginBlock(Instant.parse("2024-01-01T20:15:00Z")); // epoch 20
    assertEquals(flow(0, 40, 1000), flowOf("uatom", "channel-1"));
    chain.beginBlock(Instant.parse("2024-01-02T00:00:00Z")); // exactly midnight: still epoch 23
    assertEquals(23, keeper.getHourEpoch(ctx()).orElseThrow().epochNumber());
    assertEquals(flow(0, 40, 1000), flowOf("uatom", "channel-1"));

    chain.beginBlock(Instant.parse("2024-01-02T00:00:00.000000001Z")); // epoch 24
    assertEquals(24, keeper.getHourEpoch(ctx()).orElseThrow().epochNumber());
    assertEquals(flow(0, 0, 1234), flowOf("uatom", "channel-1"));

    // a 30-hour halt crosses the next midnight once: one reset
    assertTrue(check(SEND, "channel-1", "uatom", 20));
    chain.bank().set("uatom", 0);
    chain.events().clear();
    chain.beginBlock(Instant.parse("2024-01-03T06:10:00Z")); // epoch 54
    assertEquals(54, keeper.getHourEpoch(ctx()).orElseThrow().epochNumber());
    assertEquals(flow(0, 0, 1234), flowOf("uatom", "channel-1")); // zero supply: value kept
    List<Event> kept = chain.events().ofType(RateLimitEvents.CHANNEL_VALUE_KEPT);
    assertEquals(1, kept.size());
    assertAttributes(kept.get(0), "module", "ratelimit", "denom", "uatom",
        "channel_or_client", "channel-1", "channel_value", "1234");
  }

  @Test
  void beginBlock_reset_clearsMarkersOfResetPathsOnly() {
    add("uatom", "channel-1", 10, 10, 1, 1000);
    add("ustrd", "channel-1", 10, 10, 24, 1000);
    add("uatom", "channel-11", 10, 10, 24, 1000);
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "uatom", 1));
    keeper.setPendingRecvPacket(ctx(), pending("channel-1", "uatom", 2));
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "ustrd", 3));
    keeper.setPendingRecvPacket(ctx(), pending("channel-11", "uatom", 4));

    chain.beginBlock(Instant.parse("2024-01-01T07:30:00Z"));

    assertEquals(List.of(pending("channel-1", "ustrd", 3)), keeper.getAllPendingSendPackets(ctx()));
    assertEquals(List.of(pending("channel-11", "uatom", 4)), keeper.getAllPendingRecvPackets(ctx()));
  }

  // ---------------------------------------------------------------- queries

  @Test
  void getRateLimitsByChainId_skipsUnresolvableIds() {
    chain.channels()
        .add("07-tendermint-9", "osmosis-1")
        .addUnresolvable("channel-3")
        .addFailing("channel-4");
    for (String id : List.of("channel-1", "channel-2", "channel-3", "channel-4", "channel-11", "07-tendermint-9")) {
      add("uatom", id, 10, 10, 24, 1000);
    }
    assertEquals(
        List.of(path("uatom", "07-tendermint-9"), path("uatom", "channel-1"), path("uatom", "channel-2")),
        keeper.getRateLimitsByChainId(ctx(), "osmosis-1").stream().map(RateLimit::path).toList());
    assertEquals(
        List.of(path("uatom", "channel-11")),
        keeper.getRateLimitsByChainId(ctx(), "juno-1").stream().map(RateLimit::path).toList());
    assertEquals(List.of(), keeper.getRateLimitsByChainId(ctx(), "unknown-1"));
  }

  @Test
  void getRateLimitsByChannelOrClient_exactIdOnly_invalidIdIsCode8() {
    add("uatom", "channel-1", 10, 10, 24, 1000);
    add("ustrd", "channel-1", 10, 10, 24, 1000);
    add("uatom", "channel-11", 10, 10, 24, 1000);
    assertEquals(
        List.of(path("uatom", "channel-1"), path("ustrd", "channel-1")),
        keeper.getRateLimitsByChannelOrClient(ctx(), "channel-1").stream().map(RateLimit::path).toList());
    assertEquals(List.of(), keeper.getRateLimitsByChannelOrClient(ctx(), "channel-7"));
    for (String bad : List.of("", "channel-", "channel-x", "transfer/channel-1", "channel-18446744073709551616")) {
      RateLimitException e = assertThrows(RateLimitException.class,
          () -> keeper.getRateLimitsByChannelOrClient(ctx(), bad), bad);
      assertEquals(ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID, e.code(), bad);
    }
  }

  @Test
  void remainingCapacity_specExample_epoch6At0630() {
    add("uatom", "channel-1", 10, 10, 1, 1000);
    RemainingCapacity rc = keeper.remainingCapacity(ctx(), path("uatom", "channel-1"));
    RemainingCapacity.Direction fresh =
        new RemainingCapacity.Direction(10, n(100), n(0), Optional.of(n(100)));
    assertEquals(
        new RemainingCapacity(path("uatom", "channel-1"), fresh, fresh,
            Instant.parse("2024-01-01T07:00:00Z"), 1800),
        rc);
  }

  @Test
  void remainingCapacity_netFlowMayBeNegative_remainingClampsAtZero_dailyResetAtMidnight() {
    add("uatom", "channel-1", 10, 20, 24, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 30));
    assertTrue(check(RECV, "channel-1", "uatom", 10));
    RemainingCapacity rc = keeper.remainingCapacity(ctx(), path("uatom", "channel-1"));
    assertEquals(new RemainingCapacity.Direction(10, n(100), n(20), Optional.of(n(80))), rc.send());
    assertEquals(new RemainingCapacity.Direction(20, n(200), n(-20), Optional.of(n(220))), rc.recv());
    assertEquals(Instant.parse("2024-01-02T00:00:00Z"), rc.windowResetsAt());
    assertEquals(17 * 3600 + 1800, rc.secondsUntilReset());

    // over the threshold (e.g. after a quota update lowered it): remaining 0, never negative
    keeper.setRateLimit(ctx(), new RateLimit(path("uatom", "channel-1"), new Quota(10, 20, 24), flow(0, 150, 1000)));
    assertEquals(
        new RemainingCapacity.Direction(10, n(100), n(150), Optional.of(n(0))),
        keeper.remainingCapacity(ctx(), path("uatom", "channel-1")).send());

    // seconds round up to the next whole second
    chain.nextBlock(Instant.parse("2024-01-01T23:59:59.5Z"));
    assertEquals(1, keeper.remainingCapacity(ctx(), path("uatom", "channel-1")).secondsUntilReset());
  }

  @Test
  void remainingCapacity_unlimitedWhenChannelValueZero_code2WithoutLimit() {
    keeper.setRateLimit(ctx(), new RateLimit(path("uatom", "channel-1"), new Quota(10, 10, 1), flow(5, 0, 0)));
    RemainingCapacity rc = keeper.remainingCapacity(ctx(), path("uatom", "channel-1"));
    assertEquals(new RemainingCapacity.Direction(10, n(0), n(-5), Optional.empty()), rc.send());
    assertEquals(new RemainingCapacity.Direction(10, n(0), n(5), Optional.empty()), rc.recv());

    RateLimitException e = assertThrows(RateLimitException.class,
        () -> keeper.remainingCapacity(ctx(), path("ustrd", "channel-1")));
    assertEquals(ErrorCode.RATE_LIMIT_NOT_FOUND, e.code());
  }

  @Test
  void remainingCapacity_ofAWindowBeyondTheTimeline_neverResets() {
    add("uatom", "channel-1", 10, 10, -1L, 1000); // 2^64 - 1 hours
    RemainingCapacity rc = keeper.remainingCapacity(ctx(), path("uatom", "channel-1"));
    assertEquals(Instant.MAX, rc.windowResetsAt());
    assertEquals(Long.MAX_VALUE, rc.secondsUntilReset());
  }

  @Test
  void rejectedPacketMessage_carriesTheWindowResetTime() {
    add("uatom", "channel-1", 10, 10, 1, 1000);
    RateLimitException e = assertThrows(RateLimitException.class, () -> check(SEND, "channel-1", "uatom", 101));
    assertEquals(ErrorCode.QUOTA_EXCEEDED, e.code());
    assertEquals("quota exceeded: send on channel-1/uatom: net outflow 101 would exceed 10% of channel value 1000"
        + " (threshold 100); window resets at 2024-01-01T07:00:00Z (in 1800s)", e.getMessage());
    assertTrue(check(SEND, "channel-1", "uatom", 30));
    e = assertThrows(RateLimitException.class, () -> check(RECV, "channel-1", "uatom", 131));
    assertEquals("quota exceeded: recv on channel-1/uatom: net inflow 101 would exceed 10% of channel value 1000"
        + " (threshold 100); window resets at 2024-01-01T07:00:00Z (in 1800s)", e.getMessage());
  }

  // ---------------------------------------------------------------- long ids

  @Test
  void longIds_workWithoutTruncation() {
    String client = "07-tendermint" + "x".repeat(60) + "-18446744073709551615"; // 94 chars
    String channel = "channel-18446744073709551615"; // 20 digits, 2^64 - 1
    chain.channels().add(client, "far-away-1").add(channel, "far-away-1");
    String denom = "ibc/" + "A".repeat(64) + "/with/a/long/tail/" + "z".repeat(100);
    add(denom, client, 10, 10, 1, 1000);
    add(denom, channel, 10, 10, 1, 1000);

    assertTrue(check(SEND, client, denom, 100));
    assertTrue(check(RECV, channel, denom, 100));
    PendingPacket marker = pending(client, denom, -1L);
    keeper.setPendingSendPacket(ctx(), marker);

    assertEquals(
        List.of(path(denom, client), path(denom, channel)),
        keeper.getAllRateLimits(ctx()).stream().map(RateLimit::path).toList());
    assertEquals(List.of(marker), keeper.getAllPendingSendPackets(ctx()));
    assertEquals(flow(0, 100, 1000), flowOf(denom, client));
    assertEquals(flow(100, 0, 1000), flowOf(denom, channel));
    assertEquals(1, keeper.getRateLimitsByChannelOrClient(ctx(), client).size());
    assertEquals(2, keeper.getRateLimitsByChainId(ctx(), "far-away-1").size());
    assertEquals(n(0), keeper.remainingCapacity(ctx(), path(denom, client)).send().remaining().orElseThrow());
    assertTrue(keeper.undoSendPacket(ctx(), marker, n(100)));
    assertEquals(flow(0, 0, 1000), flowOf(denom, client));
    assertThrows(IllegalArgumentException.class, () -> path(denom, "channel-18446744073709551616"));
  }

  @Test
  void prefixedKeeper_onASharedStore_touchesOnlyItsOwnKeys() {
    try (TestChain shared = new TestChain(engine.open(tempDir.resolve("shared")), 1, GENESIS,
        new byte[] {'r', 'l', '/'})) {
      // foreign keys just below, just above and sharing the first prefix byte
      byte[][] foreign = {{'r', 'l'}, {'r', 'l', '0'}, {'r', 'l', '.', 0x01}, {'r'}, {(byte) 0xff}};
      for (byte[] k : foreign) {
        shared.store().put(k, new byte[] {0x42});
      }
      shared.channels().add("channel-1", "osmosis-1");
      shared.initGenesis(Genesis.empty());
      shared.bank().set("uatom", 1000);
      RateLimitKeeper k = shared.keeper();
      k.addRateLimit(shared.ctx(), path("uatom", "channel-1"), new Quota(10, 10, 1));
      assertTrue(k.checkRateLimitAndUpdateFlow(shared.ctx(), SEND, packet("channel-1", "uatom", 100)));
      k.setPendingSendPacket(shared.ctx(), pending("channel-1", "uatom", 1));
      assertEquals(List.of(path("uatom", "channel-1")),
          k.getAllRateLimits(shared.ctx()).stream().map(RateLimit::path).toList());

      shared.beginBlock(Instant.parse("2024-01-01T07:00:01Z"));
      assertEquals(flow(0, 0, 1000), k.getRateLimit(shared.ctx(), path("uatom", "channel-1")).orElseThrow().flow());
      assertEquals(List.of(), k.getAllPendingSendPackets(shared.ctx()));
      k.removeRateLimit(shared.ctx(), path("uatom", "channel-1"));

      for (byte[] key : foreign) {
        assertEquals(Optional.of(0x42), shared.store().get(key).map(v -> (int) v[0]));
      }
      // every module key lives under the prefix
      try (var scan = shared.store().scan(null, null)) {
        int own = 0;
        while (scan.hasNext()) {
          byte[] key = scan.next().key();
          if (key.length > 3 && key[0] == 'r' && key[1] == 'l' && key[2] == '/') {
            own++;
          }
        }
        assertEquals(2, own); // only the hour epoch and the layout version are left
      }
    }
  }

  @Test
  void differentEnginesProduceTheSameDigestForTheSameHistory() {
    add("uatom", "channel-1", 10, 10, 1, 1000);
    assertTrue(check(SEND, "channel-1", "uatom", 10));
    keeper.setPendingSendPacket(ctx(), pending("channel-1", "uatom", 1));
    StoreEngine other = engine == StoreEngine.MEMORY ? StoreEngine.LEVELDB : StoreEngine.MEMORY;
    try (TestChain twin = TestChain.open(other, tempDir.resolve("twin"), GENESIS)) {
      twin.channels().add("channel-1", "osmosis-1");
      twin.initGenesis(Genesis.empty());
      twin.bank().set("uatom", 1000);
      twin.keeper().addRateLimit(twin.ctx(), path("uatom", "channel-1"), new Quota(10, 10, 1));
      twin.keeper().checkRateLimitAndUpdateFlow(twin.ctx(), SEND, packet("channel-1", "uatom", 10));
      twin.keeper().setPendingSendPacket(twin.ctx(), pending("channel-1", "uatom", 1));
      assertEquals(chain.digest(), twin.digest());
      assertNotEquals(chain.digest(), TestChain.inMemory(GENESIS).digest());
    }
  }
}
