package dev.ratelimit.middleware;

import static dev.ratelimit.middleware.MiddlewareHarness.APP_KEY;
import static dev.ratelimit.middleware.MiddlewareHarness.RELAYER;
import static dev.ratelimit.middleware.MiddlewareHarness.attributes;
import static dev.ratelimit.middleware.MiddlewareHarness.data;
import static dev.ratelimit.middleware.MiddlewareHarness.flow;
import static dev.ratelimit.middleware.MiddlewareHarness.outgoing;
import static dev.ratelimit.middleware.MiddlewareHarness.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.ArgumentMatchers.same;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoMoreInteractions;

import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.testing.StoreEngine;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec.AckClass;
import dev.ratelimit.middleware.ibc.Packet;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Acknowledgements and timeouts of packets this chain sent (SPEC §5 ack and timeout): the
 * middleware classifies the ack with the transfer app's own decoder, settles its accounting, and
 * always calls the app with the exact bytes; only the app can fail the callback. Two sends are in
 * flight in every test: 60 (sequence 1, the one acknowledged) and 20 (sequence 2, a bystander).
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreEngine.class)
class RateLimitMiddlewareAckTest {
  /** Epoch 7; the 1h window ends at 08:00. */
  private static final Instant GENESIS = Instant.parse("2024-01-01T07:10:00Z");

  private static final String OURS = "channel-0";
  private static final String THEIRS = "channel-1";
  private static final String UNIVERSAL_ERROR_ACK_BASE64 =
      "R3TUpXWZP5Y7HAZXNzZhekV6vvhYkXjbjRDJS0q1Eas=";

  @Parameter StoreEngine engine;
  @TempDir java.nio.file.Path tempDir;

  private MiddlewareHarness h;
  private Packet first;
  private Packet second;

