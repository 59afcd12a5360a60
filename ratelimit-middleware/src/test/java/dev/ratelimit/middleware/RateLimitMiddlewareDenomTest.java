package dev.ratelimit.middleware;

import static dev.ratelimit.middleware.MiddlewareHarness.RELAYER;
import static dev.ratelimit.middleware.MiddlewareHarness.data;
import static dev.ratelimit.middleware.MiddlewareHarness.flow;
import static dev.ratelimit.middleware.MiddlewareHarness.ibcHash;
import static dev.ratelimit.middleware.MiddlewareHarness.incoming;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.when;

import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Packet;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Which (channel, denom) a packet counts against, through the middleware (SPEC §3): the limit
 * that must move is named by the denom as it exists on this chain, and look-alike paths stay
 * still. The receives are asynchronous so the marker shows the resolved denom too.
 */
class RateLimitMiddlewareDenomTest {
  private static final Instant GENESIS = Instant.parse("2024-01-01T23:10:00Z");

  /** uosmo arriving on Stride's channel-5 (README walk-through). */
  private static final String OSMO_ON_STRIDE =
      "ibc/D24B4564BCD51D3D02D9987D92571EAC5915676A9BD6D9B0C1D0254CB8A5EA34";

  private MiddlewareHarness h;

  @BeforeEach
  void setUp() {
    h = MiddlewareHarness.inMemory(GENESIS);
    when(h.app.onRecvPacket(any(), any(), any())).thenReturn(Optional.empty());
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  private Optional<Acknowledgement> recv(Packet p) {
    return h.middleware.onRecvPacket(h.ctx(), p, RELAYER);
  }

  private static String ackText(Optional<Acknowledgement> ack) {
    return new String(ack.orElseThrow().toJsonBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void sinkDenomWhoseTraceStartsWithALookAlikeChannel_isASinkVoucher() {
    // Arrives from the counterparty's channel-1; its trace starts with transfer/channel-10/,
    // which is NOT transfer/channel-1/ (the trailing slash matters).
    String sink = ibcHash("transfer/channel-1/transfer/channel-10/uatom");
    String wronglySource = ibcHash("transfer/channel-10/uatom");
    h.addLimit(sink, "channel-1", 10, 10, 24, 1000);
    h.addLimit("uatom", "channel-1", 10, 10, 24, 1000);
    h.addLimit(wronglySource, "channel-1", 10, 10, 24, 1000);

    assertEquals(
        Optional.empty(),
        recv(incoming(4, "channel-1", "channel-1", data("transfer/channel-10/uatom", 25))));

    assertEquals(flow(25, 0, 1000), h.flow(sink, "channel-1"));
    assertEquals(Set.of(4L), h.recvMarkers("channel-1", sink));
    assertEquals(flow(0, 0, 1000), h.flow("uatom", "channel-1"));
    assertEquals(flow(0, 0, 1000), h.flow(wronglySource, "channel-1"));
  }

  @Test
  void sourceCaseWithTheExactPrefix_stripsTheHop() {
    String sink = ibcHash("transfer/channel-1/transfer/channel-1/uatom");
    h.addLimit("uatom", "channel-1", 10, 10, 24, 1000);
    h.addLimit(sink, "channel-1", 10, 10, 24, 1000);

    recv(incoming(4, "channel-1", "channel-1", data("transfer/channel-1/uatom", 25)));

    assertEquals(flow(25, 0, 1000), h.flow("uatom", "channel-1"));
    assertEquals(flow(0, 0, 1000), h.flow(sink, "channel-1"));
  }

  @Test
  void walkThroughUosmoOnChannel5_countsAgainstTheVoucherHash() {
    assertEquals(OSMO_ON_STRIDE, ibcHash("transfer/channel-5/uosmo"));
    h.addLimit(OSMO_ON_STRIDE, "channel-5", 10, 10, 24, 100);

    recv(incoming(1, "channel-326", "channel-5", data("uosmo", 8)));

    assertEquals(flow(8, 0, 100), h.flow(OSMO_ON_STRIDE, "channel-5"));
    assertEquals(Set.of(1L), h.recvMarkers("channel-5", OSMO_ON_STRIDE));
  }

  @Test
  void walkThroughUosmoSentBack_countsTheSameVoucherAsOutflow() {
    h.addLimit(OSMO_ON_STRIDE, "channel-5", 10, 10, 24, 100);

    long sequence = h.send("channel-5", data("transfer/channel-5/uosmo", 7));

    assertEquals(flow(0, 7, 100), h.flow(OSMO_ON_STRIDE, "channel-5"));
    assertEquals(Set.of(sequence), h.sendMarkers("channel-5", OSMO_ON_STRIDE));
  }

  @Test
  void nativeTokenComingBack_countsAgainstTheBaseDenom() {
    h.addLimit("ustrd", "channel-5", 10, 10, 24, 1000);

    recv(incoming(1, "channel-326", "channel-5", data("transfer/channel-326/ustrd", 9)));

    assertEquals(flow(9, 0, 1000), h.flow("ustrd", "channel-5"));
  }

  @Test
  void voucherComingBackWithATraceLeft_countsAgainstTheLocalVoucher() {
    // ujuno came to Stride over channel-7, went to Osmosis, and comes back over channel-5.
    String junoOnStride = ibcHash("transfer/channel-7/ujuno");
    h.addLimit(junoOnStride, "channel-5", 10, 10, 24, 1000);

    recv(
        incoming(
            1, "channel-326", "channel-5", data("transfer/channel-326/transfer/channel-7/ujuno", 9)));

    assertEquals(flow(9, 0, 1000), h.flow(junoOnStride, "channel-5"));
  }

  @Test
  void receivedBaseDenomThatLooksLikeATrace_isHashedAsASinkOfItsWholeText() {
    // transfer/channelToA is not a hop: the base denom is the whole text.
    String sink = ibcHash("transfer/channel-5/transfer/channelToA/uatom");
    h.addLimit(sink, "channel-5", 10, 10, 24, 1000);

    recv(incoming(1, "channel-326", "channel-5", data("transfer/channelToA/uatom", 3)));

    assertEquals(flow(3, 0, 1000), h.flow(sink, "channel-5"));
  }

  @Test
  void clientIdHops_areTraces() {
    // abc/xyz-5/token has the hop abc/xyz-5 (a client id), so a send hashes it.
    String voucher = ibcHash("abc/xyz-5/token");
    h.addLimit(voucher, "channel-5", 10, 10, 24, 1000);

    h.send("channel-5", data("abc/xyz-5/token", 4));

    assertEquals(flow(0, 4, 1000), h.flow(voucher, "channel-5"));
  }

  @Test
  void emptyBaseDenom_isInvalidPacketDataOnRecv() {
    String ack =
        ackText(
            recv(
                incoming(
                    1,
                    "channel-1",
                    "channel-0",
                    ("{\"denom\":\"transfer/channel-1/transfer/channel-2\",\"amount\":\"1\","
                            + "\"sender\":\"a\",\"receiver\":\"b\"}")
                        .getBytes(StandardCharsets.UTF_8))));

    assertEquals(
        "{\"error\":\"ABCI code: 9: error handling packet: see events for details\"}", ack);
  }
}
