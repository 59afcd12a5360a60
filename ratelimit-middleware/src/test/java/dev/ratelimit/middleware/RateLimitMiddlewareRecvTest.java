package dev.ratelimit.middleware;

import static dev.ratelimit.middleware.MiddlewareHarness.ALICE;
import static dev.ratelimit.middleware.MiddlewareHarness.APP_KEY;
import static dev.ratelimit.middleware.MiddlewareHarness.BOB;
import static dev.ratelimit.middleware.MiddlewareHarness.RELAYER;
import static dev.ratelimit.middleware.MiddlewareHarness.attributes;
import static dev.ratelimit.middleware.MiddlewareHarness.data;
import static dev.ratelimit.middleware.MiddlewareHarness.flow;
import static dev.ratelimit.middleware.MiddlewareHarness.incoming;
import static dev.ratelimit.middleware.MiddlewareHarness.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.ArgumentMatchers.same;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.verifyNoMoreInteractions;
import static org.mockito.Mockito.when;

import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.testing.StoreEngine;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Packet;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The receive path and asynchronous acknowledgements (SPEC §5 recv and writeAcknowledgement, §6
 * acknowledgement bytes and events). Our chain holds {@code ustrd} natively; the counterparty
 * sends it back on its {@code channel-1} to our {@code channel-0}, so the packet denom {@code
 * transfer/channel-1/ustrd} counts against {@code ustrd} on {@code channel-0}. On both engines.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreEngine.class)
class RateLimitMiddlewareRecvTest {
  private static final Instant GENESIS = Instant.parse("2024-01-01T07:10:00Z");
  private static final String OURS = "channel-0";
  private static final String THEIRS = "channel-1";
  private static final String RETURNING = "transfer/channel-1/ustrd";

  private static String errorAck(int code) {
    return "{\"error\":\"ABCI code: " + code + ": error handling packet: see events for details\"}";
  }

  @Parameter StoreEngine engine;
  @TempDir java.nio.file.Path tempDir;

  private MiddlewareHarness h;

