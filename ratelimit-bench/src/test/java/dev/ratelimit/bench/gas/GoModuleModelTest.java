package dev.ratelimit.bench.gas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.bench.fixture.BenchChain;
import dev.ratelimit.core.model.Flow;
import java.math.BigInteger;
import java.util.List;
import org.junit.jupiter.api.Test;

class GoModuleModelTest {
  private final GoModuleModel go = GoModuleModel.scenario();

  @Test
  void rateLimitValue_isTheSizeOfTheWireMessage() {
    // Int fields are decimal strings, never empty, so proto3 and gogoproto write the same bytes
    for (Flow flow :
        List.of(
            BenchChain.FLOW,
            Flow.fresh(BigInteger.ONE),
            new Flow(BigInteger.ZERO, BigInteger.TWO.pow(200), BigInteger.TEN.pow(60)))) {
      int wire =
          dev.ratelimit.proto.v1.RateLimit.newBuilder()
              .setPath(
                  dev.ratelimit.proto.v1.Path.newBuilder()
                      .setDenom(BenchChain.IBC_DENOM)
                      .setChannelOrClientId(BenchChain.CHANNEL))
              .setQuota(
                  dev.ratelimit.proto.v1.Quota.newBuilder()
                      .setMaxPercentSend("10")
                      .setMaxPercentRecv("10")
                      .setDurationHours(24))
              .setFlow(
                  dev.ratelimit.proto.v1.Flow.newBuilder()
                      .setInflow(flow.inflow().toString())
                      .setOutflow(flow.outflow().toString())
                      .setChannelValue(flow.channelValue().toString()))
              .build()
              .getSerializedSize();
      assertEquals(wire, go.rateLimitValueBytes(flow), flow.toString());
    }
  }

  @Test
  void keys_followTheGoLayout() {
    List<StoreAccess> send =
        go.accesses(PacketOp.SEND, BenchChain.FLOW, BenchChain.FLOW).orElseThrow();
    assertEquals(StoreAccess.has(15 + 68, false), send.get(0)); // "denom-blacklist" + denom
    assertEquals(10 + 68 + 9, send.get(1).keyBytes()); // "rate-limit" + denom + channel
    assertEquals(StoreAccess.has(17 + 45 + 45, false), send.get(2)); // "address-blacklist" + pair
    assertEquals(StoreAccess.put(19 + 64 + 8, 1), send.get(4)); // padded channel + sequence
    assertTrue(go.accesses(PacketOp.RECV_ASYNC, BenchChain.FLOW, BenchChain.FLOW).isEmpty());
  }
}
