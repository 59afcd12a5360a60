package dev.ratelimit.middleware;

import static dev.ratelimit.middleware.MiddlewareHarness.ALICE;
import static dev.ratelimit.middleware.MiddlewareHarness.BOB;
import static dev.ratelimit.middleware.MiddlewareHarness.PORT;
import static dev.ratelimit.middleware.MiddlewareHarness.TIMEOUT_HEIGHT;
import static dev.ratelimit.middleware.MiddlewareHarness.TIMEOUT_TIMESTAMP;
import static dev.ratelimit.middleware.MiddlewareHarness.attributes;
import static dev.ratelimit.middleware.MiddlewareHarness.data;
import static dev.ratelimit.middleware.MiddlewareHarness.flow;
import static dev.ratelimit.middleware.MiddlewareHarness.ibcHash;
import static dev.ratelimit.middleware.MiddlewareHarness.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.same;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.verifyNoMoreInteractions;
import static org.mockito.Mockito.when;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.testing.StoreEngine;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The send path (SPEC §5 send, §2 order of checks, §6 transfer_denied): the middleware is the
 * transfer app's ICS4 wrapper; an accepted send is counted, forwarded once and marked pending; a
 * rejected one never reaches the channel keeper and leaves no trace in the store. On both engines.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreEngine.class)
class RateLimitMiddlewareSendTest {
  /** Epoch 7 (07:00); a 1h window resets at 08:00:00Z, 3000 s from the genesis block. */
  private static final Instant GENESIS = Instant.parse("2024-01-01T07:10:00Z");

  private static final String CH = "channel-0";

  @Parameter StoreEngine engine;
  @TempDir java.nio.file.Path tempDir;

  private MiddlewareHarness h;

