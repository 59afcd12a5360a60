package dev.ratelimit.middleware;

import static dev.ratelimit.middleware.MiddlewareHarness.ALICE;
import static dev.ratelimit.middleware.MiddlewareHarness.BOB;
import static dev.ratelimit.middleware.MiddlewareHarness.RELAYER;
import static dev.ratelimit.middleware.MiddlewareHarness.attributes;
import static dev.ratelimit.middleware.MiddlewareHarness.flow;
import static dev.ratelimit.middleware.MiddlewareHarness.ibcHash;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Sha256;
import dev.ratelimit.middleware.ibc.v2.Acknowledgement;
import dev.ratelimit.middleware.ibc.v2.AsyncPackets;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import dev.ratelimit.middleware.ibc.v2.Packet;
import dev.ratelimit.middleware.ibc.v2.PacketStatus;
import dev.ratelimit.middleware.ibc.v2.Payload;
import dev.ratelimit.middleware.ibc.v2.RecvPacketResult;
import dev.ratelimit.middleware.ibc.v2.WriteAcknowledgementWrapper;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.Ics20PayloadCodec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The IBC v2 entry: the same accounting as IBC v1 on client ids, with the sequence known before the
 * app runs, the app's recv status deciding what is kept, and async acks found through IBC core.
 */
class RateLimitMiddlewareV2Test {
  private static final Instant GENESIS = Instant.parse("2024-01-01T10:30:00Z");
  /** Our client of the counterparty, and theirs of us. */
  private static final String OURS = "07-tendermint-0";
  private static final String THEIRS = "08-wasm-3";
  private static final String PORT = "transfer";
  private static final byte[] SUCCESS_ACK = utf8("{\"result\":\"AQ==\"}");
  private static final byte[] UNIVERSAL_ERROR_ACK =
      Sha256.hash("UNIVERSAL_ERROR_ACKNOWLEDGEMENT".getBytes(StandardCharsets.US_ASCII));

  private final MiddlewareHarness h = MiddlewareHarness.inMemory(GENESIS);
  private final IbcModule app = mock(IbcModule.class);
  private final WriteAcknowledgementWrapper core = mock(WriteAcknowledgementWrapper.class);
  private final AsyncPackets asyncPackets = mock(AsyncPackets.class);
  private final RateLimitMiddlewareV2 middleware =
      new RateLimitMiddlewareV2(h.keeper, () -> app, core, asyncPackets);

  /** uatom leaving us (native) and the voucher of uosmo we hold on OURS. */
  private final String voucher = ibcHash("transfer/" + OURS + "/uosmo");

  @AfterEach
  void close() {
    h.close();
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static Payload payload(String denom, long amount) {
    return payload(denom, amount, Ics20PayloadCodec.ENCODING_JSON);
  }

  private static Payload payload(String denom, long amount, String encoding) {
    FungibleTokenPacketData data =
        new FungibleTokenPacketData(denom, BigInteger.valueOf(amount), ALICE, BOB);
    return new Payload(
        PORT, PORT, Ics20PayloadCodec.VERSION, encoding, Ics20PayloadCodec.encode(data, encoding));
  }

  private static Payload rawPayload(String version, String encoding, byte[] value) {
    return new Payload(PORT, PORT, version, encoding, value);
  }

  private void send(long sequence, Payload p) {
    middleware.onSendPacket(h.ctx(), OURS, THEIRS, sequence, p, ALICE);
  }

  private RecvPacketResult recv(long sequence, Payload p) {
    return middleware.onRecvPacket(h.ctx(), THEIRS, OURS, sequence, p, RELAYER);
  }

  /** The app writes a key in the branch it is given, then answers {@code result}. */
  private void appReceives(RecvPacketResult result) {
    doAnswer(inv -> {
      inv.<BlockContext>getArgument(0).store().put(MiddlewareHarness.APP_KEY, new byte[] {1});
      return result;
    }).when(app).onRecvPacket(any(), anyString(), anyString(), anyLong(), any(), anyString());
  }

  // ---------------------------------------------------------------- send

  @Test
  void send_countsTheOutflowRecordsTheMarkerUnderCoresSequenceAndCallsTheApp() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);