  @BeforeEach
  void setUp() {
    h = new MiddlewareHarness(engine, tempDir, GENESIS);
    h.addLimit("ustrd", OURS, 10, 10, 1, 1000); // threshold 100 each way, window ends 08:00
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  private static Packet packet(long sequence, long amount) {
    return incoming(sequence, THEIRS, OURS, data(RETURNING, Long.toString(amount), BOB, ALICE));
  }

  private Optional<Acknowledgement> recv(Packet packet) {
    return h.middleware.onRecvPacket(h.ctx(), packet, RELAYER);
  }

  private void appAnswers(Optional<Acknowledgement> ack) {
    when(h.app.onRecvPacket(any(), any(), any())).thenReturn(ack);
  }

  /** The app writes its own key, and checks that the middleware's marker is already there. */
  private AtomicBoolean appWritesAndAnswers(Optional<Acknowledgement> ack, Packet packet) {
    AtomicBoolean markerSeenByApp = new AtomicBoolean();
    when(h.app.onRecvPacket(any(), any(), any()))
        .thenAnswer(
            inv -> {
              BlockContext c = inv.getArgument(0);
              c.store().put(APP_KEY, new byte[] {7});
              markerSeenByApp.set(
                  h.keeper.isPendingRecvPacket(
                      c, new PendingPacket(OURS, "ustrd", packet.sequence())));
              return ack;
            });
    return markerSeenByApp;
  }

  private static String ackText(Optional<Acknowledgement> ack) {
    return new String(ack.orElseThrow().toJsonBytes(), StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- accepted

  @Test
  void recvAccepted_appSuccess_updatesInflowRemovesTheMarkerAndReturnsTheAppAck() {
    Acknowledgement appAck = Acknowledgement.success(new byte[] {1});
    Packet p = packet(1, 30);
    AtomicBoolean markerSeen = appWritesAndAnswers(Optional.of(appAck), p);

    Optional<Acknowledgement> ack = recv(p);

    assertSame(appAck, ack.orElseThrow(), "the app's ack is returned as is");
    assertEquals(flow(30, 0, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"), "a synchronous ack leaves no marker");
    assertFalse(markerSeen.get(),
        "the marker is stored only when the app acks asynchronously (docs/PERFORMANCE.md)");
    assertTrue(h.appKeyWritten(), "the app's writes are committed");
    verify(h.app, times(1)).onRecvPacket(h.aBranch(), eq(p), eq(RELAYER));
    verifyNoMoreInteractions(h.app);
    verifyNoInteractions(h.downstream);
    assertEquals(List.of(), h.chain.events().events());
  }

  @Test
  void recvWithoutRateLimit_callsTheAppAndRecordsNothing() {
    appAnswers(Optional.of(Acknowledgement.SUCCESS));
    String before = h.digest();
    Packet p = incoming(1, THEIRS, OURS, data("uosmo", "5000", BOB, ALICE));

    assertEquals(Optional.of(Acknowledgement.SUCCESS), recv(p));

    assertEquals(before, h.digest());
    verify(h.app).onRecvPacket(h.aBranch(), eq(p), eq(RELAYER));
  }

  @Test
  void recvWhitelisted_skipsTheQuotaAndRecordsNothing() {
    h.keeper.setWhitelistedAddressPair(h.ctx(), new WhitelistedAddressPair(BOB, ALICE));
    appAnswers(Optional.empty()); // even async: nothing counted, so no marker
    String before = h.digest();

    assertEquals(Optional.empty(), recv(packet(1, 500)));

    assertEquals(before, h.digest());
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", OURS));
  }

  @Test
  void recvLandingExactlyOnTheThreshold_isAccepted() {
    appAnswers(Optional.of(Acknowledgement.SUCCESS));

    recv(packet(1, 100));

    assertEquals(flow(100, 0, 1000), h.flow("ustrd", OURS));
  }

  // ---------------------------------------------------------------- rejected

  @Test
  void recvOverQuota_answersIbcGoErrorAckWithoutCallingTheApp() {
    appAnswers(Optional.of(Acknowledgement.SUCCESS));
    recv(packet(1, 60));
    h.chain.events().clear();
    String before = h.digest();

    Optional<Acknowledgement> ack = recv(packet(2, 41));

    assertEquals(errorAck(4), ackText(ack));
    assertFalse(ack.orElseThrow().isSuccess());
    assertEquals(before, h.digest());
    assertEquals(flow(60, 0, 1000), h.flow("ustrd", OURS));
    verify(h.app, times(1)).onRecvPacket(any(), any(), any()); // the first packet only

    List<Event> denied = h.events(RateLimitEvents.TRANSFER_DENIED);
    assertEquals(1, denied.size());
    Map<String, String> a = attributes(denied.get(0));
    assertEquals("ratelimit", a.get("module"));
    assertEquals("rate_limit_exceeded", a.get("reason"));
    assertEquals("packet_recv", a.get("action"));
    assertEquals("ustrd", a.get("denom"));
    assertEquals(OURS, a.get("channel_or_client"));
    assertEquals("41", a.get("amount"));
    assertTrue(a.get("error").contains("2024-01-01T08:00:00Z"), a.get("error"));
  }

  @Test
  void recvBlacklisted_answersCode7WithoutCallingTheApp() {
    h.keeper.addDenomToBlacklist(h.ctx(), "ustrd");
    String before = h.digest();

    Optional<Acknowledgement> ack = recv(packet(1, 1));

    assertEquals(errorAck(7), ackText(ack));
    assertEquals(before, h.digest());
    verifyNoInteractions(h.app);
    Map<String, String> a = attributes(h.events(RateLimitEvents.TRANSFER_DENIED).get(0));
    assertEquals("blacklisted_denom", a.get("reason"));
    assertEquals("packet_recv", a.get("action"));
    assertEquals("ustrd", a.get("denom"));
    assertEquals(OURS, a.get("channel_or_client"));
    assertEquals("1", a.get("amount"));
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "not json | 9",
        "`{}` | 9",
        "`{\"denom\":\"transfer/channel-1/ustrd\",\"amount\":\"1\",\"amount\":\"1000\",\"sender\":\"b\",\"receiver\":\"a\"}` | 9",
        "`{\"denom\":\"transfer/channel-1/ustrd\",\"Amount\":\"5\",\"sender\":\"b\",\"receiver\":\"a\"}` | 9",
        "`{\"denom\":\"transfer/channel-1/ustrd\",\"amount\":5,\"sender\":\"b\",\"receiver\":\"a\"}` | 9",
        "`{\"denom\":\"transfer/channel-1/transfer/channel-2\",\"amount\":\"5\",\"sender\":\"b\",\"receiver\":\"a\"}` | 9",
        "`{\"denom\":\"transfer/channel-1/ustrd\",\"amount\":\"010\",\"sender\":\"b\",\"receiver\":\"a\"}` | 10",
        "`{\"denom\":\"transfer/channel-1/ustrd\",\"amount\":\"+5\",\"sender\":\"b\",\"receiver\":\"a\"}` | 10",
        "`{\"denom\":\"transfer/channel-1/ustrd\",\"amount\":\"-5\",\"sender\":\"b\",\"receiver\":\"a\"}` | 10",
      })
  void recvUndecodableData_answersCode9Or10WithAnInvalidPacketEvent(String raw, int code) {
    String before = h.digest();

    Optional<Acknowledgement> ack = recv(incoming(1, THEIRS, OURS, utf8(raw)));

    assertEquals(errorAck(code), ackText(ack));
    assertEquals(before, h.digest());
    verifyNoInteractions(h.app);
    h.assertOneInvalidPacketEvent(OURS, code);
  }

  @Test
  void recvOnAnInvalidDestinationChannel_answersCode8() {
    Packet p = incoming(1, THEIRS, "channel-x", data("uosmo", "1", BOB, ALICE));
    String before = h.digest();

    assertEquals(errorAck(8), ackText(recv(p)));
    assertEquals(before, h.digest());
    verifyNoInteractions(h.app);
  }

  @Test
  void recvOfOurOwnDenomComingBackOnAnInvalidDestinationChannel_answersCode8_andItsAsyncAckToo() {
    // the source case strips the prefix without reading our channel: only the id check says 8
    Packet p = incoming(1, THEIRS, "channel-x", data("transfer/" + THEIRS + "/ustrd", "1", BOB,
        ALICE));
    String before = h.digest();

    assertEquals(errorAck(8), ackText(recv(p)));
    assertEquals(before, h.digest());
    verifyNoInteractions(h.app);
    h.assertOneInvalidPacketEvent("channel-x", 8);

    h.chain.events().clear();
    h.middleware.writeAcknowledgement(h.ctx(), p, Acknowledgement.error("x"));
    assertEquals(before, h.digest());
    h.assertOneInvalidPacketEvent("channel-x", 8);
    verify(h.downstream).writeAcknowledgement(h.aBranch(), eq(p), any());
  }

  @Test
  void recvFromASourceChannelNotNamedChannelN_isCountedWithTheIdAsGiven() {
    // the source channel is the counterparty's: ICS-24 lets it be any identifier, so no code 8
    String theirs = "chan.nel+A";
    appAnswers(Optional.of(Acknowledgement.SUCCESS));

    // source case: the prefix is stripped whatever the id looks like
    Packet back = incoming(1, theirs, OURS,
        data("transfer/" + theirs + "/ustrd", "30", BOB, ALICE));
    assertEquals(Optional.of(Acknowledgement.SUCCESS), recv(back));
    assertEquals(flow(30, 0, 1000), h.flow("ustrd", OURS));

    // sink case: our side's prefix is prepended; theirs is never read
    String voucher = // SHA-256 of transfer/channel-0/uosmo
        "ibc/ED07A3391A112B175915CD8FAF43A2DA8E4790EDE12566649D0C2F97716B8518";
    h.addLimit(voucher, OURS, 10, 10, 1, 1000);
    assertEquals(Optional.of(Acknowledgement.SUCCESS),
        recv(incoming(2, theirs, OURS, data("uosmo", "40", BOB, ALICE))));
    assertEquals(flow(40, 0, 1000), h.flow(voucher, OURS));
  }

  @Test
  void recvWithSequenceZero_answersCode9WithoutCallingTheApp() {
    String before = h.digest();

    assertEquals(errorAck(9), ackText(recv(packet(0, 1))));
    assertEquals(before, h.digest());
    verifyNoInteractions(h.app);
    h.assertOneInvalidPacketEvent(OURS, 9);
    assertEquals("invalid packet data: packet sequence must not be 0",
        attributes(h.events(RateLimitEvents.INVALID_PACKET).get(0)).get("error"));
  }

  /** IBC core would refuse such a port; the middleware still answers, never throws. */
  @Test
  void recvOnADestinationPortWithASlash_answersCode9_andItsAsyncAckChangesNothing() {
    Packet p = new Packet(1, "transfer", THEIRS, "trans/fer", OURS, data("uosmo", "1", BOB, ALICE),
        MiddlewareHarness.TIMEOUT_HEIGHT, MiddlewareHarness.TIMEOUT_TIMESTAMP);
    String before = h.digest();

    assertEquals(errorAck(9), ackText(recv(p)));
    assertEquals(before, h.digest());
    verifyNoInteractions(h.app);
    h.assertOneInvalidPacketEvent(OURS, 9);

    h.chain.events().clear();
    h.middleware.writeAcknowledgement(h.ctx(), p, Acknowledgement.error("x"));
    assertEquals(before, h.digest());
    h.assertOneInvalidPacketEvent(OURS, 9);
    verify(h.downstream).writeAcknowledgement(h.aBranch(), eq(p), any());
  }

  @Test
  void recvThatWouldOverflowTheInflow_answersCode11() {
    RateLimit rl = h.keeper.getRateLimit(h.ctx(), new Path("ustrd", OURS)).orElseThrow();
    h.keeper.setRateLimit(
        h.ctx(),
        rl.withFlow(new Flow(Amounts.LIMIT.subtract(BigInteger.ONE), BigInteger.ZERO, BigInteger.ZERO)));
    String before = h.digest();

    assertEquals(errorAck(11), ackText(recv(packet(1, 1))));
    assertEquals(before, h.digest());
    verifyNoInteractions(h.app);
    // the ack says only "see events": the event says why (kept though the step rolled back)
    assertEquals(List.of(), h.chain.events().ofType(RateLimitEvents.TRANSFER_DENIED));
    List<Event> overflow = h.chain.events().ofType(RateLimitEvents.FLOW_OVERFLOW);
    assertEquals(1, overflow.size());
    assertEquals(Optional.of("packet_recv"), overflow.get(0).attribute("action"));
    assertEquals(Optional.of("ustrd"), overflow.get(0).attribute("denom"));
    assertEquals(Optional.of(OURS), overflow.get(0).attribute("channel_or_client"));
    assertEquals(Optional.of("1"), overflow.get(0).attribute("amount"));
  }

  // ---------------------------------------------------------------- app outcomes

  @Test
  void recvAppErrorAck_rollsBackInflowMarkerAndTheAppsWrites() {
    Acknowledgement appAck = Acknowledgement.error("transfer failed");
    Packet p = packet(1, 30);
    AtomicBoolean markerSeen = appWritesAndAnswers(Optional.of(appAck), p);
    String before = h.digest();

    Optional<Acknowledgement> ack = recv(p);

    assertSame(appAck, ack.orElseThrow());
    assertEquals("{\"error\":\"transfer failed\"}", ackText(ack));
    assertFalse(markerSeen.get());
    assertEquals(before, h.digest(), "inflow, marker and the app's key are all rolled back");
    assertFalse(h.appKeyWritten());
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"));
  }

  @Test
  void recvAppThrows_theExceptionPropagatesAndNothingIsKept() {
    IllegalStateException boom = new IllegalStateException("out of gas");
    when(h.app.onRecvPacket(any(), any(), any()))
        .thenAnswer(
            inv -> {
              ((BlockContext) inv.getArgument(0)).store().put(APP_KEY, new byte[] {1});
              throw boom;
            });
    String before = h.digest();

    assertSame(boom, assertThrows(IllegalStateException.class, () -> recv(packet(1, 30))));
    assertEquals(before, h.digest());
  }

  @Test
  void recvAppAsync_keepsTheMarkerAndTheInflow() {
    Packet p = packet(5, 30);
    AtomicBoolean markerSeen = appWritesAndAnswers(Optional.empty(), p);

    assertEquals(Optional.empty(), recv(p));

    assertFalse(markerSeen.get(), "stored once the app has returned without an ack");
    assertEquals(flow(30, 0, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(5L), h.recvMarkers(OURS, "ustrd"));
    assertEquals(Set.of(), h.sendMarkers(OURS, "ustrd"));
    assertTrue(h.appKeyWritten());
  }

  /** The app acks through the middleware while its onRecvPacket still runs, then returns none. */
  private void appAcksDuringItsOwnRecv(Acknowledgement asyncAck) {
    when(h.app.onRecvPacket(any(), any(), any()))
        .thenAnswer(
            inv -> {
              BlockContext c = inv.getArgument(0);
              h.middleware.writeAcknowledgement(c, inv.getArgument(1), asyncAck);
              return Optional.empty();
            });
  }

  @Test
  void writeAcknowledgementSuccess_duringTheAppsRecv_leavesNoMarkerAndKeepsTheInflow() {
    appAcksDuringItsOwnRecv(Acknowledgement.SUCCESS);
    Packet p = packet(5, 30);

    assertEquals(Optional.empty(), recv(p));

    assertEquals(flow(30, 0, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"), "settled before the app returned");
    verify(h.downstream).writeAcknowledgement(h.aBranch(), eq(p), same(Acknowledgement.SUCCESS));
  }

  @Test
  void writeAcknowledgementError_duringTheAppsRecv_givesTheInflowBack_likeAMarkerWrittenBefore() {
    appAnswers(Optional.of(Acknowledgement.SUCCESS));
    recv(packet(4, 20)); // acked at once: counted, no marker
    Acknowledgement error = Acknowledgement.error("forward failed");
    appAcksDuringItsOwnRecv(error);
    Packet p = packet(5, 30);

    assertEquals(Optional.empty(), recv(p));

    assertEquals(flow(20, 0, 1000), h.flow("ustrd", OURS), "packet 5's inflow is given back");
    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"));
    verify(h.downstream).writeAcknowledgement(h.aBranch(), eq(p), same(error));
  }

  /**
   * The app writes an error ack in a branch of its own, then discards that branch and returns
   * none: no ack was written, so the packet is pending like any async receive, with its marker
   * (found by an integration review: a field that said "marker stored" outlived the branch).
   */
  @Test
  void ackWrittenDuringTheAppsRecv_inABranchTheAppDiscards_leavesThePacketPending() {
    Acknowledgement error = Acknowledgement.error("forward failed");
    when(h.app.onRecvPacket(any(), any(), any()))
        .thenAnswer(
            inv -> {
              BlockContext own = inv.<BlockContext>getArgument(0).branch();
              h.middleware.writeAcknowledgement(own, inv.getArgument(1), error);
              own.discard();
              return Optional.empty();
            });
    Packet p = packet(5, 30);

    assertEquals(Optional.empty(), recv(p));

    assertEquals(flow(30, 0, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(5L), h.recvMarkers(OURS, "ustrd"), "pending, as if nothing was acked");
    h.middleware.writeAcknowledgement(h.ctx(), p, error); // the real ack, later
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", OURS), "its inflow given back");
    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"));
  }

  /** IBC core refuses the ack written during the app's recv; the app goes on asynchronously. */
  @Test
  void ackRefusedByCore_duringTheAppsRecv_leavesThePacketPending() {
    Acknowledgement error = Acknowledgement.error("forward failed");
    doThrow(new IllegalStateException("core refused the ack"))
        .doNothing()
        .when(h.downstream).writeAcknowledgement(any(), any(), any());
    when(h.app.onRecvPacket(any(), any(), any()))
        .thenAnswer(
            inv -> {
              try {
                h.middleware.writeAcknowledgement(inv.getArgument(0), inv.getArgument(1), error);
              } catch (IllegalStateException refused) {
                // the app keeps the packet and acks it later
              }
              return Optional.empty();
            });
    Packet p = packet(5, 30);

    assertEquals(Optional.empty(), recv(p));

    assertEquals(flow(30, 0, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(5L), h.recvMarkers(OURS, "ustrd"));
    h.middleware.writeAcknowledgement(h.ctx(), p, error);
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"));
  }

  /** Two error acks during the app's recv give the inflow back once, and leave no record. */
  @Test
  void twoErrorAcks_duringTheAppsRecv_giveTheInflowBackOnce() {
    appAnswers(Optional.of(Acknowledgement.SUCCESS));
    recv(packet(4, 20)); // acked at once: counted, no marker
    Acknowledgement error = Acknowledgement.error("forward failed");
    when(h.app.onRecvPacket(any(), any(), any()))
        .thenAnswer(
            inv -> {
              h.middleware.writeAcknowledgement(inv.getArgument(0), inv.getArgument(1), error);
              h.middleware.writeAcknowledgement(inv.getArgument(0), inv.getArgument(1), error);
              return Optional.empty();
            });
    String before = h.digest();

    assertEquals(Optional.empty(), recv(packet(5, 30)));

    assertEquals(flow(20, 0, 1000), h.flow("ustrd", OURS), "30 counted, 30 given back, once");
    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"));
    assertEquals(before, h.digest(), "nothing of the receive's bookkeeping is left behind");
  }

  /**
   * A host that calls the middleware's receive again, inside the app, for the same packet (IBC
   * core never does: its receipt refuses the duplicate): the inner app acks at once, and neither
   * receive leaves a marker of the acked packet (found by a code review).
   */
  @Test
  void sameReceiveNestedInItself_ackedInside_leavesNoMarker() {
    AtomicInteger depth = new AtomicInteger();
    when(h.app.onRecvPacket(any(), any(), any()))
        .thenAnswer(
            inv -> {
              BlockContext c = inv.getArgument(0);
              Packet p = inv.getArgument(1);
              if (depth.incrementAndGet() == 1) {
                assertEquals(Optional.empty(), h.middleware.onRecvPacket(c, p, "relayer"));
              } else {
                h.middleware.writeAcknowledgement(c, p, Acknowledgement.SUCCESS);
              }
              return Optional.empty();
            });
    String before = h.digest();

    assertEquals(Optional.empty(), recv(packet(5, 30)));

    assertEquals(flow(60, 0, 1000), h.flow("ustrd", OURS), "counted by each receive");
    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"), "acked: nothing pending");
    assertEquals(2, depth.get());
    assertFalse(h.digest().equals(before));
  }

  /** Only the packet being received is the one whose marker is stored early: not another one. */
  @Test
  void writeAcknowledgementOfAnEarlierPacket_duringAnotherRecv_settlesOnlyThatPacket() {
    appAnswers(Optional.empty());
    Packet earlier = packet(4, 20);
    recv(earlier); // async: marker 4
    Acknowledgement error = Acknowledgement.error("forward failed");
    when(h.app.onRecvPacket(any(), any(), any()))
        .thenAnswer(
            inv -> {
              h.middleware.writeAcknowledgement(inv.getArgument(0), earlier, error);
              return Optional.of(Acknowledgement.SUCCESS);
            });
    Packet p = packet(5, 30);

    assertEquals(Optional.of(Acknowledgement.SUCCESS), recv(p));

    assertEquals(flow(30, 0, 1000), h.flow("ustrd", OURS), "packet 4's inflow given back, 5's kept");
    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"), "5 was acked at once: no marker");
    verify(h.downstream).writeAcknowledgement(h.aBranch(), eq(earlier), same(error));
  }

  @Test
  void writeAcknowledgementSuccess_removesTheMarkerKeepsTheFlowAndForwards() {
    appAnswers(Optional.empty());
    Packet p = packet(5, 30);
    recv(p);
    Acknowledgement ack = Acknowledgement.SUCCESS;

    h.middleware.writeAcknowledgement(h.ctx(), p, ack);

    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"));
    assertEquals(flow(30, 0, 1000), h.flow("ustrd", OURS));
    verify(h.downstream, times(1)).writeAcknowledgement(h.aBranch(), eq(p), same(ack));
    verifyNoMoreInteractions(h.downstream);
  }

  @Test
  void writeAcknowledgementError_givesTheInflowBackAndRemovesTheMarker() {
    appAnswers(Optional.empty());
    Packet p = packet(5, 30);
    recv(p);
    recv(packet(6, 20)); // another async receive stays counted
    Acknowledgement ack = Acknowledgement.error("forward failed");

    h.middleware.writeAcknowledgement(h.ctx(), p, ack);

    assertEquals(flow(20, 0, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(6L), h.recvMarkers(OURS, "ustrd"));
    verify(h.downstream).writeAcknowledgement(h.aBranch(), eq(p), same(ack));
  }

  @Test
  void writeAcknowledgementError_twice_givesBackOnlyOnce() {
    appAnswers(Optional.empty());
    Packet p = packet(5, 30);
    recv(p);
    recv(packet(6, 20));

    h.middleware.writeAcknowledgement(h.ctx(), p, Acknowledgement.error("x"));
    h.middleware.writeAcknowledgement(h.ctx(), p, Acknowledgement.error("x"));

    assertEquals(flow(20, 0, 1000), h.flow("ustrd", OURS));
    verify(h.downstream, times(2)).writeAcknowledgement(any(), eq(p), any());
  }

  @Test
  void writeAcknowledgementError_clampsTheInflowAtZero() {
    appAnswers(Optional.empty());
    Packet p = packet(5, 30);
    recv(p);
    // The flow was rewritten under the marker (setRateLimit keeps markers): inflow 10 < 30.
    RateLimit rl = h.keeper.getRateLimit(h.ctx(), new Path("ustrd", OURS)).orElseThrow();
    h.keeper.setRateLimit(h.ctx(), rl.withFlow(flow(10, 7, 1000)));

    h.middleware.writeAcknowledgement(h.ctx(), p, Acknowledgement.error("x"));

    assertEquals(flow(0, 7, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"));
  }

  @Test
  void writeAcknowledgementError_afterAWindowReset_changesNothing() {
    appAnswers(Optional.empty());
    Packet old = packet(5, 30);
    recv(old);
    assertEquals(Set.of(5L), h.recvMarkers(OURS, "ustrd"));

    h.chain.beginBlock(Instant.parse("2024-01-01T08:00:01Z")); // the 1h window ends
    assertEquals(flow(0, 0, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, "ustrd"), "the reset cleared the marker");
    appAnswers(Optional.of(Acknowledgement.SUCCESS));
    recv(packet(6, 20));
    String before = h.digest();

    h.middleware.writeAcknowledgement(h.ctx(), old, Acknowledgement.error("late failure"));

    assertEquals(before, h.digest());
    assertEquals(flow(20, 0, 1000), h.flow("ustrd", OURS));
    verify(h.downstream).writeAcknowledgement(h.aBranch(), eq(old), any());
  }

  @Test
  void writeAcknowledgementError_withoutAMarker_changesNothingButForwards() {
    appAnswers(Optional.of(Acknowledgement.SUCCESS));
    Packet p = packet(5, 30);
    recv(p); // synchronous: no marker left
    String before = h.digest();

    h.middleware.writeAcknowledgement(h.ctx(), p, Acknowledgement.error("x"));

    assertEquals(before, h.digest());
    verify(h.downstream).writeAcknowledgement(any(), eq(p), any());
  }

  /** SPEC §5: a missing ack is an error (the inflow comes back) and is forwarded as given. */
  @Test
  void writeAcknowledgementNull_isAnError_andIsForwarded() {
    appAnswers(Optional.empty());
    Packet p = packet(5, 30);
    recv(p);
    recv(packet(6, 20));

    h.middleware.writeAcknowledgement(h.ctx(), p, null);

    assertEquals(flow(20, 0, 1000), h.flow("ustrd", OURS));
    assertEquals(Set.of(6L), h.recvMarkers(OURS, "ustrd"));
    verify(h.downstream).writeAcknowledgement(h.aBranch(), eq(p), isNull());
  }

  /** Also a missing ack, which IBC core refuses (the wrapper's contract): all rolled back. */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void writeAcknowledgementDownstreamThrows_propagatesAndKeepsTheMarker(boolean missing) {
    appAnswers(Optional.empty());
    Packet p = packet(5, 30);
    recv(p);
    Acknowledgement ack = missing ? null : Acknowledgement.error("x");
    IllegalStateException boom = new IllegalStateException("no ack pending");
    doThrow(boom).when(h.downstream).writeAcknowledgement(any(), any(), any());
    String before = h.digest();

    assertSame(
        boom,
        assertThrows(
            IllegalStateException.class,
            () -> h.middleware.writeAcknowledgement(h.ctx(), p, ack)));

    assertEquals(before, h.digest());
    assertEquals(Set.of(5L), h.recvMarkers(OURS, "ustrd"));
  }

  @Test
  void writeAcknowledgementWithUndecodableData_forwardsAndReportsAnEvent() {
    Packet p = incoming(5, THEIRS, OURS, utf8("garbage"));
    String before = h.digest();

    h.middleware.writeAcknowledgement(h.ctx(), p, Acknowledgement.SUCCESS);

    assertEquals(before, h.digest());
    verify(h.downstream).writeAcknowledgement(h.aBranch(), eq(p), same(Acknowledgement.SUCCESS));
    List<Event> invalid = h.events(RateLimitEvents.INVALID_PACKET);
    assertEquals(1, invalid.size());
    assertEquals("9", attributes(invalid.get(0)).get("code"));
  }

  @Test
  void writeAcknowledgementWithUndecodableData_downstreamThrows_theEventStillReportsIt() {
    Packet p = incoming(5, THEIRS, OURS, utf8("{\"amount\":\"1\"}"));
    IllegalStateException boom = new IllegalStateException("no ack pending");
    doThrow(boom).when(h.downstream).writeAcknowledgement(any(), any(), any());

    assertSame(
        boom,
        assertThrows(
            IllegalStateException.class,
            () -> h.middleware.writeAcknowledgement(h.ctx(), p, Acknowledgement.SUCCESS)));

    List<Event> invalid = h.events(RateLimitEvents.INVALID_PACKET);
    assertEquals(1, invalid.size());
    assertEquals("9", attributes(invalid.get(0)).get("code"));
  }

  @Test
  void recvErrorAckBytes_areExactlyWhatIbcGoCommits() {
    h.keeper.addDenomToBlacklist(h.ctx(), "ustrd");
    byte[] expected = utf8(errorAck(7));

    assertArrayEquals(expected, recv(packet(1, 1)).orElseThrow().toJsonBytes());
  }
}