  @BeforeEach
  void setUp() {
    h = new MiddlewareHarness(engine, tempDir, GENESIS);
    h.addLimit("ustrd", CH, 10, 10, 1, 1000);
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  @Test
  void sendAccepted_updatesOutflowForwardsOnceAndRecordsThePendingMarker() {
    h.nextSequence(17);
    byte[] data = data("ustrd", 60);

    long sequence = h.send(CH, data);

    assertEquals(17, sequence, "the downstream sequence is returned");
    assertEquals(flow(0, 60, 1000), h.flow("ustrd", CH));
    assertEquals(Set.of(17L), h.sendMarkers(CH, "ustrd"));
    assertEquals(Set.of(), h.recvMarkers(CH, "ustrd"));
    verify(h.downstream, times(1))
        .sendPacket(
            h.aBranch(), eq(PORT), eq(CH), eq(TIMEOUT_HEIGHT), eq(TIMEOUT_TIMESTAMP), same(data));
    verifyNoMoreInteractions(h.downstream);
    verifyNoInteractions(h.app);
    assertEquals(List.of(), h.chain.events().events());
  }

  @Test
  void sendAccepted_downstreamWritesAreCommittedWithTheFlow() {
    when(h.downstream.sendPacket(any(), any(), any(), any(), anyLong(), any()))
        .thenAnswer(
            inv -> {
              BlockContext c = inv.getArgument(0);
              c.store().put(MiddlewareHarness.APP_KEY, new byte[] {1});
              return 4L;
            });

    assertEquals(4, h.send(CH, data("ustrd", 10)));

    assertTrue(h.appKeyWritten(), "the channel keeper's writes are part of the same branch");
    assertEquals(flow(0, 10, 1000), h.flow("ustrd", CH));
    assertEquals(Set.of(4L), h.sendMarkers(CH, "ustrd"));
  }

  @Test
  void sendOfATracedDenom_countsAndMarksTheResolvedIbcDenom() {
    String voucher = ibcHash("transfer/channel-0/uatom");
    assertEquals("ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2", voucher);
    h.addLimit(voucher, CH, 10, 10, 24, 500);
    h.nextSequence(3);

    h.send(CH, data("transfer/channel-0/uatom", 50));

    assertEquals(flow(0, 50, 500), h.flow(voucher, CH));
    assertEquals(Set.of(3L), h.sendMarkers(CH, voucher));
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", CH), "only the resolved denom is counted");
    assertEquals(Set.of(), h.sendMarkers(CH, "ustrd"));
  }

  @Test
  void sendOfAnIbcDenomAsIs_countsThatDenom() {
    String voucher = ibcHash("transfer/channel-0/uatom");
    h.addLimit(voucher, CH, 10, 10, 24, 500);

    h.send(CH, data(voucher, 50));

    assertEquals(flow(0, 50, 500), h.flow(voucher, CH));
  }

  @Test
  void sendWithoutRateLimit_forwardsAndRecordsNothing() {
    String before = h.digest();
    byte[] data = data("ujuno", 1_000_000);

    long sequence = h.send(CH, data);

    assertEquals(1, sequence);
    assertEquals(before, h.digest(), "no flow, no marker");
    assertEquals(List.of(), h.keeper.getAllPendingSendPackets(h.ctx()));
    verify(h.downstream)
        .sendPacket(
            h.aBranch(), eq(PORT), eq(CH), eq(TIMEOUT_HEIGHT), eq(TIMEOUT_TIMESTAMP), same(data));
  }

  @Test
  void sendOnAnotherChannel_isNotCountedOnThisOne() {
    h.chain.channels().add("channel-1", "counterparty-1");

    h.send("channel-1", data("ustrd", 500));

    assertEquals(flow(0, 0, 1000), h.flow("ustrd", CH));
    assertEquals(List.of(), h.keeper.getAllPendingSendPackets(h.ctx()));
  }

  @Test
  void sendWhitelisted_skipsTheQuotaAndRecordsNothing() {
    h.keeper.setWhitelistedAddressPair(h.ctx(), new WhitelistedAddressPair(ALICE, BOB));
    String before = h.digest();

    h.send(CH, data("ustrd", "500", ALICE, BOB));

    assertEquals(before, h.digest());
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", CH));
    assertEquals(Set.of(), h.sendMarkers(CH, "ustrd"));
    verify(h.downstream).sendPacket(any(), any(), any(), any(), anyLong(), any());
  }

  @Test
  void sendWhitelistIsDirectional_theReversePairIsCounted() {
    h.keeper.setWhitelistedAddressPair(h.ctx(), new WhitelistedAddressPair(BOB, ALICE));

    h.assertRejectedUnchanged(
        ErrorCode.QUOTA_EXCEEDED, () -> h.send(CH, data("ustrd", "500", ALICE, BOB)));
  }

  @Test
  void sendLandingExactlyOnTheThreshold_isAccepted() {
    h.send(CH, data("ustrd", 60));
    h.send(CH, data("ustrd", 40));

    assertEquals(flow(0, 100, 1000), h.flow("ustrd", CH));
    assertEquals(Set.of(1L, 2L), h.sendMarkers(CH, "ustrd"));
  }

  @Test
  void sendOverQuota_rejectsWithCode4NeverForwardsAndLeavesTheStoreUnchanged() {
    h.send(CH, data("ustrd", 60));
    h.chain.events().clear();

    RateLimitException e =
        h.assertRejectedUnchanged(ErrorCode.QUOTA_EXCEEDED, () -> h.send(CH, data("ustrd", 41)));

    // The numbers and the window reset time are in the message (text checked loosely).
    String msg = e.getMessage();
    assertTrue(msg.contains("101"), msg); // net outflow after
    assertTrue(msg.contains("1000"), msg); // channel value
    assertTrue(msg.contains("10%"), msg); // threshold percent
    assertTrue(msg.contains("100"), msg); // threshold
    assertTrue(msg.contains("2024-01-01T08:00:00Z"), msg); // window reset instant
    assertTrue(msg.contains("3000"), msg); // seconds until the reset

    assertEquals(flow(0, 60, 1000), h.flow("ustrd", CH));
    assertEquals(Set.of(1L), h.sendMarkers(CH, "ustrd"));
    verify(h.downstream, times(1)).sendPacket(any(), any(), any(), any(), anyLong(), any());

    List<Event> denied = h.events(RateLimitEvents.TRANSFER_DENIED);
    assertEquals(1, denied.size());
    Map<String, String> a = attributes(denied.get(0));
    assertEquals("ratelimit", a.get("module"));
    assertEquals("rate_limit_exceeded", a.get("reason"));
    assertEquals("packet_send", a.get("action"));
    assertEquals("ustrd", a.get("denom"));
    assertEquals(CH, a.get("channel_or_client"));
    assertEquals("41", a.get("amount"));
    assertTrue(!a.get("error").isEmpty() && msg.contains(a.get("error")), a.get("error"));
    assertEquals(
        Set.of("module", "reason", "action", "denom", "channel_or_client", "amount", "error"),
        a.keySet());
  }

  @Test
  void sendOverQuota_firstPacket_downstreamNeverCalled() {
    h.assertRejectedUnchanged(ErrorCode.QUOTA_EXCEEDED, () -> h.send(CH, data("ustrd", 101)));

    verifyNoInteractions(h.downstream);
    assertEquals(Set.of(), h.sendMarkers(CH, "ustrd"));
  }

  @Test
  void sendAfterOppositeTraffic_netFlowMakesRoom() {
    // 50 received (counted as inflow), then 150 may leave: net outflow 100 = threshold.
    h.keeper.setRateLimit(
        h.ctx(),
        h.keeper.getRateLimit(h.ctx(), new Path("ustrd", CH)).orElseThrow().withFlow(flow(50, 0, 1000)));

    h.send(CH, data("ustrd", 150));

    assertEquals(flow(50, 150, 1000), h.flow("ustrd", CH));
  }

  @Test
  void sendBlacklisted_rejectsWithCode7AndADeniedEvent() {
    h.keeper.addDenomToBlacklist(h.ctx(), "ustrd");

    h.assertRejectedUnchanged(ErrorCode.DENOM_BLACKLISTED, () -> h.send(CH, data("ustrd", 1)));

    verifyNoInteractions(h.downstream);
    List<Event> denied = h.events(RateLimitEvents.TRANSFER_DENIED);
    assertEquals(1, denied.size());
    Map<String, String> a = attributes(denied.get(0));
    assertEquals("ratelimit", a.get("module"));
    assertEquals("blacklisted_denom", a.get("reason"));
    assertEquals("packet_send", a.get("action"));
    assertEquals("ustrd", a.get("denom"));
    assertEquals(CH, a.get("channel_or_client"));
    assertEquals("1", a.get("amount"));
    assertTrue(!a.get("error").isEmpty());
  }

  @Test
  void sendBlacklisted_evenWithoutARateLimitAndEvenWhitelisted() {
    h.keeper.addDenomToBlacklist(h.ctx(), "ujuno");
    h.keeper.setWhitelistedAddressPair(h.ctx(), new WhitelistedAddressPair(ALICE, BOB));
    h.chain.channels().add("channel-9", "counterparty-1");

    h.assertRejectedUnchanged(
        ErrorCode.DENOM_BLACKLISTED, () -> h.send("channel-9", data("ujuno", 1)));
    verifyNoInteractions(h.downstream);
  }

  @Test
  void sendBlacklist_matchesTheResolvedDenom() {
    String voucher = ibcHash("transfer/channel-0/uatom");
    h.keeper.addDenomToBlacklist(h.ctx(), voucher);

    h.assertRejectedUnchanged(
        ErrorCode.DENOM_BLACKLISTED, () -> h.send(CH, data("transfer/channel-0/uatom", 1)));
    assertEquals(voucher, attributes(h.events("transfer_denied").get(0)).get("denom"));
  }

  @Test
  void downstreamThrows_theSameExceptionPropagatesAndNothingIsKept() {
    IllegalStateException boom = new IllegalStateException("channel closed");
    when(h.downstream.sendPacket(any(), any(), any(), any(), anyLong(), any()))
        .thenAnswer(
            inv -> {
              BlockContext c = inv.getArgument(0);
              c.store().put(MiddlewareHarness.APP_KEY, new byte[] {1}); // a half-done send
              throw boom;
            });
    String before = h.digest();

    IllegalStateException thrown =
        assertThrows(IllegalStateException.class, () -> h.send(CH, data("ustrd", 10)));

    assertSame(boom, thrown);
    assertEquals(before, h.digest(), "flow, marker and the channel keeper's writes discarded");
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", CH));
    assertEquals(Set.of(), h.sendMarkers(CH, "ustrd"));
  }

  @Test
  void downstreamRejectsWithARateLimitException_propagatesAsIs() {
    RateLimitException below = new RateLimitException(ErrorCode.QUOTA_EXCEEDED, "a lower limiter");
    when(h.downstream.sendPacket(any(), any(), any(), any(), anyLong(), any())).thenThrow(below);

    RateLimitException thrown =
        h.assertRejectedUnchanged(ErrorCode.QUOTA_EXCEEDED, () -> h.send(CH, data("ustrd", 10)));
    assertSame(below, thrown);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "not json",
        "",
        "{}",
        "[]",
        "{\"denom\":\"ustrd\",\"amount\":\"10\",\"sender\":\"a\"}",
        "{\"denom\":\"ustrd\",\"amount\":10,\"sender\":\"a\",\"receiver\":\"b\"}",
        "{\"denom\":\"ustrd\",\"amount\":\"1\",\"amount\":\"1\",\"sender\":\"a\",\"receiver\":\"b\"}",
        "{\"denom\":\"ustrd\",\"Amount\":\"1\",\"sender\":\"a\",\"receiver\":\"b\"}",
        "{\"denom\":\" \",\"amount\":\"1\",\"sender\":\"a\",\"receiver\":\"b\"}",
        "{\"denom\":\"transfer/channel-1/transfer/channel-2\",\"amount\":\"1\",\"sender\":\"a\",\"receiver\":\"b\"}"
      })
  void sendUndecodableData_rejectsWithCode9NeverForwards(String raw) {
    h.assertRejectedUnchanged(ErrorCode.INVALID_PACKET_DATA, () -> h.send(CH, utf8(raw)));
    verifyNoInteractions(h.downstream);
    h.assertOneInvalidPacketEvent(CH, ErrorCode.INVALID_PACKET_DATA.code());
  }