  @BeforeEach
  void setUp() {
    h = new MiddlewareHarness(engine, tempDir, GENESIS);
    h.addLimit("ustrd", OURS, 10, 10, 1, 1000);
    first = sendCounted(60);
    second = sendCounted(20);
    assertEquals(flow(0, 80, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(1L, 2L), h.sendMarkers(OURS, "ustrd"));
    h.chain.events().clear();
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  /** Sends through the middleware and returns the packet core IBC committed. */
  private Packet sendCounted(long amount) {
    byte[] data = data("ustrd", amount);
    long sequence = h.send(OURS, data);
    return outgoing(sequence, OURS, THEIRS, data);
  }

  private void ack(Packet packet, byte[] ack) {
    h.middleware.onAcknowledgementPacket(h.ctx(), packet, ack, RELAYER);
  }

  private void timeout(Packet packet) {
    h.middleware.onTimeoutPacket(h.ctx(), packet, RELAYER);
  }

  // ---------------------------------------------------------------- the classification table

  static Stream<Arguments> acknowledgements() {
    byte[] universal = Base64.getDecoder().decode(UNIVERSAL_ERROR_ACK_BASE64);
    byte[] almostUniversal = universal.clone();
    almostUniversal[31] ^= 1;
    return Stream.of(
        row("ics20 success", utf8("{\"result\":\"AQ==\"}"), AckClass.SUCCESS),
        row("success, unpadded base64", utf8("{\"result\":\"AQ\"}"), AckClass.SUCCESS),
        row("success, spaced JSON", utf8(" { \"result\" : \"AQ==\" } \n"), AckClass.SUCCESS),
        row("success, other result bytes", utf8("{\"result\":\"AAEC\"}"), AckClass.SUCCESS),
        row("error x", utf8("{\"error\":\"x\"}"), AckClass.ERROR),
        row("error empty", utf8("{\"error\":\"\"}"), AckClass.ERROR),
        row(
            "error, ibc-go text",
            utf8("{\"error\":\"ABCI code: 4: error handling packet: see events for details\"}"),
            AckClass.ERROR),
        row("universal error ack (32 bytes)", universal, AckClass.ERROR),
        row("not json", utf8("this is not json"), AckClass.MALFORMED),
        row("empty object", utf8("{}"), AckClass.MALFORMED),
        row("empty result", utf8("{\"result\":\"\"}"), AckClass.MALFORMED),
        row("both keys", utf8("{\"result\":\"AQ==\",\"error\":\"x\"}"), AckClass.MALFORMED),
        row("unknown key", utf8("{\"foo\":\"AQ==\"}"), AckClass.MALFORMED),
        row("unknown key beside error", utf8("{\"error\":\"x\",\"foo\":\"y\"}"), AckClass.MALFORMED),
        row("empty bytes", new byte[0], AckClass.MALFORMED),
        row("error null", utf8("{\"error\":null}"), AckClass.MALFORMED),
        row("error number", utf8("{\"error\":5}"), AckClass.MALFORMED),
        row("result not base64", utf8("{\"result\":\"!!!\"}"), AckClass.MALFORMED),
        row("duplicate error key", utf8("{\"error\":\"x\",\"error\":\"y\"}"), AckClass.MALFORMED),
        row("trailing data", utf8("{\"result\":\"AQ==\"}x"), AckClass.MALFORMED),
        row("JSON null", utf8("null"), AckClass.MALFORMED),
        row("JSON array", utf8("[\"AQ==\"]"), AckClass.MALFORMED),
        row("wrong case key", utf8("{\"Error\":\"x\"}"), AckClass.MALFORMED),
        row("invalid UTF-8", new byte[] {'{', (byte) 0xff, '}'}, AckClass.MALFORMED),
        row("universal ack with one bit flipped", almostUniversal, AckClass.MALFORMED),
        row("universal ack's text, not its hash", utf8("UNIVERSAL_ERROR_ACKNOWLEDGEMENT"),
            AckClass.MALFORMED));
  }

  private static Arguments row(String name, byte[] bytes, AckClass expected) {
    return Arguments.of(Named.of(name, bytes), expected);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @MethodSource("acknowledgements")
  void ack_isClassifiedLikeTheAppAndSettledByClass(byte[] ackBytes, AckClass expected) {
    assertEquals(expected, AcknowledgementCodec.classify(ackBytes), "the shared decoder agrees");

    ack(first, ackBytes); // never throws

    switch (expected) {
      case SUCCESS -> {
        assertEquals(flow(0, 80, 1000), h.flow("ustrd", OURS), "capacity is not given back");
        assertEquals(Set.of(2L), h.sendMarkers(OURS, "ustrd"));
        assertEquals(List.of(), h.chain.events().events());
      }
      case ERROR -> {
        assertEquals(flow(0, 20, 1000), h.flow("ustrd", OURS), "the refund gives capacity back");
        assertEquals(Set.of(2L), h.sendMarkers(OURS, "ustrd"));
        assertEquals(List.of(), h.chain.events().events());
      }
      case MALFORMED -> {
        assertEquals(flow(0, 80, 1000), h.flow("ustrd", OURS));
        assertEquals(Set.of(1L, 2L), h.sendMarkers(OURS, "ustrd"));
        List<Event> invalid = h.events(RateLimitEvents.INVALID_PACKET);
        assertEquals(1, invalid.size());
        Map<String, String> a = attributes(invalid.get(0));
        assertEquals("ratelimit", a.get("module"));
        assertEquals(OURS, a.get("channel_or_client"));
        assertEquals("14", a.get("code"));
        assertFalse(a.get("error").isEmpty());
      }
    }
    verify(h.app, times(1))
        .onAcknowledgementPacket(h.aBranch(), eq(first), same(ackBytes), eq(RELAYER));
    verifyNoMoreInteractions(h.app);
  }

  @Test
  void nullAck_isMalformedAndTheAppIsStillCalled() {
    ack(first, null);

    assertEquals(flow(0, 80, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(1L, 2L), h.sendMarkers(OURS, "ustrd"));
    assertEquals("14", attributes(h.events(RateLimitEvents.INVALID_PACKET).get(0)).get("code"));
    verify(h.app).onAcknowledgementPacket(h.aBranch(), eq(first), isNull(), eq(RELAYER));
  }

  @Test
  void errorAck_deliveredTwice_givesBackOnlyOnce() {
    ack(first, utf8("{\"error\":\"x\"}"));
    ack(first, utf8("{\"error\":\"x\"}"));

    assertEquals(flow(0, 20, 1000), h.flow("ustrd", OURS));
    verify(h.app, times(2)).onAcknowledgementPacket(any(), eq(first), any(), any());
  }

  @Test
  void errorAck_afterSuccessAck_changesNothing() {
    ack(first, utf8("{\"result\":\"AQ==\"}"));
    ack(first, utf8("{\"error\":\"x\"}"));

    assertEquals(flow(0, 80, 1000), h.flow("ustrd", OURS));
  }

  @Test
  void errorAck_ofAnUncountedPacket_changesNothing() {
    // Never sent through a rate limit: no marker, so nothing to give back.
    Packet stranger = outgoing(99, OURS, THEIRS, data("ustrd", 50));
    String before = h.digest();

    ack(stranger, utf8("{\"error\":\"x\"}"));

    assertEquals(before, h.digest());
  }

  @Test
  void errorAck_clampsTheOutflowAtZero() {
    var rl = h.keeper.getRateLimit(h.ctx(), new Path("ustrd", OURS)).orElseThrow();
    h.keeper.setRateLimit(h.ctx(), rl.withFlow(flow(5, 30, 1000))); // markers kept

    ack(first, utf8("{\"error\":\"x\"}")); // 60 back from 30

    assertEquals(flow(5, 0, 1000), h.flow("ustrd", OURS));
  }

  // ---------------------------------------------------------------- timeouts

  @Test
  void timeout_isLikeAnErrorAck() {
    timeout(first);

    assertEquals(flow(0, 20, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(2L), h.sendMarkers(OURS, "ustrd"));
    verify(h.app, times(1)).onTimeoutPacket(h.aBranch(), eq(first), eq(RELAYER));
    verifyNoMoreInteractions(h.app);
  }

  @Test
  void timeout_afterAnErrorAck_givesBackNothingMore() {
    ack(second, utf8("{\"error\":\"x\"}"));
    timeout(second);

    assertEquals(flow(0, 60, 1000), h.flow("ustrd", OURS));
  }

  // ---------------------------------------------------------------- undecodable packet data

  @Test
  void ackWithUndecodablePacketData_changesNoFlowEmitsAnEventAndCallsTheApp() {
    Packet bad = outgoing(1, OURS, THEIRS, utf8("{\"denom\":\"ustrd\",\"amount\":\"010\"}"));
    byte[] ackBytes = utf8("{\"error\":\"x\"}");
    String before = h.digest();

    ack(bad, ackBytes);

    assertEquals(before, h.digest());
    List<Event> invalid = h.events(RateLimitEvents.INVALID_PACKET);
    assertEquals(1, invalid.size());
    assertEquals("9", attributes(invalid.get(0)).get("code"));
    assertEquals(OURS, attributes(invalid.get(0)).get("channel_or_client"));
    verify(h.app).onAcknowledgementPacket(h.aBranch(), eq(bad), same(ackBytes), eq(RELAYER));
  }

  @Test
  void ackWithAnInvalidAmount_changesNoFlowAndReportsCode10() {
    Packet bad =
        outgoing(
            1,
            OURS,
            THEIRS,
            utf8("{\"denom\":\"ustrd\",\"amount\":\"+60\",\"sender\":\"a\",\"receiver\":\"b\"}"));
    String before = h.digest();

    ack(bad, utf8("{\"error\":\"x\"}"));

    assertEquals(before, h.digest());
    assertEquals("10", attributes(h.events(RateLimitEvents.INVALID_PACKET).get(0)).get("code"));
    verify(h.app).onAcknowledgementPacket(any(), eq(bad), any(), any());
  }

  @Test
  void timeoutWithUndecodablePacketData_changesNoFlowEmitsAnEventAndCallsTheApp() {
    Packet bad = outgoing(1, OURS, THEIRS, new byte[] {(byte) 0xc3, 0x28});
    String before = h.digest();

    timeout(bad);

    assertEquals(before, h.digest());
    assertEquals("9", attributes(h.events(RateLimitEvents.INVALID_PACKET).get(0)).get("code"));
    verify(h.app).onTimeoutPacket(h.aBranch(), eq(bad), eq(RELAYER));
  }

  @Test
  void timeoutOnAnInvalidSourceChannel_changesNoFlowAndCallsTheApp() {
    Packet bad = outgoing(1, "not-a-channel", THEIRS, data("ustrd", 60));
    String before = h.digest();

    timeout(bad);

    assertEquals(before, h.digest());
    assertEquals("8", attributes(h.events(RateLimitEvents.INVALID_PACKET).get(0)).get("code"));
    verify(h.app).onTimeoutPacket(any(), eq(bad), any());
  }

  @Test
  void errorAckOfSequenceZero_changesNoFlowReportsCode9AndCallsTheApp() {
    Packet bad = outgoing(0, OURS, THEIRS, data("ustrd", 60));
    String before = h.digest();

    ack(bad, utf8("{\"error\":\"x\"}"));

    assertEquals(before, h.digest());
    h.assertOneInvalidPacketEvent(OURS, 9);
    assertEquals("invalid packet data: packet sequence must not be 0",
        attributes(h.events(RateLimitEvents.INVALID_PACKET).get(0)).get("error"));
    verify(h.app).onAcknowledgementPacket(any(), eq(bad), any(), any());
  }

  // ---------------------------------------------------------------- the app fails the callback

  @Test
  void appThrowsOnAck_theExceptionPropagatesAndNoAccountingIsKept() {
    IllegalStateException boom = new IllegalStateException("refund failed");
    doAnswer(
            inv -> {
              ((BlockContext) inv.getArgument(0)).store().put(APP_KEY, new byte[] {1});
              throw boom;
            })
        .when(h.app)
        .onAcknowledgementPacket(any(), any(), any(), any());
    String before = h.digest();

    assertSame(
        boom,
        assertThrows(IllegalStateException.class, () -> ack(first, utf8("{\"error\":\"x\"}"))));

    assertEquals(before, h.digest());
    assertEquals(flow(0, 80, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(1L, 2L), h.sendMarkers(OURS, "ustrd"));
  }

  @Test
  void appThrowsOnSuccessAck_theMarkerIsKept() {
    RuntimeException boom = new RuntimeException("boom");
    doThrow(boom).when(h.app).onAcknowledgementPacket(any(), any(), any(), any());

    assertSame(boom, assertThrows(RuntimeException.class, () -> ack(first, utf8("{\"result\":\"AQ==\"}"))));

    assertEquals(Set.of(1L, 2L), h.sendMarkers(OURS, "ustrd"));
  }

  @Test
  void appThrowsOnTimeout_theExceptionPropagatesAndNoAccountingIsKept() {
    IllegalStateException boom = new IllegalStateException("refund failed");
    doThrow(boom).when(h.app).onTimeoutPacket(any(), any(), any());
    String before = h.digest();

    assertSame(boom, assertThrows(IllegalStateException.class, () -> timeout(first)));

    assertEquals(before, h.digest());
  }

  @Test
  void appThrowsOnAMalformedAck_theInvalidAckEventStillReportsIt() {
    // ICS-20 fails the relayer's transaction on a malformed ack; the middleware's report of it
    // must survive that rollback (SPEC §6: events are emitted even when the step is rolled back).
    IllegalArgumentException boom = new IllegalArgumentException("cannot read the ack");
    doThrow(boom).when(h.app).onAcknowledgementPacket(any(), any(), any(), any());
    String before = h.digest();

    assertSame(boom, assertThrows(IllegalArgumentException.class, () -> ack(first, utf8("{}"))));

    assertEquals(before, h.digest());
    List<Event> invalid = h.events(RateLimitEvents.INVALID_PACKET);
    assertEquals(1, invalid.size(), h.chain.events().events().toString());
    assertEquals("14", attributes(invalid.get(0)).get("code"));
    assertEquals(OURS, attributes(invalid.get(0)).get("channel_or_client"));
  }

  @Test
  void appThrowsOnAckOfUndecodableData_theInvalidPacketEventStillReportsIt() {
    RuntimeException boom = new RuntimeException("boom");
    doThrow(boom).when(h.app).onAcknowledgementPacket(any(), any(), any(), any());
    Packet bad = outgoing(1, OURS, THEIRS, utf8("not json"));

    assertSame(boom, assertThrows(RuntimeException.class, () -> ack(bad, utf8("{\"error\":\"x\"}"))));

    assertEquals("9", attributes(h.events(RateLimitEvents.INVALID_PACKET).get(0)).get("code"));
  }

  @Test
  void appThrowsOnTimeoutOfUndecodableData_theInvalidPacketEventStillReportsIt() {
    RuntimeException boom = new RuntimeException("boom");
    doThrow(boom).when(h.app).onTimeoutPacket(any(), any(), any());
    Packet bad = outgoing(1, OURS, THEIRS, utf8("{\"denom\":\"ustrd\"}"));

    assertSame(boom, assertThrows(RuntimeException.class, () -> timeout(bad)));

    assertEquals("9", attributes(h.events(RateLimitEvents.INVALID_PACKET).get(0)).get("code"));
  }

  static Stream<Arguments> faultyPackets() {
    return Stream.of(
        Arguments.of(Named.of("undecodable data", outgoing(1, OURS, THEIRS, utf8("not json"))), 9),
        Arguments.of(Named.of("amount +60", outgoing(1, OURS, THEIRS,
            utf8("{\"denom\":\"ustrd\",\"amount\":\"+60\",\"sender\":\"a\",\"receiver\":\"b\"}"))),
            10),
        Arguments.of(Named.of("an empty base denom",
            outgoing(1, OURS, THEIRS, data("transfer/channel-1/", 60))), 9),
        Arguments.of(Named.of("sequence 0", outgoing(0, OURS, THEIRS, data("ustrd", 60))), 9),
        Arguments.of(Named.of("an invalid source channel",
            outgoing(1, "not-a-channel", THEIRS, data("ustrd", 60))), 8));
  }

  /**
   * A malformed ack of a faulty packet reports both faults, the ack's (14) first: one report of
   * the packet's fault, whichever ack comes, so an operator sees it either way.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("faultyPackets")
  void malformedAckOfAFaultyPacket_reportsTheAckAndThePacket(Packet bad, int code) {
    String before = h.digest();

    ack(bad, utf8("{}"));

    assertEquals(before, h.digest());
    List<Event> invalid = h.events(RateLimitEvents.INVALID_PACKET);
    assertEquals(List.of("14", Integer.toString(code)),
        invalid.stream().map(e -> attributes(e).get("code")).toList(),
        h.chain.events().events().toString());
    assertEquals(bad.sourceChannel(), attributes(invalid.get(1)).get("channel_or_client"));
    assertFalse(attributes(invalid.get(1)).get("error").isEmpty());
    verify(h.app).onAcknowledgementPacket(h.aBranch(), eq(bad), any(), eq(RELAYER));
  }

  @Test
  void malformedAck_theEventIsReportedOnce() {
    ack(first, utf8("{}"));

    assertEquals(1, h.chain.events().size(), h.chain.events().events().toString());
  }

  @Test
  void appWritesOnAck_areCommittedWithTheAccounting() {
    doAnswer(
            inv -> {
              ((BlockContext) inv.getArgument(0)).store().put(APP_KEY, new byte[] {1});
              return null;
            })
        .when(h.app)
        .onAcknowledgementPacket(any(), any(), any(), any());

    ack(first, utf8("{\"error\":\"x\"}"));

    assertTrue(h.appKeyWritten());
    assertEquals(flow(0, 20, 1000), h.flow("ustrd", OURS));
  }

  // ---------------------------------------------------------------- windows and updates

  @Test
  void sentInWindowN_errorAckOrTimeoutInWindowN1_changesNothing() {
    h.chain.beginBlock(Instant.parse("2024-01-01T08:00:01Z"));
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(), h.sendMarkers(OURS, "ustrd"), "the reset cleared the markers");
    Packet fresh = sendCounted(30);
    assertEquals(Set.of(fresh.sequence()), h.sendMarkers(OURS, "ustrd"));
    String before = h.digest();

    ack(first, utf8("{\"error\":\"x\"}"));
    timeout(second);

    assertEquals(before, h.digest());
    assertEquals(flow(0, 30, 1000), h.flow("ustrd", OURS));
    verify(h.app).onAcknowledgementPacket(any(), eq(first), any(), any());
    verify(h.app).onTimeoutPacket(any(), eq(second), any());
  }

  @Test
  void windowBoundaryIsStrict_atExactlyTheHourTheWindowIsStillOpen() {
    h.chain.beginBlock(Instant.parse("2024-01-01T08:00:00Z")); // not strictly after 08:00

    timeout(first);

    assertEquals(flow(0, 20, 1000), h.flow("ustrd", OURS));
  }

  @Test
  void errorAckOfAPacketSentBeforeAnUpdate_changesNothing() {
    h.keeper.updateRateLimit(h.ctx(), new Path("ustrd", OURS), new Quota(20, 20, 1));
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", OURS));
    Packet fresh = sendCounted(50);
    String before = h.digest();

    ack(first, utf8("{\"error\":\"x\"}"));
    timeout(second);

    assertEquals(before, h.digest());
    assertEquals(flow(0, 50, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(fresh.sequence()), h.sendMarkers(OURS, "ustrd"));
  }

  @Test
  void errorAckOfAPacketSentBeforeAReset_changesNothing() {
    h.keeper.resetRateLimit(h.ctx(), new Path("ustrd", OURS));
    String before = h.digest();

    ack(first, utf8("{\"error\":\"x\"}"));

    assertEquals(before, h.digest());
  }

  @Test
  void errorAckAfterTheLimitWasRemovedAndReAdded_changesNothing() {
    Path path = new Path("ustrd", OURS);
    h.keeper.removeRateLimit(h.ctx(), path);
    h.keeper.addRateLimit(h.ctx(), path, new Quota(10, 10, 1));
    String before = h.digest();

    ack(first, utf8("{\"error\":\"x\"}"));

    assertEquals(before, h.digest());
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", OURS));
  }

  @Test
  void aTwentyFourHourLimit_keepsItsMarkersAcrossAnHourBoundary() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1000);
    Packet atom = outgoing(h.send(OURS, data("uatom", 40)), OURS, THEIRS, data("uatom", 40));
    h.chain.beginBlock(Instant.parse("2024-01-01T08:00:01Z"));
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", OURS), "1h limit reset");
    assertEquals(flow(0, 40, 1000), h.flow("uatom", OURS), "24h limit still in its window");

    timeout(atom);

    assertEquals(flow(0, 0, 1000), h.flow("uatom", OURS));
    assertTrue(h.sendMarkers(OURS, "uatom").isEmpty());
  }
}
