package dev.ratelimit.app.ibc.v2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.ibc.ClientState;
import dev.ratelimit.app.ibc.IbcCore;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.ibc.MsgUpdateClient;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.state.Keys;
import dev.ratelimit.app.state.ValueWriter;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.store.StorageException;
import dev.ratelimit.core.store.StoreDigest;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.v2.Acknowledgement;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import dev.ratelimit.middleware.ibc.v2.Packet;
import dev.ratelimit.middleware.ibc.v2.Payload;
import dev.ratelimit.middleware.ibc.v2.RecvPacketResult;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * IBC core's v2 part on its own, with a scripted module on port {@code mock}: ibc-go's commitment
 * vectors, what a receive keeps for each status, the universal error acknowledgement, async
 * packets and the no-op and refusal rules.
 */
class IbcCoreV2Test {
  private static final Instant NOW = Instant.parse("2024-01-01T00:00:00Z");
  private static final String OURS = "07-tendermint-0";
  private static final String THEIRS = "08-wasm-3";
  private static final byte[] APP_KEY = "s/mock/written".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] UNIVERSAL_ERROR_ACK = IbcCoreV2.universalErrorAcknowledgement();
  private static final String ALICE = Addresses.named("stride", "alice");
  private static final String RELAYER = Addresses.named("stride", "relayer");

  private final List<Event> events = new ArrayList<>();
  private final BlockContext ctx = BlockContext.of(5, NOW, new MemoryKvStore(), events::add);
  private final ScriptedModule module = new ScriptedModule();
  private final ChainInfo chain = new ChainInfo("stride-1", "stride");
  private final IbcCoreV2 core =
      new IbcCoreV2(new IbcCore(chain, Map.of()), chain, Map.of("mock", () -> module));

  IbcCoreV2Test() {
    new IbcCore(chain, Map.of()).initGenesis(ctx,
        List.of(new ClientState(OURS, "osmosis-1", new Height(1, 10), NOW)), List.of());
    core.initGenesis(ctx, List.of(new ClientCounterparty(OURS, THEIRS)));
  }

  /** The value ibc-go's own tests pin ({@code commitment_test.go}). */
  @Test
  void commitments_areIbcGosByteForByte() {
    byte[] json = ("{\"denom\":\"uatom\",\"amount\":\"1000000\",\"sender\":\"sender\","
        + "\"receiver\":\"receiver\",\"memo\":\"memo\"}").getBytes(StandardCharsets.UTF_8);
    Packet packet = new Packet(1, "07-tendermint-0", "07-tendermint-1", 100,
        List.of(new Payload("transfer", "transfer", "ics20-1", "application/json", json)));
    assertEquals("a096722aa6534040a0efbdae05765132a7b223ad306d6512f3734821bd046505",
        hex(CommitmentsV2.packet(packet)));
    assertEquals("f03b4667413e56aaf086663267913e525c442b56fa1af4fa3f3dab9f37044c5b",
        hex(CommitmentsV2.acknowledgement(new Acknowledgement(List.of(
            "some bytes".getBytes(StandardCharsets.UTF_8))))));
    assertEquals("e2fb30dfbf7abdeaca82d426534d2b3a9d5444dd2a87fa16d38b77ba1a13ced7",
        hex(CommitmentsV2.acknowledgement(new Acknowledgement(List.of(UNIVERSAL_ERROR_ACK)))));
  }

  @Test
  void packetsAndAcknowledgements_roundTripThroughTheirProtobuf() {
    Packet packet = packet(7);
    byte[] encoded = PacketCodec.encode(packet);
    assertEquals("0807", hex(encoded).substring(0, 4), "field 1, varint 7");
    assertEquals(packet, PacketCodec.decodePacket(encoded));
    Acknowledgement ack = new Acknowledgement(List.of(new byte[] {1, 2}));
    assertEquals("0a020102", hex(PacketCodec.encode(ack)));
    assertArrayEquals(new byte[] {1, 2}, PacketCodec.decodeAcknowledgement(PacketCodec.encode(ack))
        .appAcknowledgement(0).orElseThrow());
    assertThrows(IllegalArgumentException.class, () -> PacketCodec.decodePacket(new byte[] {10}));
  }

  @Test
  void packetEncoding_leavesEmptyFieldsOut_asProto3Does() {
    Packet empty = new Packet(0, "", "", 0, List.of(new Payload("", "", "", "", new byte[0])));
    assertEquals("2a00", hex(PacketCodec.encode(empty)), "field 5, an empty payload message");
    assertEquals(empty, PacketCodec.decodePacket(hex("2a00")));
  }

  @Test
  void events_withoutAnEncodedPacketAreNoIbcV2Packets() {
    Event v1 = new Event(
        IbcEvents.SEND_PACKET, List.of(new Event.Attribute("packet_sequence", "1")));
    assertFalse(IbcEventsV2.isV2(v1));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> IbcEventsV2.packetOf(v1));
    assertEquals(IbcEvents.SEND_PACKET + " event has no packet", e.getMessage());
  }

  @Test
  void counterparties_nameClientsOnBothSides() {
    assertThrows(IllegalArgumentException.class, () -> new ClientCounterparty("client 0", THEIRS));
    assertThrows(IllegalArgumentException.class, () -> new ClientCounterparty(OURS, "tendermint"));
  }

  @Test
  void success_keepsTheModulesWrites_andWritesItsAcknowledgement() {
    module.answer = RecvPacketResult.success(new byte[] {1});

    core.recv(ctx, new MsgRecvPacketV2(packet(1), RELAYER));

    assertTrue(ctx.store().has(APP_KEY));
    assertTrue(core.hasPacketReceipt(ctx, OURS, 1));
    assertArrayEquals(CommitmentsV2.acknowledgement(new Acknowledgement(List.of(new byte[] {1}))),
        core.packetAcknowledgement(ctx, OURS, 1).orElseThrow());
    assertEquals(List.of(IbcEvents.RECV_PACKET, IbcEvents.WRITE_ACKNOWLEDGEMENT),
        events.stream().map(Event::type).toList());
    assertArrayEquals(new byte[] {1}, IbcEventsV2.acknowledgementOf(events.get(1)).orElseThrow()
        .appAcknowledgement(0).orElseThrow());
    assertEquals(packet(1), IbcEventsV2.packetOf(events.get(1)));

    // a second delivery is a no-op: the module is not called again
    module.calls = 0;
    core.recv(ctx, new MsgRecvPacketV2(packet(1), RELAYER));
    assertEquals(0, module.calls);
  }

  @Test
  void failure_discardsTheModulesWrites_andWritesTheUniversalErrorAcknowledgement() {
    module.answer = RecvPacketResult.failure("{\"error\":\"no\"}".getBytes(StandardCharsets.UTF_8));

    core.recv(ctx, new MsgRecvPacketV2(packet(1), RELAYER));

    assertFalse(ctx.store().has(APP_KEY));
    assertTrue(core.hasPacketReceipt(ctx, OURS, 1));
    assertArrayEquals(
        CommitmentsV2.acknowledgement(new Acknowledgement(List.of(UNIVERSAL_ERROR_ACK))),
        core.packetAcknowledgement(ctx, OURS, 1).orElseThrow());
  }

  @Test
  void async_keepsThePacket_untilItsAcknowledgementIsWrittenOnce() {
    module.answer = RecvPacketResult.async();

    core.recv(ctx, new MsgRecvPacketV2(packet(3), RELAYER));

    assertTrue(ctx.store().has(APP_KEY));
    assertTrue(core.packetAcknowledgement(ctx, OURS, 3).isEmpty());
    assertEquals(packet(3), core.asyncPacket(ctx, OURS, 3).orElseThrow());

    Acknowledgement ack = new Acknowledgement(List.of(UNIVERSAL_ERROR_ACK));
    core.writeAcknowledgement(ctx, OURS, 3, ack);

    assertArrayEquals(CommitmentsV2.acknowledgement(ack),
        core.packetAcknowledgement(ctx, OURS, 3).orElseThrow());
    assertTrue(core.asyncPacket(ctx, OURS, 3).isEmpty());
    assertEquals(18, assertThrows(TxException.class,
        () -> core.writeAcknowledgement(ctx, OURS, 3, ack)).code());
    assertEquals(17, assertThrows(TxException.class,
        () -> core.writeAcknowledgement(ctx, OURS, 4, new Acknowledgement(List.of()))).code());
  }

  @Test
  void refusals_anotherCounterparty_aTimedOutPacket_aSuccessClaimingTheUniversalErrorAck() {
    Packet fromElsewhere = new Packet(1, "07-tendermint-5", OURS, NOW.getEpochSecond() + 60,
        packet(1).payloads());
    assertEquals(15, code(() -> core.recv(ctx, new MsgRecvPacketV2(fromElsewhere, RELAYER))));
    Packet late = new Packet(1, THEIRS, OURS, NOW.getEpochSecond(), packet(1).payloads());
    assertEquals(5, code(() -> core.recv(ctx, new MsgRecvPacketV2(late, RELAYER))));
    Packet twoPayloads = new Packet(1, THEIRS, OURS, NOW.getEpochSecond() + 60,
        List.of(packet(1).payloads().get(0), packet(1).payloads().get(0)));
    assertEquals(16, code(() -> core.recv(ctx, new MsgRecvPacketV2(twoPayloads, RELAYER))));

    module.answer = RecvPacketResult.success(UNIVERSAL_ERROR_ACK);
    assertEquals(17, code(() -> core.recv(ctx, new MsgRecvPacketV2(packet(1), RELAYER))));
  }

  @Test
  void success_withAnEmptyAppAcknowledgementIsRefused() {
    module.answer = RecvPacketResult.success(new byte[0]);

    assertEquals(13, code(() -> core.recv(ctx, new MsgRecvPacketV2(packet(1), RELAYER))));
  }

  @Test
  void counterparties_areThoseOfGenesis_andACorruptOneIsNotRead() {
    assertEquals(List.of(new ClientCounterparty(OURS, THEIRS)), core.counterparties(ctx));
    assertEquals(Optional.of(new ClientCounterparty(OURS, THEIRS)), core.counterparty(ctx, OURS));
    assertEquals(Optional.empty(), core.counterparty(ctx, THEIRS));

    // table 7 (class javadoc), one string too many
    ctx.store().put(Keys.of(IbcCore.PREFIX, 7).string(OURS).build(),
        new ValueWriter().string(OURS).string(THEIRS).string("").build());
    assertThrows(StorageException.class, () -> core.counterparty(ctx, OURS));
  }

  @Test
  void send_refusesABadSigner_aTimeoutNotAfterTheBlockOrOver24HoursLater_andTwoPayloads() {
    long now = NOW.getEpochSecond();
    List<Payload> one = packet(1).payloads();

    TxException signer = assertThrows(TxException.class,
        () -> core.sendPacket(ctx, new MsgSendPacketV2(OURS, now + 60, one, "nobody")));
    assertEquals(List.of(TxException.SDK, 7), List.of(signer.codespace(), signer.code()));
    assertEquals(5, code(() -> send(now, one)));
    assertEquals(4, code(() -> send(now + 86_401, one)));
    assertEquals(16, code(() -> send(now + 60, List.of(one.get(0), one.get(0)))));
    // in a block after our client's time, a timeout at the block's time is already elapsed (5),
    // though the client has not reached it
    BlockContext later = BlockContext.of(6, NOW.plusSeconds(30), ctx.store(), events::add);
    assertEquals(5, code(() -> core.sendPacket(
        later, new MsgSendPacketV2(OURS, now + 30, one, ALICE))));
    assertEquals(0, module.calls);
    assertEquals(List.of(), events);
    assertEquals(1, core.nextSequenceSend(ctx, OURS));

    assertEquals(1, send(now + 1, one));
    assertEquals(2, send(now + 86_400, one));
    assertEquals(2, module.calls);
    assertEquals(3, core.nextSequenceSend(ctx, OURS));
  }

  @Test
  void acknowledge_deletesTheCommitmentAndCallsTheModuleOnce() {
    long timeout = NOW.getEpochSecond() + 60;
    assertEquals(1, send(timeout, packet(1).payloads()));
    Packet sent = new Packet(1, OURS, THEIRS, timeout, packet(1).payloads());
    assertArrayEquals(
        CommitmentsV2.packet(sent), core.packetCommitment(ctx, OURS, 1).orElseThrow());
    events.clear();
    module.calls = 0;
    MsgAcknowledgementV2 ack = new MsgAcknowledgementV2(
        sent, new Acknowledgement(List.of(new byte[] {1})), RELAYER);

    core.acknowledge(ctx, ack);

    assertTrue(core.packetCommitment(ctx, OURS, 1).isEmpty());
    assertEquals(1, module.calls);
    assertEquals(List.of(IbcEvents.ACKNOWLEDGE_PACKET), events.stream().map(Event::type).toList());
    assertEquals(sent, IbcEventsV2.packetOf(events.get(0)));

    core.acknowledge(ctx, ack); // relayed again: a no-op
    assertEquals(1, module.calls);
    assertEquals(1, events.size());
  }

  @Test
  void timeout_needsOurClientPastTheTimeout_thenDeletesTheCommitmentAndCallsTheModuleOnce() {
    long timeout = NOW.getEpochSecond() + 60;
    send(timeout, packet(1).payloads());
    Packet sent = new Packet(1, OURS, THEIRS, timeout, packet(1).payloads());
    module.calls = 0;
    events.clear();

    assertEquals(9, code(() -> core.timeout(ctx, new MsgTimeoutV2(sent, RELAYER))));
    new IbcCore(chain, Map.of()).updateClient(
        ctx, new MsgUpdateClient(OURS, new Height(1, 11), NOW.plusSeconds(60), RELAYER));
    core.timeout(ctx, new MsgTimeoutV2(sent, RELAYER));

    assertTrue(core.packetCommitment(ctx, OURS, 1).isEmpty());
    assertEquals(1, module.calls);
    assertEquals(List.of(IbcEvents.TIMEOUT_PACKET), events.stream().map(Event::type).toList());
    core.timeout(ctx, new MsgTimeoutV2(sent, RELAYER)); // relayed again: a no-op
    assertEquals(1, module.calls);
  }

  @Test
  void acknowledgeAndTimeout_refuseBadPacketsAndAcknowledgements_evenWithoutACommitment() {
    long timeout = NOW.getEpochSecond(); // our client (at NOW) is past it
    Payload payload = packet(1).payloads().get(0);
    Packet twoPayloads = new Packet(1, OURS, THEIRS, timeout, List.of(payload, payload));
    Packet elsewhere = new Packet(1, OURS, "07-tendermint-5", timeout, List.of(payload));
    Packet fine = new Packet(1, OURS, THEIRS, timeout, List.of(payload));
    Acknowledgement ok = new Acknowledgement(List.of(new byte[] {1}));

    assertEquals(16, code(() -> core.acknowledge(ctx, new MsgAcknowledgementV2(
        twoPayloads, ok, RELAYER))));
    assertEquals(15, code(() -> core.acknowledge(ctx, new MsgAcknowledgementV2(
        elsewhere, ok, RELAYER))));
    assertEquals(17, code(() -> core.acknowledge(ctx, new MsgAcknowledgementV2(
        fine, new Acknowledgement(List.of(new byte[] {1}, new byte[] {2})), RELAYER))));
    assertEquals(13, code(() -> core.acknowledge(ctx, new MsgAcknowledgementV2(
        fine, new Acknowledgement(List.of(new byte[0])), RELAYER))));
    assertEquals(16, code(() -> core.timeout(ctx, new MsgTimeoutV2(twoPayloads, RELAYER))));
    assertEquals(15, code(() -> core.timeout(ctx, new MsgTimeoutV2(elsewhere, RELAYER))));

    // the same packet, well formed, without a commitment: no-ops
    core.acknowledge(ctx, new MsgAcknowledgementV2(fine, ok, RELAYER));
    core.timeout(ctx, new MsgTimeoutV2(fine, RELAYER));
    assertEquals(0, module.calls);
    assertEquals(List.of(), events);
  }

  /**
   * ibc-go's {@code ValidateBasic}: a relay message's signer must be an address (here of this
   * chain's prefix), checked before anything else, as the send's.
   */
  @Test
  void relayMessages_refuseASignerThatIsNotAnAddressOfThisChain_beforeTouchingState() {
    long timeout = NOW.getEpochSecond() + 60;
    send(timeout, packet(1).payloads());
    Packet sent = new Packet(1, OURS, THEIRS, timeout, packet(1).payloads());
    IbcCore v1 = new IbcCore(chain, Map.of());
    // our client past the timeout: with a good signer, each message below would change state
    v1.updateClient(
        ctx, new MsgUpdateClient(OURS, new Height(1, 11), NOW.plusSeconds(60), RELAYER));
    Acknowledgement ok = new Acknowledgement(List.of(new byte[] {1}));
    Packet twoPayloads = new Packet(2, THEIRS, OURS, timeout,
        List.of(packet(2).payloads().get(0), packet(2).payloads().get(0)));
    module.calls = 0;
    events.clear();
    String before = StoreDigest.hex(ctx.store());
    String otherChain = Addresses.named("osmo", "relayer");
    String badChecksum = RELAYER.substring(0, RELAYER.length() - 1)
        + (RELAYER.endsWith("q") ? "p" : "q");
    Map<String, String> refusals = new LinkedHashMap<>();
    refusals.put("", "address must not be empty");
    refusals.put(otherChain, "address \"" + otherChain + "\" has prefix osmo, expected stride");
    refusals.put(badChecksum, "invalid address \"" + badChecksum + "\": invalid bech32 checksum");
    refusals.put("relayer",
        "invalid address \"relayer\": bech32 length must be in [8, 1023], got 7");

    for (Map.Entry<String, String> r : refusals.entrySet()) {
      String signer = r.getKey();
      List<Runnable> messages = List.of(
          () -> core.recv(ctx, new MsgRecvPacketV2(packet(1), signer)),
          () -> core.recv(ctx, new MsgRecvPacketV2(twoPayloads, signer)), // else 16
          () -> core.acknowledge(ctx, new MsgAcknowledgementV2(sent, ok, signer)),
          () -> core.timeout(ctx, new MsgTimeoutV2(sent, signer)),
          () -> v1.updateClient(
              ctx, new MsgUpdateClient(OURS, new Height(1, 12), NOW.plusSeconds(65), signer)));
      for (Runnable m : messages) {
        TxException e = assertThrows(TxException.class, m::run, signer);
        assertEquals(List.of(TxException.SDK, 7, r.getValue()),
            List.of(e.codespace(), e.code(), e.getMessage()), signer);
      }
    }

    assertEquals(before, StoreDigest.hex(ctx.store()));
    assertEquals(0, module.calls);
    assertEquals(List.of(), events);
    // signed by an address of this chain, they go through
    core.recv(ctx, new MsgRecvPacketV2(packet(1), RELAYER));
    assertTrue(core.hasPacketReceipt(ctx, OURS, 1));
    core.timeout(ctx, new MsgTimeoutV2(sent, RELAYER));
    assertTrue(core.packetCommitment(ctx, OURS, 1).isEmpty());
    assertEquals(2, module.calls);
  }

  /** ibc-go v10's {@code MaximumPayloadsSize}: 262,144 bytes of payload value, on every message. */
  @Test
  void payloadsOver256KiB_areAnInvalidPacket_onSendAndReceive() {
    long now = NOW.getEpochSecond();
    assertEquals(1, send(now + 60, List.of(payloadOf(262_144))));
    TxException tooBig = assertThrows(TxException.class,
        () -> send(now + 60, List.of(payloadOf(262_145))));
    assertEquals(16, tooBig.code());
    assertEquals("payloads must not exceed 262144 bytes together, got 262145", tooBig.getMessage());
    assertEquals(2, core.nextSequenceSend(ctx, OURS));
    assertEquals(1, module.calls);

    Packet big = new Packet(1, THEIRS, OURS, now + 60, List.of(payloadOf(262_145)));
    assertEquals(16, code(() -> core.recv(ctx, new MsgRecvPacketV2(big, RELAYER))));
    assertFalse(core.hasPacketReceipt(ctx, OURS, 1));
    assertEquals(1, module.calls);
  }

  private static Payload payloadOf(int bytes) {
    return new Payload("mock", "mock", "mock-1", "application/octet-stream", new byte[bytes]);
  }

  /** ibc-go's host identifiers: 2 to 128 characters for ports, 8 to 64 for clients. */
  @Test
  void packets_needIbcGosIdentifiersForPortsAndClients() {
    // an accepted port then finds no module (12), a refused one is an invalid packet (16)
    for (String port : List.of("az", "AZ", "09", "._", "+-", "#[", "]<", ">a", "p".repeat(128))) {
      assertEquals(12, recvCode(THEIRS, port), port);
    }
    for (String port :
        List.of("a", "p".repeat(129), "a`", "a{", "a@", "a/", "a:", "a ", "a\u00e9")) {
      assertEquals(16, recvCode(THEIRS, port), port);
    }
    // an accepted client that is not our counterparty is 15
    assertEquals(15, recvCode("abcdefgh", "mock"));
    assertEquals(15, recvCode("c".repeat(64), "mock"));
    assertEquals(16, recvCode("abcdefg", "mock"));
    assertEquals(16, recvCode("c".repeat(65), "mock"));
    assertEquals(0, module.calls);
  }

  /** The code of a receive (in a branch that is then dropped) from that client to that port. */
  private int recvCode(String sourceClient, String destinationPort) {
    Packet p = new Packet(1, sourceClient, OURS, NOW.getEpochSecond() + 60, List.of(new Payload(
        "mock", destinationPort, "mock-1", "application/octet-stream", new byte[] {42})));
    try (BlockContext b = ctx.branch()) {
      return code(() -> core.recv(b, new MsgRecvPacketV2(p, RELAYER)));
    }
  }

  private long send(long timeout, List<Payload> payloads) {
    return core.sendPacket(ctx, new MsgSendPacketV2(OURS, timeout, payloads, ALICE));
  }

  private static int code(Runnable r) {
    return assertThrows(TxException.class, r::run).code();
  }

  private static Packet packet(long sequence) {
    return new Packet(sequence, THEIRS, OURS, NOW.getEpochSecond() + 60,
        List.of(new Payload("mock", "mock", "mock-1", "application/octet-stream",
            new byte[] {42})));
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  private static byte[] hex(String s) {
    return HexFormat.of().parseHex(s);
  }

  /** Answers receives as told, writing a key first; counts its calls. */
  private static final class ScriptedModule implements IbcModule {
    RecvPacketResult answer = RecvPacketResult.success(new byte[] {1});
    int calls;

    @Override
    public void onSendPacket(
        BlockContext ctx, String src, String dst, long seq, Payload p, String signer) {
      calls++;
    }

    @Override
    public RecvPacketResult onRecvPacket(
        BlockContext ctx, String src, String dst, long seq, Payload p, String relayer) {
      calls++;
      ctx.store().put(APP_KEY, new byte[] {1});
      return answer;
    }

    @Override
    public void onTimeoutPacket(
        BlockContext ctx, String src, String dst, long seq, Payload p, String relayer) {
      calls++;
    }

    @Override
    public void onAcknowledgementPacket(
        BlockContext ctx, String src, String dst, long seq, byte[] ack, Payload p, String r) {
      calls++;
    }
  }
}