    send(7, payload("uatom", 60));

    assertEquals(flow(0, 60, 1_000), h.flow("uatom", OURS));
    assertEquals(Set.of(7L), h.sendMarkers(OURS, "uatom"));
    verify(app).onSendPacket(h.aBranch(), eq(OURS), eq(THEIRS), eq(7L),
        eq(payload("uatom", 60)), eq(ALICE));
  }

  @Test
  void send_overAChannelIdAliasSharesTheChannelsLimitAndSequencesWithIbcV1() {
    // ibc-go lets an IBC v2 packet name a v1 channel as its client; both count on channel-0
    h.addLimit("uatom", "channel-0", 10, 10, 24, 1_000);
    h.nextSequence(1);
    assertEquals(1, h.send("channel-0", MiddlewareHarness.data("uatom", 60)));
    middleware.onSendPacket(h.ctx(), "channel-0", "channel-9", 2, payload("uatom", 30), ALICE);
    assertEquals(flow(0, 90, 1_000), h.flow("uatom", "channel-0"));

    h.assertRejectedUnchanged(ErrorCode.QUOTA_EXCEEDED, () -> middleware.onSendPacket(
        h.ctx(), "channel-0", "channel-9", 3, payload("uatom", 11), ALICE));
    middleware.onTimeoutPacket(h.ctx(), "channel-0", "channel-9", 2, payload("uatom", 30), RELAYER);

    assertEquals(flow(0, 60, 1_000), h.flow("uatom", "channel-0"));
    assertEquals(Set.of(1L), h.sendMarkers("channel-0", "uatom"));
  }

  @Test
  void send_aVoucherCountsAgainstItsIbcDenom() {
    h.addLimit(voucher, OURS, 10, 10, 24, 1_000);

    send(1, payload("transfer/" + OURS + "/uosmo", 5));

    assertEquals(flow(0, 5, 1_000), h.flow(voucher, OURS));
  }

  @Test
  void send_overTheQuotaIsRefusedWithNothingWrittenAndTheAppNotCalled() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);
    send(1, payload("uatom", 60));

    RateLimitException e =
        h.assertRejectedUnchanged(ErrorCode.QUOTA_EXCEEDED, () -> send(2, payload("uatom", 41)));

    assertEquals(Set.of(1L), h.sendMarkers(OURS, "uatom"));
    verify(app, never()).onSendPacket(any(), any(), any(), eq(2L), any(), any());
    assertEquals(1, h.events(RateLimitEvents.TRANSFER_DENIED).size(), e.getMessage());
  }

  @Test
  void send_theAppRefusingDiscardsTheFlowAndTheMarker() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);
    IllegalStateException refused = new IllegalStateException("insufficient funds");
    doThrow(refused).when(app).onSendPacket(any(), any(), any(), anyLong(), any(), any());
    String before = h.digest();

    assertSame(refused, assertThrows(IllegalStateException.class, () -> send(1, payload("uatom", 5))));

    assertEquals(before, h.digest());
  }

  @Test
  void send_unreadablePayloadsAreCode9Or10WithADurableEventAndNoAppCall() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);

    h.assertRejectedUnchanged(ErrorCode.INVALID_PACKET_DATA,
        () -> send(1, rawPayload("ics20-2", Ics20PayloadCodec.ENCODING_JSON, utf8("{}"))));
    h.assertRejectedUnchanged(ErrorCode.INVALID_PACKET_DATA,
        () -> send(1, rawPayload(Ics20PayloadCodec.VERSION, "text/plain", utf8("{}"))));
    h.assertRejectedUnchanged(ErrorCode.INVALID_AMOUNT, () -> send(1, rawPayload(
        Ics20PayloadCodec.VERSION, "",
        utf8("{\"denom\":\"uatom\",\"amount\":\"010\",\"sender\":\"a\",\"receiver\":\"b\"}"))));
    h.assertRejectedUnchanged(ErrorCode.INVALID_PACKET_DATA, () -> send(0, payload("uatom", 5)));

    assertEquals(4, h.events(RateLimitEvents.INVALID_PACKET).size());
    verify(app, never()).onSendPacket(any(), any(), any(), anyLong(), any(), any());
  }

  @Test
  void send_onAnInvalidSourceClientIsCode8() {
    h.assertRejectedUnchanged(ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID,
        () -> middleware.onSendPacket(h.ctx(), "client 0", THEIRS, 1, payload("uatom", 5), ALICE));

    h.assertOneInvalidPacketEvent("client 0", 8);
  }

  // ---------------------------------------------------------------- recv

  @Test
  void recv_successKeepsTheInflowAndTheAppsWritesWithoutAMarker() {
    h.addLimit(ibcHash("transfer/" + OURS + "/uosmo"), OURS, 10, 10, 24, 1_000);
    RecvPacketResult ok = RecvPacketResult.success(SUCCESS_ACK);
    appReceives(ok);

    assertEquals(ok, recv(3, payload("uosmo", 40)));

    assertEquals(flow(40, 0, 1_000), h.flow(voucher, OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, voucher));
    assertEquals(true, h.appKeyWritten());
  }

  @Test
  void recv_ourOwnDenomComingBackIsTheSourceCaseOnThePayloadsPort() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);
    appReceives(RecvPacketResult.success(SUCCESS_ACK));

    recv(1, payload("transfer/" + THEIRS + "/uatom", 40));

    assertEquals(flow(40, 0, 1_000), h.flow("uatom", OURS));
  }

  @Test
  void recv_theSourceCaseUsesThePayloadsSourcePortAndTheSinkCaseItsDestinationPort() {
    String theirPort = "wasm.osmo1contract";
    String ourPort = "transfer";
    String sunk = ibcHash(ourPort + "/" + OURS + "/uosmo");
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);
    h.addLimit(sunk, OURS, 10, 10, 24, 1_000);
    appReceives(RecvPacketResult.success(SUCCESS_ACK));

    middleware.onRecvPacket(h.ctx(), THEIRS, OURS, 1,
        withPorts(payload(theirPort + "/" + THEIRS + "/uatom", 40), theirPort, ourPort), RELAYER);
    middleware.onRecvPacket(h.ctx(), THEIRS, OURS, 2,
        withPorts(payload("uosmo", 30), theirPort, ourPort), RELAYER);

    assertEquals(flow(40, 0, 1_000), h.flow("uatom", OURS));
    assertEquals(flow(30, 0, 1_000), h.flow(sunk, OURS));
  }

  private static Payload withPorts(Payload p, String sourcePort, String destinationPort) {
    return new Payload(sourcePort, destinationPort, p.version(), p.encoding(), p.value());
  }

  @Test
  void recv_theAppsFailureRollsBackTheInflowAndItsWrites() {
    h.addLimit(voucher, OURS, 10, 10, 24, 1_000);
    RecvPacketResult failed = RecvPacketResult.failure(utf8("{\"error\":\"bad receiver\"}"));
    appReceives(failed);
    String before = h.digest();

    assertEquals(failed, recv(3, payload("uosmo", 40)));

    assertEquals(before, h.digest());
  }

  @Test
  void recv_asyncKeepsTheInflowAndLeavesAMarker() {
    h.addLimit(voucher, OURS, 10, 10, 24, 1_000);
    appReceives(RecvPacketResult.async());

    assertEquals(PacketStatus.ASYNC, recv(9, payload("uosmo", 40)).status());

    assertEquals(flow(40, 0, 1_000), h.flow(voucher, OURS));
    assertEquals(Set.of(9L), h.recvMarkers(OURS, voucher));
  }

  @Test
  void recv_overTheQuotaFailsWithIbcGosErrorAckAndNeverReachesTheApp() {
    h.addLimit(voucher, OURS, 10, 10, 24, 1_000);
    String before = h.digest();

    RecvPacketResult r = recv(1, payload("uosmo", 101));

    assertEquals(PacketStatus.FAILURE, r.status());
    assertArrayEquals(
        utf8("{\"error\":\"ABCI code: 4: error handling packet: see events for details\"}"),
        r.acknowledgement());
    assertEquals(before, h.digest());
    assertEquals(1, h.events(RateLimitEvents.TRANSFER_DENIED).size());
    verify(app, never()).onRecvPacket(any(), any(), any(), anyLong(), any(), any());
  }

  @Test
  void recv_anUnreadablePayloadFailsWithCode9AndAnEvent() {
    RecvPacketResult r = recv(1, rawPayload(Ics20PayloadCodec.VERSION, "application/cbor", new byte[] {1}));

    assertEquals(PacketStatus.FAILURE, r.status());
    assertArrayEquals(
        utf8("{\"error\":\"ABCI code: 9: error handling packet: see events for details\"}"),
        r.acknowledgement());
    h.assertOneInvalidPacketEvent(OURS, 9);
    verify(app, never()).onRecvPacket(any(), any(), any(), anyLong(), any(), any());
  }

  @Test
  void recv_ofSequence0FailsWithCode9() {
    h.addLimit(voucher, OURS, 10, 10, 24, 1_000);
    String before = h.digest();

    RecvPacketResult r = recv(0, payload("uosmo", 5));

    assertEquals(PacketStatus.FAILURE, r.status());
    assertEquals(before, h.digest());
    h.assertOneInvalidPacketEvent(OURS, 9);
  }

  @Test
  void recv_onAnInvalidDestinationClientIsCode8_alsoForOurOwnDenomComingBack() {
    // the source case strips the prefix without reading our client: only the id check says 8
    RecvPacketResult r = middleware.onRecvPacket(
        h.ctx(), THEIRS, "client 0", 1, payload("transfer/" + THEIRS + "/uatom", 5), RELAYER);

    assertEquals(RecvPacketResult.failure(utf8(
        "{\"error\":\"ABCI code: 8: error handling packet: see events for details\"}")), r);
    h.assertOneInvalidPacketEvent("client 0", 8);
    verify(app, never()).onRecvPacket(any(), any(), any(), anyLong(), any(), any());
  }

  /** IBC core would refuse such a port; the middleware still answers, never throws. */
  @Test
  void recv_onADestinationPortWithASlashFailsWithCode9AndAnEvent() {
    h.addLimit(voucher, OURS, 10, 10, 24, 1_000);
    String before = h.digest();

    RecvPacketResult r = middleware.onRecvPacket(
        h.ctx(), THEIRS, OURS, 1, withPorts(payload("uosmo", 5), PORT, "trans/fer"), RELAYER);

    assertEquals(RecvPacketResult.failure(utf8(
        "{\"error\":\"ABCI code: 9: error handling packet: see events for details\"}")), r);
    assertEquals(before, h.digest());
    h.assertOneInvalidPacketEvent(OURS, 9);
    verify(app, never()).onRecvPacket(any(), any(), any(), anyLong(), any(), any());
  }

  @Test
  void recv_withoutALimitPassesThrough() {
    appReceives(RecvPacketResult.async());

    assertEquals(PacketStatus.ASYNC, recv(1, payload("uosmo", 1_000_000)).status());

    assertEquals(Set.of(), h.recvMarkers(OURS, voucher));
    assertEquals(true, h.appKeyWritten());
  }

  @Test
  void recv_anAppWithoutAResultIsAHostBugThatKeepsNothing() {
    h.addLimit(voucher, OURS, 10, 10, 24, 1_000);
    String before = h.digest();

    assertThrows(NullPointerException.class, () -> recv(1, payload("uosmo", 5)));

    assertEquals(before, h.digest());
  }

  // ---------------------------------------------------------------- ack, timeout

  private void ack(long sequence, Payload p, byte[] acknowledgement) {
    middleware.onAcknowledgementPacket(
        h.ctx(), OURS, THEIRS, sequence, acknowledgement, p, RELAYER);
  }

  @Test
  void ack_successRemovesTheMarkerAndKeepsTheOutflow() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);
    send(1, payload("uatom", 60));

    ack(1, payload("uatom", 60), SUCCESS_ACK);

    assertEquals(flow(0, 60, 1_000), h.flow("uatom", OURS));
    assertEquals(Set.of(), h.sendMarkers(OURS, "uatom"));
    verify(app).onAcknowledgementPacket(h.aBranch(), eq(OURS), eq(THEIRS), eq(1L),
        eq(SUCCESS_ACK), eq(payload("uatom", 60)), eq(RELAYER));
  }

  @Test
  void ack_theUniversalErrorAckAndAnIcs20ErrorGiveTheOutflowBack() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);
    send(1, payload("uatom", 60));
    send(2, payload("uatom", 30));

    ack(1, payload("uatom", 60), UNIVERSAL_ERROR_ACK);
    assertEquals(flow(0, 30, 1_000), h.flow("uatom", OURS));
    ack(2, payload("uatom", 30), utf8("{\"error\":\"x\"}"));
    assertEquals(flow(0, 0, 1_000), h.flow("uatom", OURS));
    assertEquals(Set.of(), h.sendMarkers(OURS, "uatom"));
  }

  @Test
  void ack_malformedChangesNothingReportsAndStillCallsTheApp() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);
    send(1, payload("uatom", 60));
    String before = h.digest();

    ack(1, payload("uatom", 60), utf8("success"));

    assertEquals(before, h.digest());
    h.assertOneInvalidPacketEvent(OURS, 14);
    verify(app).onAcknowledgementPacket(any(), any(), any(), eq(1L), any(), any(), any());
  }

  @Test
  void ack_malformedOfAnUndecodablePayload_reportsTheAckThenThePayload() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);
    send(1, payload("uatom", 60));
    String before = h.digest();

    ack(1, rawPayload(Ics20PayloadCodec.VERSION, "text/plain", utf8("{}")), utf8("success"));

    assertEquals(before, h.digest());
    assertEquals(List.of("14", "9"), h.events(RateLimitEvents.INVALID_PACKET).stream()
        .map(e -> attributes(e).get("code")).toList());
    verify(app).onAcknowledgementPacket(any(), any(), any(), eq(1L), any(), any(), any());
  }

  @Test
  void ack_missingIsMalformed() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);
    send(1, payload("uatom", 60));
    String before = h.digest();

    ack(1, payload("uatom", 60), null);

    assertEquals(before, h.digest());
    h.assertOneInvalidPacketEvent(OURS, 14);
  }

  @Test
  void timeout_givesTheOutflowBackOnlyInTheWindowItWasSentIn() {
    h.addLimit("uatom", OURS, 10, 10, 1, 1_000);
    send(1, payload("uatom", 60));
    send(2, payload("uatom", 30));

    middleware.onTimeoutPacket(h.ctx(), OURS, THEIRS, 1, payload("uatom", 60), RELAYER);
    assertEquals(flow(0, 30, 1_000), h.flow("uatom", OURS));

    h.chain.beginBlock(GENESIS.plus(Duration.ofHours(1)));
    send(3, payload("uatom", 50)); // the new window's own outflow, which the old packet must keep
    middleware.onTimeoutPacket(h.ctx(), OURS, THEIRS, 2, payload("uatom", 30), RELAYER);
    assertEquals(flow(0, 50, 1_000), h.flow("uatom", OURS));
    assertEquals(Set.of(3L), h.sendMarkers(OURS, "uatom"));
    verify(app).onTimeoutPacket(any(), eq(OURS), eq(THEIRS), eq(2L), any(), eq(RELAYER));
  }

  @Test
  void timeout_ofAnUnreadablePayloadIsAnEventAndTheAppIsStillCalled() {
    Payload bad = rawPayload(Ics20PayloadCodec.VERSION, "application/cbor", new byte[] {1});

    middleware.onTimeoutPacket(h.ctx(), OURS, THEIRS, 1, bad, RELAYER);

    h.assertOneInvalidPacketEvent(OURS, 9);
    verify(app).onTimeoutPacket(any(), eq(OURS), eq(THEIRS), eq(1L), eq(bad), eq(RELAYER));
  }

  // ---------------------------------------------------------------- async ack

  /** A payload received asynchronously on OURS with {@code sequence}, held by IBC core. */
  private Payload receivedAsync(long sequence, long amount) {
    if (h.keeper.getRateLimit(h.ctx(), new Path(voucher, OURS)).isEmpty()) {
      h.addLimit(voucher, OURS, 10, 10, 24, 1_000);
    }
    appReceives(RecvPacketResult.async());
    // the counterparty's port differs from ours, so a swapped port would miss the marker
    Payload p = withPorts(payload("uosmo", amount), "wasm.osmo1contract", PORT);
    recv(sequence, p);
    when(asyncPackets.asyncPacket(any(), eq(OURS), eq(sequence)))
        .thenReturn(Optional.of(new Packet(sequence, THEIRS, OURS, 1_800_000_000L, List.of(p))));
    return p;
  }

  private void writeAck(long sequence, byte[] appAck) {
    middleware.writeAcknowledgement(
        h.ctx(), OURS, sequence, new Acknowledgement(List.of(appAck)));
  }

  @Test
  void asyncAck_errorGivesTheInflowBackAndIsForwarded() {
    receivedAsync(5, 40);

    writeAck(5, UNIVERSAL_ERROR_ACK);

    assertEquals(flow(0, 0, 1_000), h.flow(voucher, OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, voucher));
    verify(core).writeAcknowledgement(h.aBranch(), eq(OURS), eq(5L), any());
  }

  @Test
  void asyncAck_ofOurDenomComingBackFindsItsMarkerThroughThePayloadsSourcePort() {
    h.addLimit("uatom", OURS, 10, 10, 24, 1_000);
    appReceives(RecvPacketResult.async());
    Payload p = withPorts(payload("wasm.osmo1contract/" + THEIRS + "/uatom", 40),
        "wasm.osmo1contract", PORT);
    recv(5, p);
    when(asyncPackets.asyncPacket(any(), eq(OURS), eq(5L)))
        .thenReturn(Optional.of(new Packet(5, THEIRS, OURS, 0, List.of(p))));

    writeAck(5, UNIVERSAL_ERROR_ACK);

    assertEquals(flow(0, 0, 1_000), h.flow("uatom", OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, "uatom"));
  }

  @Test
  void asyncAck_successKeepsTheInflowAndRemovesTheMarker() {
    receivedAsync(5, 40);

    writeAck(5, SUCCESS_ACK);

    assertEquals(flow(40, 0, 1_000), h.flow(voucher, OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, voucher));
  }

  @Test
  void asyncAck_afterTheWindowResetGivesNothingBack() {
    receivedAsync(5, 40);
    h.chain.beginBlock(GENESIS.plus(Duration.ofHours(24)));
    recv(6, payload("uosmo", 50));

    assertEquals(flow(50, 0, 1_000), h.flow(voucher, OURS));
    assertEquals(Set.of(6L), h.recvMarkers(OURS, voucher));
  }

  @Test
  void asyncAck_anyAcknowledgementButTheUniversalErrorIsASuccessAsIbcV2CoreReadsIt() {
    receivedAsync(5, 40);
    receivedAsync(6, 30);

    writeAck(5, utf8("done"));
    writeAck(6, utf8("{\"error\":\"an ICS-20 error is no IBC v2 failure\"}"));

    assertEquals(flow(70, 0, 1_000), h.flow(voucher, OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, voucher));
    assertEquals(List.of(), h.events(RateLimitEvents.INVALID_PACKET));
  }

  @Test
  void asyncAck_ofAPacketWithTwoPayloadsSettlesNothingAndIsReported() {
    Payload transfer = receivedAsync(5, 40);
    Payload other = new Payload("icahost", "icacontroller", "ics27-1", "application/json",
        utf8("{\"type\":1}"));
    when(asyncPackets.asyncPacket(any(), eq(OURS), eq(5L))).thenReturn(Optional.of(
        new Packet(5, THEIRS, OURS, 0, List.of(other, transfer))));
    String before = h.digest();

    writeAck(5, UNIVERSAL_ERROR_ACK);

    assertEquals(before, h.digest());
    h.assertOneInvalidPacketEvent(OURS, 9);
    verify(core).writeAcknowledgement(any(), eq(OURS), eq(5L), any());
  }

  @Test
  void asyncAck_missingOrWithoutAnAppAcknowledgementIsAnErrorAndForwardedAsGiven() {
    receivedAsync(5, 40);
    receivedAsync(6, 30);

    middleware.writeAcknowledgement(h.ctx(), OURS, 5, null);
    middleware.writeAcknowledgement(h.ctx(), OURS, 6, new Acknowledgement(List.of()));

    assertEquals(flow(0, 0, 1_000), h.flow(voucher, OURS));
    assertEquals(Set.of(), h.recvMarkers(OURS, voucher));
    verify(core).writeAcknowledgement(any(), eq(OURS), eq(5L), eq(null));
    verify(core).writeAcknowledgement(any(), eq(OURS), eq(6L), eq(new Acknowledgement(List.of())));
  }

  @Test
  void asyncAck_ofAPacketOnAnInvalidDestinationClientSettlesNothingAndIsCode8() {
    receivedAsync(5, 40);
    // our own denom coming back: the source case never reads our client, only the id check does
    Payload back = payload("transfer/" + THEIRS + "/uatom", 40);
    when(asyncPackets.asyncPacket(any(), eq("client 0"), eq(5L)))
        .thenReturn(Optional.of(new Packet(5, THEIRS, "client 0", 0, List.of(back))));
    String before = h.digest();

    middleware.writeAcknowledgement(
        h.ctx(), "client 0", 5, new Acknowledgement(List.of(UNIVERSAL_ERROR_ACK)));

    assertEquals(before, h.digest());
    h.assertOneInvalidPacketEvent("client 0", 8);
    verify(core).writeAcknowledgement(any(), eq("client 0"), eq(5L), any());
  }

  @Test
  void asyncAck_ofAPacketCoreDoesNotHoldIsForwardedUnsettled() {
    receivedAsync(5, 40);
    when(asyncPackets.asyncPacket(any(), eq(OURS), eq(6L))).thenReturn(Optional.empty());

    writeAck(6, UNIVERSAL_ERROR_ACK);

    assertEquals(flow(40, 0, 1_000), h.flow(voucher, OURS));
    assertEquals(Set.of(5L), h.recvMarkers(OURS, voucher));
    verify(core).writeAcknowledgement(any(), eq(OURS), eq(6L), any());
  }

  @Test
  void asyncAck_refusedBelowRollsTheSettlementBack() {
    receivedAsync(5, 40);
    String before = h.digest();
    doThrow(new IllegalStateException("acknowledgement already written"))
        .when(core).writeAcknowledgement(any(), any(), anyLong(), any());

    assertThrows(IllegalStateException.class, () -> writeAck(5, UNIVERSAL_ERROR_ACK));

    assertEquals(before, h.digest());
  }
}
