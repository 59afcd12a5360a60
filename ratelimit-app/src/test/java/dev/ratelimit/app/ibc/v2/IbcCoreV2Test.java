package dev.ratelimit.app.ibc.v2;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.ibc.ClientState;
import dev.ratelimit.app.ibc.IbcCore;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.store.MemoryKvStore;
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
import java.util.List;
import java.util.Map;
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
  void success_keepsTheModulesWrites_andWritesItsAcknowledgement() {
    module.answer = RecvPacketResult.success(new byte[] {1});

    core.recv(ctx, new MsgRecvPacketV2(packet(1), "relayer"));

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
    core.recv(ctx, new MsgRecvPacketV2(packet(1), "relayer"));
    assertEquals(0, module.calls);
  }

  @Test
  void failure_discardsTheModulesWrites_andWritesTheUniversalErrorAcknowledgement() {
    module.answer = RecvPacketResult.failure("{\"error\":\"no\"}".getBytes(StandardCharsets.UTF_8));

    core.recv(ctx, new MsgRecvPacketV2(packet(1), "relayer"));

    assertFalse(ctx.store().has(APP_KEY));
    assertTrue(core.hasPacketReceipt(ctx, OURS, 1));
    assertArrayEquals(
        CommitmentsV2.acknowledgement(new Acknowledgement(List.of(UNIVERSAL_ERROR_ACK))),
        core.packetAcknowledgement(ctx, OURS, 1).orElseThrow());
  }

  @Test
  void async_keepsThePacket_untilItsAcknowledgementIsWrittenOnce() {
    module.answer = RecvPacketResult.async();

    core.recv(ctx, new MsgRecvPacketV2(packet(3), "relayer"));

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
    assertEquals(15, code(() -> core.recv(ctx, new MsgRecvPacketV2(fromElsewhere, "r"))));
    Packet late = new Packet(1, THEIRS, OURS, NOW.getEpochSecond(), packet(1).payloads());
    assertEquals(5, code(() -> core.recv(ctx, new MsgRecvPacketV2(late, "r"))));
    Packet twoPayloads = new Packet(1, THEIRS, OURS, NOW.getEpochSecond() + 60,
        List.of(packet(1).payloads().get(0), packet(1).payloads().get(0)));
    assertEquals(16, code(() -> core.recv(ctx, new MsgRecvPacketV2(twoPayloads, "r"))));

    module.answer = RecvPacketResult.success(UNIVERSAL_ERROR_ACK);
    assertEquals(17, code(() -> core.recv(ctx, new MsgRecvPacketV2(packet(1), "r"))));
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