  @ParameterizedTest
  @ValueSource(strings = {"010", "+5", "-1", "0x64", "1_000", "1e3", "１"})
  void sendInvalidAmount_rejectsWithCode10NeverForwards(String amount) {
    String raw =
        "{\"denom\":\"ustrd\",\"amount\":\"" + amount + "\",\"sender\":\"a\",\"receiver\":\"b\"}";
    h.assertRejectedUnchanged(ErrorCode.INVALID_AMOUNT, () -> h.send(CH, utf8(raw)));
    verifyNoInteractions(h.downstream);
    h.assertOneInvalidPacketEvent(CH, ErrorCode.INVALID_AMOUNT.code());
  }

  @Test
  void sendAmountOf2Pow256_rejectsWithCode10() {
    String raw =
        "{\"denom\":\"ustrd\",\"amount\":\""
            + Amounts.LIMIT
            + "\",\"sender\":\"a\",\"receiver\":\"b\"}";
    h.assertRejectedUnchanged(ErrorCode.INVALID_AMOUNT, () -> h.send(CH, utf8(raw)));
  }

  @Test
  void sendNullData_rejectsWithCode9() {
    h.assertRejectedUnchanged(ErrorCode.INVALID_PACKET_DATA, () -> h.send(CH, null));
    verifyNoInteractions(h.downstream);
    h.assertOneInvalidPacketEvent(CH, ErrorCode.INVALID_PACKET_DATA.code());
  }

