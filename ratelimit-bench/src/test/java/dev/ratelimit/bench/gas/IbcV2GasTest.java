package dev.ratelimit.bench.gas;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ratelimit.bench.fixture.BenchChain;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.middleware.RateLimitMiddlewareV2;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import dev.ratelimit.middleware.ibc.v2.Payload;
import dev.ratelimit.middleware.ibc.v2.RecvPacketResult;
import dev.ratelimit.middleware.transfer.Ics20PayloadCodec;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * IBC v2 packets cost what IBC v1 packets cost: {@link RateLimitMiddlewareV2} makes exactly the
 * store accesses {@link GasReport} pins for the v1 middleware (same keys, same sizes, same order),
 * whatever the payload's encoding, so docs/PERFORMANCE.md's gas table holds for both.
 */
class IbcV2GasTest {
  /** An app that touches no store, like the bench's stub transfer app. */
  private static final IbcModule APP = new IbcModule() {
    @Override
    public void onSendPacket(BlockContext c, String s, String d, long q, Payload p, String g) {}

    @Override
    public RecvPacketResult onRecvPacket(
        BlockContext c, String s, String d, long q, Payload p, String r) {
      return RecvPacketResult.success(Acknowledgement.SUCCESS.toJsonBytes());
    }

    @Override
    public void onTimeoutPacket(BlockContext c, String s, String d, long q, Payload p, String r) {}

    @Override
    public void onAcknowledgementPacket(
        BlockContext c, String s, String d, long q, byte[] a, Payload p, String r) {}
  };

  private static final Map<PacketOp, GasReport.Row> V1 = GasReport.measure().stream()
      .collect(Collectors.toMap(GasReport.Row::op, Function.identity()));

  private final AccessLog log = new AccessLog();
  private final BenchChain chain = new BenchChain(new MeteredKvStore(new MemoryKvStore(), log));
  private final RateLimitMiddlewareV2 v2 = new RateLimitMiddlewareV2(chain.keeper(), () -> APP,
      (ctx, client, sequence, ack) -> { }, (ctx, client, sequence) -> Optional.empty());

  private static Payload payload(String denom, String encoding) {
    return new Payload(BenchChain.PORT, BenchChain.PORT, Ics20PayloadCodec.VERSION, encoding,
        Ics20PayloadCodec.encode(Ics20PayloadCodec.decode(Ics20PayloadCodec.VERSION,
            Ics20PayloadCodec.ENCODING_JSON, BenchChain.packetData(denom)), encoding));
  }

  private List<StoreAccess> metered(Runnable op) {
    log.clear();
    op.run();
    List<StoreAccess> accesses = log.accesses();
    log.clear();
    return accesses;
  }

  @ParameterizedTest
  @ValueSource(strings = {Ics20PayloadCodec.ENCODING_JSON, Ics20PayloadCodec.ENCODING_PROTOBUF,
      Ics20PayloadCodec.ENCODING_ABI})
  void sendAckErrorTimeoutAndRecv_makeIbcV1sAccesses(String encoding) {
    chain.initGenesis(List.of(BenchChain.scenarioLimit()));
    BlockContext ctx = chain.root();
    Payload sent = payload(BenchChain.SEND_DENOM, encoding);
    Payload received = payload(BenchChain.BASE_DENOM, encoding);
    String ours = BenchChain.CHANNEL; // ibc-go's alias: a v2 packet may name the v1 channel
    String theirs = BenchChain.COUNTERPARTY_CHANNEL;

    assertEquals(V1.get(PacketOp.SEND).ours(),
        metered(() -> v2.onSendPacket(ctx, ours, theirs, 1, sent, BenchChain.SENDER)));
    assertEquals(V1.get(PacketOp.ACK).ours(), metered(() -> v2.onAcknowledgementPacket(
        ctx, ours, theirs, 1, Acknowledgement.SUCCESS.toJsonBytes(), sent, BenchChain.RELAYER)));
    v2.onSendPacket(ctx, ours, theirs, 2, sent, BenchChain.SENDER);
    assertEquals(V1.get(PacketOp.ACK_ERROR).ours(), metered(() -> v2.onAcknowledgementPacket(
        ctx, ours, theirs, 2, dev.ratelimit.middleware.ibc.v2.Acknowledgement.universalErrorBytes(),
        sent, BenchChain.RELAYER)));
    v2.onSendPacket(ctx, ours, theirs, 3, sent, BenchChain.SENDER);
    assertEquals(V1.get(PacketOp.TIMEOUT).ours(),
        metered(() -> v2.onTimeoutPacket(ctx, ours, theirs, 3, sent, BenchChain.RELAYER)));
    assertEquals(V1.get(PacketOp.RECV).ours(),
        metered(() -> v2.onRecvPacket(ctx, theirs, ours, 1, received, BenchChain.RELAYER)));
  }

  @Test
  void theV1RowsCompared_areTheOnesPinned() {
    assertEquals(8_037, V1.get(PacketOp.SEND).oursGas());
    assertEquals(5_287, V1.get(PacketOp.RECV).oursGas());
  }
}
