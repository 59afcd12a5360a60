package dev.ratelimit.app.relayer;

import static dev.ratelimit.app.testing.Network.OSMOSIS_USTRD;
import static dev.ratelimit.app.testing.Network.OSMOSIS_USTRD_V2;
import static dev.ratelimit.app.testing.Network.OSMO_CH;
import static dev.ratelimit.app.testing.Network.OSMO_CLIENT;
import static dev.ratelimit.app.testing.Network.STRIDE_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_CLIENT;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO_V2;
import static dev.ratelimit.app.testing.Network.UOSMO;
import static dev.ratelimit.app.testing.Network.USTRD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.chain.BlockResult;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.ibc.v2.CommitmentsV2;
import dev.ratelimit.app.ibc.v2.IbcCoreV2;
import dev.ratelimit.app.ibc.v2.IbcEventsV2;
import dev.ratelimit.app.testing.Network;
import dev.ratelimit.app.transfer.MsgTransfer;
import dev.ratelimit.app.transfer.MsgTransferV2;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.Ics20PayloadCodec;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link SupplyConservationTest} over both IBC versions at once, smaller: 2,000 random transfers
 * (fixed seed), each over the channel (IBC v1) or the clients (IBC v2), both directions, natives
 * and vouchers going home, limits on all eight paths, receivers that are not addresses, timeouts
 * (IBC v2's when the relayer skips a block) and window resets. After EVERY block, for each native
 * denom and each version, the source chain's escrow (of the channel, or of the client) equals the
 * sink's voucher supply for that path plus the tokens in flight on it; at the end, with nothing in
 * flight, they are equal and every supply is the sum of its balances.
 */
class MixedIbcVersionsConservationTest {
  private static final long SEED = 20250101L;
  private static final int TRANSFERS = 2_000;
  private static final int TRANSFERS_PER_BLOCK = 20;
  private static final int USERS = 10;
  private static final byte[] V1_SUCCESS =
      Commitments.acknowledgement(Acknowledgement.SUCCESS.toJsonBytes());
  private static final byte[] V2_SUCCESS = CommitmentsV2.acknowledgement(
      new dev.ratelimit.middleware.ibc.v2.Acknowledgement(
          List.of(Acknowledgement.SUCCESS.toJsonBytes())));

  @TempDir Path root;

  private final Random random = new Random(SEED);
  private final List<String> osmoUsers = new ArrayList<>();
  private final List<String> strideUsers = new ArrayList<>();
  /** Packets sent and not yet settled on their source, by "chain/channel-or-client/sequence". */
  private final Map<String, InFlight> unsettled = new LinkedHashMap<>();
  private final Map<String, Integer> outcomes = new TreeMap<>();
  private Network n;
  private int blocksChecked;

  /** A packet of either version, as the invariant needs it. */
  private record InFlight(boolean v2, ChainApp source, ChainApp destination, String sourceId,
      String destinationId, long sequence, FungibleTokenPacketData data) {}

  @Test
  void escrowEqualsVoucherSupplyPlusInFlight_perVersion_afterEveryBlock() {
    for (int i = 0; i < USERS; i++) {
      osmoUsers.add(OsmosisStride.osmosisAccount("user" + i));
      strideUsers.add(OsmosisStride.strideAccount("user" + i));
    }
    n = Network.startV2(root,
        o -> osmoUsers.forEach(u -> o.balance(u, UOSMO, 10_000_000)),
        s -> strideUsers.forEach(u -> s.balance(u, USTRD, 10_000_000)));
    try {
      n.net.onCommit(this::checkAfterBlock);
      seedVouchers();
      n.addRateLimit(n.osmosis, UOSMO, OSMO_CH, 1, 1, 24);
      n.addRateLimit(n.osmosis, UOSMO, OSMO_CLIENT, 1, 1, 6);
      n.addRateLimit(n.osmosis, OSMOSIS_USTRD, OSMO_CH, 5, 5, 1);
      n.addRateLimit(n.osmosis, OSMOSIS_USTRD_V2, OSMO_CLIENT, 5, 5, 1);
      n.addRateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH, 2, 2, 6);
      n.addRateLimit(n.stride, STRIDE_UOSMO_V2, STRIDE_CLIENT, 2, 2, 24);
      n.addRateLimit(n.stride, USTRD, STRIDE_CH, 1, 1, 24);
      n.addRateLimit(n.stride, USTRD, STRIDE_CLIENT, 1, 1, 1);

      // a relayer that skips a block now and then: IBC v2's short timeouts pass then
      n.randomTraffic(random, TRANSFERS, TRANSFERS_PER_BLOCK, this::submitRandomTransfer,
          tick -> n.net.setRelaying(tick % 7 != 0));
      n.net.setRelaying(true);
      n.relay();
      assertTrue(unsettled.isEmpty(), "settled: " + unsettled.keySet());
      assertEquals(n.escrowed(n.osmosis, OSMO_CH, UOSMO), n.stride.totalSupply(STRIDE_UOSMO));
      assertEquals(n.escrowed(n.osmosis, OSMO_CLIENT, UOSMO),
          n.stride.totalSupply(STRIDE_UOSMO_V2));
      assertEquals(n.escrowed(n.stride, STRIDE_CH, USTRD), n.osmosis.totalSupply(OSMOSIS_USTRD));
      assertEquals(n.escrowed(n.stride, STRIDE_CLIENT, USTRD),
          n.osmosis.totalSupply(OSMOSIS_USTRD_V2));
      Network.assertSuppliesAreSumsOfBalances(n.osmosis, UOSMO, OSMOSIS_USTRD, OSMOSIS_USTRD_V2);
      Network.assertSuppliesAreSumsOfBalances(n.stride, USTRD, STRIDE_UOSMO, STRIDE_UOSMO_V2);
      Network.assertEveryOutcome(outcomes, "v1 send rejected: ratelimit 4",
          "v2 send rejected: ratelimit 4", "v1 ack: success", "v1 ack: error ABCI code: 4",
          "v1 ack: error ABCI code: 7", "v1 timeout", "v2 ack: success",
          "v2 ack: universal error", "v2 timeout",
          // sent in a block the clock jumped past its timeout: IBC v2 refuses it at once
          "v2 send rejected: ibc 5");
      assertTrue(blocksChecked > 200, "blocks checked: " + blocksChecked);
      System.out.println(blocksChecked + " blocks checked; outcomes " + outcomes);
    } finally {
      n.close();
    }
  }

  /** Vouchers of both versions exist on both sides before any limit. */
  private void seedVouchers() {
    for (int i = 0; i < USERS; i++) {
      String o = osmoUsers.get(i);
      String s = strideUsers.get(i);
      n.net.submit(n.osmosis, v1(o, OSMO_CH, UOSMO, 500_000, s, false));
      n.net.submit(n.osmosis, v2(o, OSMO_CLIENT, UOSMO, 500_000, s, false));
      n.net.submit(n.stride, v1(s, STRIDE_CH, USTRD, 500_000, o, false));
      n.net.submit(n.stride, v2(s, STRIDE_CLIENT, USTRD, 500_000, o, false));
    }
    n.net.tick();
    n.relay();
  }

  private void submitRandomTransfer() {
    boolean overV2 = random.nextBoolean();
    int direction = random.nextInt(4);
    String o = osmoUsers.get(random.nextInt(USERS));
    String s = strideUsers.get(random.nextInt(USERS));
    long amount =
        random.nextInt(100) < 3 ? 50_000 + random.nextInt(500_000) : 1 + random.nextInt(20_000);
    boolean shortTimeout = random.nextInt(100) < 3;
    boolean badReceiver = random.nextInt(100) < 2;
    String toStride = badReceiver ? "stride1bad" : s;
    String toOsmosis = badReceiver ? "osmo1bad" : o;
    if (overV2) {
      switch (direction) {
        case 0 -> n.net.submit(n.osmosis,
            v2(o, OSMO_CLIENT, UOSMO, amount, toStride, shortTimeout));
        case 1 -> n.net.submit(n.stride,
            v2(s, STRIDE_CLIENT, STRIDE_UOSMO_V2, amount, toOsmosis, shortTimeout));
        case 2 -> n.net.submit(n.stride,
            v2(s, STRIDE_CLIENT, USTRD, amount, toOsmosis, shortTimeout));
        default -> n.net.submit(n.osmosis,
            v2(o, OSMO_CLIENT, OSMOSIS_USTRD_V2, amount, toStride, shortTimeout));
      }
    } else {
      switch (direction) {
        case 0 -> n.net.submit(n.osmosis, v1(o, OSMO_CH, UOSMO, amount, toStride, shortTimeout));
        case 1 -> n.net.submit(n.stride,
            v1(s, STRIDE_CH, STRIDE_UOSMO, amount, toOsmosis, shortTimeout));
        case 2 -> n.net.submit(n.stride, v1(s, STRIDE_CH, USTRD, amount, toOsmosis, shortTimeout));
        default -> n.net.submit(n.osmosis,
            v1(o, OSMO_CH, OSMOSIS_USTRD, amount, toStride, shortTimeout));
      }
    }
  }

  /** IBC v1: a short timeout (1 s) is past before the destination's next block. */
  private MsgTransfer v1(String sender, String channel, String denom, long amount,
      String receiver, boolean shortTimeout) {
    return new MsgTransfer(sender, channel, denom, BigInteger.valueOf(amount), receiver,
        Height.ZERO, n.timeoutIn(Duration.ofSeconds(shortTimeout ? 1 : 600)), "");
  }

  /**
   * IBC v2: a timeout must be after the send's own block (the next tick, 5 s on), so a short one
   * (6 s) is past only if the relayer skips that block.
   */
  private MsgTransferV2 v2(String sender, String client, String denom, long amount,
      String receiver, boolean shortTimeout) {
    return MsgTransferV2.of(sender, client, denom, BigInteger.valueOf(amount), receiver,
        n.timeoutV2In(Duration.ofSeconds(shortTimeout ? 6 : 600)));
  }

  // ---------------------------------------------------------------- the invariant

  private void checkAfterBlock(ChainApp chain, BlockResult block) {
    for (TxResult r : block.txs()) {
      if (!r.isOk() && (r.msg() instanceof MsgTransfer || r.msg() instanceof MsgTransferV2)) {
        count((r.msg() instanceof MsgTransfer ? "v1" : "v2") + " send rejected: "
            + r.codespace() + " " + r.code());
      }
    }
    for (Event e : block.events()) {
      boolean v2 = IbcEventsV2.isV2(e);
      switch (e.type()) {
        case IbcEvents.SEND_PACKET -> {
          InFlight p = v2 ? inFlightV2(chain, e) : inFlightV1(chain, e);
          unsettled.put(chain.chainId() + "/" + p.sourceId() + "/" + p.sequence(), p);
        }
        case IbcEvents.WRITE_ACKNOWLEDGEMENT -> count(v2 ? v2Ack(e) : v1Ack(e));
        case IbcEvents.TIMEOUT_PACKET -> count(v2 ? "v2 timeout" : "v1 timeout");
        default -> { }
      }
    }
    // Osmosis's uosmo and its vouchers on Stride; Stride's ustrd and its vouchers on Osmosis
    checkDenom(false, n.osmosis, OSMO_CH, UOSMO, n.stride, STRIDE_CH, STRIDE_UOSMO);
    checkDenom(true, n.osmosis, OSMO_CLIENT, UOSMO, n.stride, STRIDE_CLIENT, STRIDE_UOSMO_V2);
    checkDenom(false, n.stride, STRIDE_CH, USTRD, n.osmosis, OSMO_CH, OSMOSIS_USTRD);
    checkDenom(true, n.stride, STRIDE_CLIENT, USTRD, n.osmosis, OSMO_CLIENT, OSMOSIS_USTRD_V2);
    // forget packets whose source has settled them (acknowledged or timed out)
    for (Iterator<InFlight> it = unsettled.values().iterator(); it.hasNext(); ) {
      if (commitment(it.next()).isEmpty()) {
        it.remove();
      }
    }
    blocksChecked++;
  }

  private InFlight inFlightV1(ChainApp source, Event e) {
    var p = IbcEvents.packetOf(e);
    return new InFlight(false, source, other(source), p.sourceChannel(), p.destinationChannel(),
        p.sequence(), PacketDataCodec.decode(p.data()));
  }

  private InFlight inFlightV2(ChainApp source, Event e) {
    var p = IbcEventsV2.packetOf(e);
    var payload = p.payloads().get(0);
    return new InFlight(true, source, other(source), p.sourceClient(), p.destinationClient(),
        p.sequence(),
        Ics20PayloadCodec.decode(payload.version(), payload.encoding(), payload.value()));
  }

  private static String v1Ack(Event e) {
    byte[] ack = IbcEvents.acknowledgementOf(e).orElseThrow();
    return AcknowledgementCodec.classify(ack) == AcknowledgementCodec.AckClass.SUCCESS
        ? "v1 ack: success"
        : "v1 ack: error " + AcknowledgementCodec.parse(ack).error().orElseThrow()
            .replace(": error handling packet: see events for details", "");
  }

  private static String v2Ack(Event e) {
    byte[] appAck = IbcEventsV2.acknowledgementOf(e).orElseThrow().appAcknowledgement(0)
        .orElseThrow();
    return Arrays.equals(appAck, IbcCoreV2.universalErrorAcknowledgement())
        ? "v2 ack: universal error"
        : "v2 ack: " + AcknowledgementCodec.classify(appAck).name().toLowerCase(Locale.ROOT);
  }

  private void checkDenom(boolean v2, ChainApp home, String homeId, String base, ChainApp sink,
      String sinkId, String voucher) {
    BigInteger escrow = n.escrowed(home, homeId, base);
    BigInteger supply = sink.totalSupply(voucher);
    BigInteger inFlight = BigInteger.ZERO;
    String returningDenom = "transfer/" + sinkId + "/" + base;
    for (InFlight p : unsettled.values()) {
      if (p.v2() != v2) {
        continue;
      }
      boolean outbound = p.source() == home && p.data().denom().equals(base); // escrowed
      boolean returning = p.source() == sink && p.data().denom().equals(returningDenom); // burned
      if ((outbound || returning) && commitment(p).isPresent() && !receivedSuccessfully(p)) {
        inFlight = inFlight.add(p.data().amount());
      }
    }
    assertEquals(escrow, supply.add(inFlight),
        "after block " + blocksChecked + ": " + (v2 ? "IBC v2 " : "IBC v1 ") + base + " escrow "
            + escrow + " != voucher supply " + supply + " + in flight " + inFlight);
  }

  private static Optional<byte[]> commitment(InFlight p) {
    ChainApp s = p.source();
    return s.query(ctx -> p.v2()
        ? s.ibcV2().packetCommitment(ctx, p.sourceId(), p.sequence())
        : s.ibc().packetCommitment(ctx, "transfer", p.sourceId(), p.sequence()));
  }

  private static boolean receivedSuccessfully(InFlight p) {
    ChainApp d = p.destination();
    Optional<byte[]> ack = d.query(ctx -> p.v2()
        ? d.ibcV2().packetAcknowledgement(ctx, p.destinationId(), p.sequence())
        : d.ibc().packetAcknowledgement(ctx, "transfer", p.destinationId(), p.sequence()));
    return ack.map(a -> Arrays.equals(a, p.v2() ? V2_SUCCESS : V1_SUCCESS)).orElse(false);
  }

  private ChainApp other(ChainApp chain) {
    return chain == n.osmosis ? n.stride : n.osmosis;
  }

  private void count(String outcome) {
    outcomes.merge(outcome, 1, Integer::sum);
  }
}
