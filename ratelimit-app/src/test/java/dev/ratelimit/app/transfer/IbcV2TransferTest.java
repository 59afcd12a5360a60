package dev.ratelimit.app.transfer;

import static dev.ratelimit.app.testing.Network.ALICE;
import static dev.ratelimit.app.testing.Network.BOB;
import static dev.ratelimit.app.testing.Network.OSMO_CH;
import static dev.ratelimit.app.testing.Network.OSMO_CLIENT;
import static dev.ratelimit.app.testing.Network.STRIDE_CLIENT;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO_V2;
import static dev.ratelimit.app.testing.Network.UOSMO;
import static dev.ratelimit.app.testing.Network.big;
import static dev.ratelimit.app.testing.Network.flow;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.ibc.v2.CommitmentsV2;
import dev.ratelimit.app.ibc.v2.IbcCoreV2;
import dev.ratelimit.app.ibc.v2.IbcEventsV2;
import dev.ratelimit.app.ibc.v2.MsgSendPacketV2;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.testing.Network;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.store.PrefixKvStore;
import dev.ratelimit.core.store.StoreDigest;
import dev.ratelimit.middleware.ibc.v2.Acknowledgement;
import dev.ratelimit.middleware.ibc.v2.Packet;
import dev.ratelimit.middleware.ibc.v2.Payload;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.Ics20PayloadCodec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ICS-20 over IBC v2 between the two chains through the real wiring ({@code ChainComponent}: IBC
 * core's v2 part, the rate-limit middleware for IBC v2, {@link TransferV2}), limits added by
 * governance on client ids: Osmosis sends on {@code 07-tendermint-1}, Stride receives on {@code
 * 07-tendermint-0}.
 */
class IbcV2TransferTest {
  private static final byte[] SUCCESS_ACK = utf8("{\"result\":\"AQ==\"}");
  private static final byte[] SUCCESS_ACK_COMMITMENT =
      CommitmentsV2.acknowledgement(new Acknowledgement(List.of(SUCCESS_ACK)));
  private static final byte[] UNIVERSAL_ERROR_ACK_COMMITMENT = CommitmentsV2.acknowledgement(
      new Acknowledgement(List.of(IbcCoreV2.universalErrorAcknowledgement())));

  @TempDir Path root;
  private Network n;

  @BeforeEach
  void start() {
    n = Network.startV2(root);
    // Stride's supply of the IBC v2 voucher of uosmo becomes 100 before any limit exists
    TxResult r = n.sendUosmoToStrideV2(100);
    assertTrue(r.isOk(), r.log());
    assertEquals(1, r.value().orElseThrow(), "the client's first IBC v2 sequence");
    n.relay();
    assertEquals(big(100), n.stride.totalSupply(STRIDE_UOSMO_V2));
    assertEquals(big(100), n.stride.balance(BOB, STRIDE_UOSMO_V2));
    assertEquals(big(100), n.escrowed(n.osmosis, OSMO_CLIENT, UOSMO));
  }

  @AfterEach
  void stop() {
    n.close();
  }

  @Test
  void withinQuota_arrives_andCountsTheOutflowOnTheSendersClient() {
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CLIENT, 10, 10, 24);
    n.addRateLimit(n.stride, STRIDE_UOSMO_V2, STRIDE_CLIENT, 50, 50, 24);
    n.net.setRelaying(false);

    TxResult sent = n.sendUosmoToStrideV2(50);

    assertTrue(sent.isOk(), sent.log());
    long seq = sent.value().orElseThrow();
    assertEquals(2, seq);
    assertEquals(big(999_850), n.osmosis.balance(ALICE, UOSMO));
    assertEquals(big(150), n.escrowed(n.osmosis, OSMO_CLIENT, UOSMO));
    assertEquals(flow(0, 50, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT));
    assertTrue(pendingSend(n.osmosis, UOSMO, OSMO_CLIENT, seq));
    assertEquals(3, nextSequenceV2(n.osmosis));
    long v1Sequence =
        n.osmosis.query(ctx -> n.osmosis.ibc().nextSequenceSend(ctx, "transfer", OSMO_CH));
    assertEquals(1, v1Sequence, "IBC v1's own sequences");
    Event send = v2Event(sent.events(), IbcEvents.SEND_PACKET);
    assertEquals(Optional.of(OSMO_CLIENT), send.attribute("packet_source_client"));
    assertEquals(Optional.of(STRIDE_CLIENT), send.attribute("packet_dest_client"));
    assertEquals(Optional.of("2"), send.attribute("packet_sequence"));
    Packet packet = IbcEventsV2.packetOf(send);
    FungibleTokenPacketData data = new FungibleTokenPacketData(
        UOSMO, BigInteger.valueOf(50), ALICE, BOB, "");
    assertEquals(List.of(new Payload("transfer", "transfer", "ics20-1", "application/json",
        Ics20PayloadCodec.encode(data, Ics20PayloadCodec.ENCODING_JSON))), packet.payloads());
    assertArrayEquals(CommitmentsV2.packet(packet), commitment(n.osmosis, OSMO_CLIENT, seq));
    assertEquals(Optional.of("uosmo"), sent.event("ibc_transfer").orElseThrow().attribute("denom"));

    n.net.setRelaying(true);
    n.net.tick(); // Stride receives it and acknowledges a success

    assertEquals(big(150), n.stride.balance(BOB, STRIDE_UOSMO_V2));
    assertEquals(flow(50, 0, 100), n.flow(n.stride, STRIDE_UOSMO_V2, STRIDE_CLIENT));
    assertTrue(received(n.stride, seq));
    assertArrayEquals(SUCCESS_ACK_COMMITMENT, ack(n.stride, seq).orElseThrow());
    assertEquals(big(0), n.stride.totalSupply(STRIDE_UOSMO), "no IBC v1 voucher");

    n.relay(); // the acknowledgement reaches Osmosis
    assertEquals(flow(0, 50, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT), "kept");
    assertFalse(pendingSend(n.osmosis, UOSMO, OSMO_CLIENT, seq));
    assertTrue(n.osmosis.query(ctx ->
        n.osmosis.ibcV2().packetCommitment(ctx, OSMO_CLIENT, seq)).isEmpty());
    assertEquals(big(999_850), n.osmosis.balance(ALICE, UOSMO));
  }

  @Test
  void overQuota_isRefusedWithCode4_andNothingMoves() {
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CLIENT, 10, 10, 24);
    String before = moduleState(n.osmosis);

    TxResult r = n.sendUosmoToStrideV2(100_001);

    assertEquals("ratelimit", r.codespace());
    assertEquals(ErrorCode.QUOTA_EXCEEDED.code(), r.code());
    assertEquals(before, moduleState(n.osmosis), "a failed transaction writes nothing");
    assertEquals(big(999_900), n.osmosis.balance(ALICE, UOSMO));
    assertEquals(big(100), n.escrowed(n.osmosis, OSMO_CLIENT, UOSMO));
    assertEquals(2, nextSequenceV2(n.osmosis));
    assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT));
    Event denied = r.event(RateLimitEvents.TRANSFER_DENIED).orElseThrow();
    assertEquals(Optional.of(OSMO_CLIENT), denied.attribute("channel_or_client"));
    assertEquals(Optional.of("packet_send"), denied.attribute("action"));
    assertTrue(r.event(IbcEvents.SEND_PACKET).isEmpty());
    assertTrue(n.net.relayer().isIdle(), "no packet was sent");

    TxResult atThreshold = n.sendUosmoToStrideV2(100_000); // strict >
    assertTrue(atThreshold.isOk(), atThreshold.log());
    assertEquals(2, atThreshold.value().orElseThrow());
    assertEquals(flow(0, 100_000, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT));
  }

  @Test
  void timeoutAndUniversalErrorAck_giveTheOutflowBackInTheWindow_notAfterAReset() {
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CLIENT, 10, 10, 1);

    // in the window: one times out, one is refused by Stride's transfer (not an address)
    n.net.setRelaying(false);
    long timesOut = sendV2(30, BOB, Duration.ofSeconds(6)); // after its block, before the next
    long refused = sendV2(20, "stride1notanaddress", Duration.ofMinutes(10));
    assertEquals(flow(0, 50, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT));
    n.net.tick(); // Stride's block passes the first one's timeout unrelayed
    n.net.setRelaying(true);
    n.relay();

    assertArrayEquals(UNIVERSAL_ERROR_ACK_COMMITMENT, ack(n.stride, refused).orElseThrow());
    assertFalse(received(n.stride, timesOut), "never received");
    assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT), "both given back");
    assertEquals(big(999_900), n.osmosis.balance(ALICE, UOSMO), "both refunded");
    assertEquals(big(100), n.escrowed(n.osmosis, OSMO_CLIENT, UOSMO));
    assertFalse(pendingSend(n.osmosis, UOSMO, OSMO_CLIENT, timesOut));
    assertFalse(pendingSend(n.osmosis, UOSMO, OSMO_CLIENT, refused));

    // across a reset: the same two, settled in the next window after a send counted there
    n.net.setRelaying(false);
    long timesOutLater = sendV2(30, BOB, Duration.ofSeconds(6));
    long refusedLater = sendV2(20, "stride1notanaddress", Duration.ofHours(2));
    n.net.advanceTime(Duration.ofHours(1)); // the 1 h window resets at this BeginBlock
    assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT));
    assertTrue(n.osmosis.query(ctx -> n.osmosis.rateLimits().getPendingSendPackets(
        ctx, new dev.ratelimit.core.model.Path(UOSMO, OSMO_CLIENT))).isEmpty());
    long counted = sendV2(7, BOB, Duration.ofMinutes(10));
    n.net.setRelaying(true);
    n.relay();

    assertArrayEquals(UNIVERSAL_ERROR_ACK_COMMITMENT, ack(n.stride, refusedLater).orElseThrow());
    assertArrayEquals(SUCCESS_ACK_COMMITMENT, ack(n.stride, counted).orElseThrow());
    assertFalse(received(n.stride, timesOutLater));
    assertEquals(flow(0, 7, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT),
        "the old window's sends give nothing back in the new one");
    assertEquals(big(999_893), n.osmosis.balance(ALICE, UOSMO), "refunded all the same");
    assertEquals(big(107), n.escrowed(n.osmosis, OSMO_CLIENT, UOSMO));
  }

  @Test
  void aTimeoutRelayedAlone_movesTheSendersClientPastItFirst() {
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CLIENT, 10, 10, 24);
    n.net.setRelaying(false);
    long timesOut = sendV2(30, BOB, Duration.ofSeconds(6)); // after its block, before the next
    n.net.tick(); // Stride's block passes its timeout unrelayed
    Instant before = clientTime(n.osmosis, OSMO_CLIENT);
    n.net.setRelaying(true);
    n.relay(); // no acknowledgement travels with it: only the timeout's own update helps

    assertFalse(received(n.stride, timesOut));
    assertTrue(clientTime(n.osmosis, OSMO_CLIENT).isAfter(before));
    assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT), "given back");
    assertEquals(big(999_900), n.osmosis.balance(ALICE, UOSMO), "refunded");
    assertTrue(n.osmosis.query(ctx ->
        n.osmosis.ibcV2().packetCommitment(ctx, OSMO_CLIENT, timesOut)).isEmpty());
  }

  @Test
  void anAcknowledgementRelayedAlone_updatesTheSendersClientToo() {
    n.net.setRelaying(false);
    sendV2(5, BOB, Duration.ofMinutes(10));
    n.net.setRelaying(true);
    n.net.tick(); // Stride receives it and writes its acknowledgement
    Instant before = clientTime(n.osmosis, OSMO_CLIENT);

    n.relay(); // the acknowledgement, alone, reaches Osmosis

    assertTrue(clientTime(n.osmosis, OSMO_CLIENT).isAfter(before));
  }

  @Test
  void recvOverQuota_answersFailure_universalErrorAck_senderRefunded() {
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CLIENT, 10, 10, 24);
    n.addRateLimit(n.stride, STRIDE_UOSMO_V2, STRIDE_CLIENT, 10, 10, 24);
    assertTrue(n.sendUosmoToStrideV2(8).isOk());
    n.relay();
    assertEquals(flow(8, 0, 100), n.flow(n.stride, STRIDE_UOSMO_V2, STRIDE_CLIENT));

    n.net.setRelaying(false);
    TxResult sent = n.sendUosmoToStrideV2(8);
    long seq = sent.value().orElseThrow();
    assertEquals(flow(0, 16, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT));
    assertEquals(big(999_884), n.osmosis.balance(ALICE, UOSMO));
    n.net.setRelaying(true);
    BlockResultEvents stride = new BlockResultEvents(n.net.tick().of(n.stride).events());

    assertArrayEquals(UNIVERSAL_ERROR_ACK_COMMITMENT, ack(n.stride, seq).orElseThrow());
    Acknowledgement written = IbcEventsV2.acknowledgementOf(
        stride.v2(IbcEvents.WRITE_ACKNOWLEDGEMENT)).orElseThrow();
    assertArrayEquals(IbcCoreV2.universalErrorAcknowledgement(),
        written.appAcknowledgement(0).orElseThrow(), "not the limiter's own error JSON");
    Event denied = stride.first(RateLimitEvents.TRANSFER_DENIED);
    assertEquals(Optional.of("packet_recv"), denied.attribute("action"));
    assertEquals(Optional.of(STRIDE_CLIENT), denied.attribute("channel_or_client"));
    assertEquals(flow(8, 0, 100), n.flow(n.stride, STRIDE_UOSMO_V2, STRIDE_CLIENT));
    assertEquals(big(108), n.stride.totalSupply(STRIDE_UOSMO_V2), "nothing minted");
    assertTrue(received(n.stride, seq));

    n.relay(); // the universal error acknowledgement reaches Osmosis
    assertEquals(big(999_892), n.osmosis.balance(ALICE, UOSMO), "refunded");
    assertEquals(flow(0, 8, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT), "outflow undone");
    assertFalse(pendingSend(n.osmosis, UOSMO, OSMO_CLIENT, seq));
    assertEquals(big(108), n.escrowed(n.osmosis, OSMO_CLIENT, UOSMO));
    assertTrue(n.osmosis.query(ctx ->
        n.osmosis.ibcV2().packetCommitment(ctx, OSMO_CLIENT, seq)).isEmpty());
  }

  @Test
  void aLimitOnTheClientLeavesChannelTrafficAlone_andALimitOnTheChannelLeavesIbcV2Alone() {
    // a limit on the channel: IBC v2 sends of uosmo do not count there
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CH, 1, 1, 24);
    assertTrue(n.sendUosmoToStrideV2(50_000).isOk());
    assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
    TxResult overOnChannel = n.sendUosmoToStride(50_000);
    assertEquals(ErrorCode.QUOTA_EXCEEDED.code(), overOnChannel.code());

    // a limit on the client too: IBC v1 sends do not count there
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CLIENT, 1, 1, 24);
    assertTrue(n.sendUosmoToStride(5_000).isOk());
    assertEquals(flow(0, 5_000, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
    assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT));
    TxResult overOnClient = n.sendUosmoToStrideV2(10_001);
    assertEquals(ErrorCode.QUOTA_EXCEEDED.code(), overOnClient.code());
    assertTrue(n.sendUosmoToStrideV2(10_000).isOk());
    assertEquals(flow(0, 10_000, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CLIENT));
    assertEquals(flow(0, 5_000, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));

    n.relay();
    // two vouchers on Stride, one per path, each backed by its own escrow on Osmosis
    assertEquals(big(60_100), n.stride.totalSupply(STRIDE_UOSMO_V2));
    assertEquals(big(5_000), n.stride.totalSupply(STRIDE_UOSMO));
    assertEquals(big(60_100), n.escrowed(n.osmosis, OSMO_CLIENT, UOSMO));
    assertEquals(big(5_000), n.escrowed(n.osmosis, OSMO_CH, UOSMO));
    assertEquals(Optional.of("osmosis-1"), n.stride.query(ctx ->
        n.stride.ibc().counterpartyChainId(ctx, STRIDE_CLIENT)));
  }

  @Test
  void returnTransfer_burnsTheV2VoucherAndUnescrowsOnOsmosis() {
    n.addRateLimit(n.stride, STRIDE_UOSMO_V2, STRIDE_CLIENT, 20, 20, 24);
    TxResult r = n.net.deliver(n.stride,
        n.transferV2Msg(BOB, STRIDE_CLIENT, STRIDE_UOSMO_V2, 12, ALICE));
    assertTrue(r.isOk(), r.log());
    assertEquals(Optional.of("transfer/" + STRIDE_CLIENT + "/uosmo"),
        r.event("ibc_transfer").orElseThrow().attribute("denom"), "the full trace is sent");
    assertEquals(big(88), n.stride.totalSupply(STRIDE_UOSMO_V2), "burned on send");
    assertEquals(flow(0, 12, 100), n.flow(n.stride, STRIDE_UOSMO_V2, STRIDE_CLIENT));
    n.relay();
    assertEquals(big(999_912), n.osmosis.balance(ALICE, UOSMO));
    assertEquals(big(88), n.escrowed(n.osmosis, OSMO_CLIENT, UOSMO));
  }

  @Test
  void theSenderMustSign_andOnlyTransferPortsAndTimeoutsWithin24HoursAreSent() {
    Payload payload = new Payload("transfer", "transfer", "ics20-1", "application/json",
        Ics20PayloadCodec.encode(new FungibleTokenPacketData(UOSMO, big(5), ALICE, BOB, ""),
            Ics20PayloadCodec.ENCODING_JSON));
    String mallory = OsmosisStride.osmosisAccount("mallory");
    long timeout = n.timeoutV2In(Duration.ofMinutes(10));

    TxResult notSigner = n.net.deliver(n.osmosis, new MsgSendPacketV2(
        OSMO_CLIENT, timeout, List.of(payload), mallory));
    assertEquals("sdk", notSigner.codespace());
    assertEquals(4, notSigner.code());

    Payload otherPort = new Payload("transfer", "ica", "ics20-1", "application/json",
        payload.value());
    TxResult port = n.net.deliver(n.osmosis, new MsgSendPacketV2(
        OSMO_CLIENT, timeout, List.of(otherPort), ALICE));
    assertEquals("ibc", port.codespace());
    assertEquals(16, port.code());

    TxResult tooLate = n.net.deliver(n.osmosis, MsgTransferV2.of(ALICE, OSMO_CLIENT, UOSMO,
        big(5), BOB, n.timeoutV2In(Duration.ofHours(24).plusSeconds(6))));
    assertEquals("ibc", tooLate.codespace());
    assertEquals(4, tooLate.code());

    TxResult noCounterparty = n.net.deliver(n.osmosis, MsgTransferV2.of(ALICE, "07-tendermint-9",
        UOSMO, big(5), BOB, timeout));
    assertEquals(14, noCounterparty.code());

    for (String encoding : List.of("", "application/xml")) {
      TxResult unknownEncoding = n.net.deliver(n.osmosis, new MsgTransferV2(ALICE, OSMO_CLIENT,
          UOSMO, big(5), BOB, timeout, "", encoding));
      assertEquals("sdk", unknownEncoding.codespace(), encoding);
      assertEquals(18, unknownEncoding.code(), encoding);
      assertTrue(unknownEncoding.log().contains("unknown payload encoding \"" + encoding + "\""),
          unknownEncoding.log());
    }

    assertEquals(big(999_900), n.osmosis.balance(ALICE, UOSMO));
    assertEquals(2, nextSequenceV2(n.osmosis));

    TxResult signed = n.net.deliver(n.osmosis, new MsgSendPacketV2(
        OSMO_CLIENT, timeout, List.of(payload), ALICE));
    assertTrue(signed.isOk(), signed.log());
    n.relay();
    assertEquals(big(105), n.stride.balance(BOB, STRIDE_UOSMO_V2));
  }

  @Test
  void theTransferModuleChecksItsPayload_receiverSenderAmountAndBaseDenom() {
    long timeout = n.timeoutV2In(Duration.ofMinutes(10));

    // MsgTransferV2 checks the receiver before it builds a payload (not the limiter's code 9)
    TxResult blank = n.net.deliver(n.osmosis, MsgTransferV2.of(
        ALICE, OSMO_CLIENT, UOSMO, big(5), " ", timeout));
    assertEquals(List.of("sdk", 7), List.of(blank.codespace(), blank.code()), blank.log());

    // a packet sent directly: its sender must be an address (bech32 has one case) ...
    int letter = ALICE.length() - 1;
    while (!Character.isLetter(ALICE.charAt(letter))) {
      letter--;
    }
    String mixedCase = ALICE.substring(0, letter)
        + Character.toUpperCase(ALICE.charAt(letter)) + ALICE.substring(letter + 1);
    TxResult mixed = n.net.deliver(n.osmosis, sendPacket(mixedCase, UOSMO, 5, timeout));
    assertEquals(List.of("sdk", 7), List.of(mixed.codespace(), mixed.code()), mixed.log());
    // ... sending a positive amount
    TxResult zero = n.net.deliver(n.osmosis, sendPacket(ALICE, UOSMO, 0, timeout));
    assertEquals(List.of("transfer", 5), List.of(zero.codespace(), zero.code()), zero.log());

    // a base denom holding '/' anywhere, the first character too, is not sent over IBC v2
    TxResult slash = n.net.deliver(n.osmosis, MsgTransferV2.of(
        ALICE, OSMO_CLIENT, "/uosmo", big(5), BOB, timeout));
    assertEquals(List.of("transfer", 3), List.of(slash.codespace(), slash.code()), slash.log());

    assertEquals(big(999_900), n.osmosis.balance(ALICE, UOSMO));
    assertEquals(2, nextSequenceV2(n.osmosis));
  }

  private static MsgSendPacketV2 sendPacket(
      String sender, String denom, long amount, long timeout) {
    FungibleTokenPacketData data = new FungibleTokenPacketData(denom, big(amount), sender, BOB, "");
    return new MsgSendPacketV2(OSMO_CLIENT, timeout, List.of(new Payload("transfer", "transfer",
        "ics20-1", "application/json",
        Ics20PayloadCodec.encode(data, Ics20PayloadCodec.ENCODING_JSON))), ALICE);
  }

  @Test
  void replayingBothBlockLogsOnFreshNodes_givesTheSameAppHashes() {
    n.addRateLimit(n.stride, STRIDE_UOSMO_V2, STRIDE_CLIENT, 10, 10, 24);
    n.net.setRelaying(false);
    sendV2(8, BOB, Duration.ofSeconds(6)); // times out
    n.net.setRelaying(true);
    sendV2(30, BOB, Duration.ofMinutes(10)); // over Stride's recv quota: universal error ack
    n.relay();
    for (ChainApp chain : List.of(n.osmosis, n.stride)) {
      boolean osmosis = chain == n.osmosis;
      try (ChainApp replay = ChainComponent.open(root.resolve("replay-" + chain.chainId()),
          chain.chainId(), osmosis ? OsmosisStride.OSMOSIS_AUTHORITY
              : OsmosisStride.STRIDE_AUTHORITY)) {
        replay.initChain(osmosis ? n.osmosisGenesis : n.strideGenesis);
        n.net.log(chain).forEach(replay::executeBlock);
        assertEquals(HexFormat.of().formatHex(chain.lastAppHash()),
            HexFormat.of().formatHex(replay.lastAppHash()), chain.chainId());
      }
    }
  }

  private long sendV2(long amount, String receiver, Duration timeout) {
    TxResult r = n.net.deliver(n.osmosis, MsgTransferV2.of(
        ALICE, OSMO_CLIENT, UOSMO, big(amount), receiver, n.timeoutV2In(timeout)));
    assertTrue(r.isOk(), r.log());
    return r.value().orElseThrow();
  }

  private static Event v2Event(List<Event> events, String type) {
    return events.stream().filter(e -> e.type().equals(type) && IbcEventsV2.isV2(e)).findFirst()
        .orElseThrow(() -> new AssertionError("no IBC v2 " + type + " in " + events));
  }

  /** A block's events. */
  private record BlockResultEvents(List<Event> events) {
    Event v2(String type) {
      return v2Event(events, type);
    }

    Event first(String type) {
      return events.stream().filter(e -> e.type().equals(type)).findFirst().orElseThrow();
    }
  }

  private static long nextSequenceV2(ChainApp chain) {
    return chain.query(ctx -> chain.ibcV2().nextSequenceSend(ctx, OSMO_CLIENT));
  }

  /** The time of {@code chain}'s light client {@code client}. */
  private static Instant clientTime(ChainApp chain, String client) {
    return chain.query(ctx -> chain.ibc().client(ctx, client)).orElseThrow().latestTime();
  }

  private static boolean received(ChainApp chain, long seq) {
    return chain.query(ctx -> chain.ibcV2().hasPacketReceipt(ctx, STRIDE_CLIENT, seq));
  }

  private static byte[] commitment(ChainApp chain, String client, long seq) {
    return chain.query(ctx -> chain.ibcV2().packetCommitment(ctx, client, seq)).orElseThrow();
  }

  private Optional<byte[]> ack(ChainApp chain, long seq) {
    return chain.query(ctx -> chain.ibcV2().packetAcknowledgement(ctx, STRIDE_CLIENT, seq));
  }

  private static boolean pendingSend(ChainApp chain, String denom, String client, long seq) {
    return chain.query(ctx ->
        chain.rateLimits().isPendingSendPacket(ctx, new PendingPacket(client, denom, seq)));
  }

  private static String moduleState(ChainApp chain) {
    return chain.query(ctx ->
        StoreDigest.hex(new PrefixKvStore(ctx.store(), new byte[] {'s', '/'})));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