  @ParameterizedTest
  @ValueSource(strings = {"channel-x", "", "channel-", "chan/nel-0", "channel-18446744073709551616"})
  void sendOnAnInvalidSourceChannel_rejectsWithCode8(String channel) {
    h.assertRejectedUnchanged(
        ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID, () -> h.send(channel, data("ustrd", 1)));
    verifyNoInteractions(h.downstream);
    h.assertOneInvalidPacketEvent(channel, ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID.code());
  }

  @ParameterizedTest
  @ValueSource(strings = {"ustrd", "uunlimited"})
  void sendThatTheChannelGivesSequence0_rejectsWithCode9_limitedOrNot(String denom) {
    h.nextSequence(0);

    h.assertRejectedUnchanged(ErrorCode.INVALID_PACKET_DATA, () -> h.send(CH, data(denom, 1)));

    h.assertOneInvalidPacketEvent(CH, ErrorCode.INVALID_PACKET_DATA.code());
  }

  @Test
  void sendThatWouldOverflowTheOutflow_rejectsWithCode11() {
    BigInteger max = Amounts.LIMIT.subtract(BigInteger.ONE);
    // Channel value 0 never limits, so only the 2^256 bound stops the flow.
    RateLimit rl = h.keeper.getRateLimit(h.ctx(), new Path("ustrd", CH)).orElseThrow();
    h.keeper.setRateLimit(h.ctx(), rl.withFlow(new Flow(BigInteger.ZERO, max, BigInteger.ZERO)));

    h.assertRejectedUnchanged(ErrorCode.FLOW_OVERFLOW, () -> h.send(CH, data("ustrd", 1)));
    verifyNoInteractions(h.downstream);
    List<Event> overflow = h.chain.events().ofType(RateLimitEvents.FLOW_OVERFLOW);
    assertEquals(1, overflow.size());
    assertEquals(Optional.of("packet_send"), overflow.get(0).attribute("action"));
    assertEquals(Optional.of(CH), overflow.get(0).attribute("channel_or_client"));
  }

  @Test
  void sendOnAClientId_isCountedAgainstTheClient() {
    h.addLimit("ustrd", "07-tendermint-3", 10, 10, 1, 1000);
    h.nextSequence(9);

    h.send("07-tendermint-3", data("ustrd", 30));

    assertEquals(flow(0, 30, 1000), h.flow("ustrd", "07-tendermint-3"));
    assertEquals(Set.of(9L), h.sendMarkers("07-tendermint-3", "ustrd"));
  }

  @Test
  void sendWithPercentZero_rejectsAnyPositiveAmount() {
    h.addLimit("uatom", CH, 0, 10, 1, 1000);

    h.assertRejectedUnchanged(ErrorCode.QUOTA_EXCEEDED, () -> h.send(CH, data("uatom", 1)));
    verify(h.downstream, never()).sendPacket(any(), any(), any(), any(), anyLong(), any());
  }

  @Test
  void quotaAfterUpdate_appliesToTheNextSend() {
    h.send(CH, data("ustrd", 90));
    h.keeper.updateRateLimit(h.ctx(), new Path("ustrd", CH), new Quota(5, 5, 1));

    h.assertRejectedUnchanged(ErrorCode.QUOTA_EXCEEDED, () -> h.send(CH, data("ustrd", 51)));
    h.send(CH, data("ustrd", 50));

    assertEquals(flow(0, 50, 1000), h.flow("ustrd", CH));
    assertEquals(Set.of(2L), h.sendMarkers(CH, "ustrd"), "the update cleared marker 1");
  }
}
