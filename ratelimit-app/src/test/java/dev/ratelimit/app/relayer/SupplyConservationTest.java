package dev.ratelimit.app.relayer;

import static dev.ratelimit.app.testing.Network.OSMOSIS_USTRD;
import static dev.ratelimit.app.testing.Network.OSMO_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static dev.ratelimit.app.testing.Network.UOSMO;
import static dev.ratelimit.app.testing.Network.USTRD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.chain.BlockResult;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.testing.Network;
import dev.ratelimit.app.transfer.MsgTransfer;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 10,000 random transfers between the two chains (fixed seed): both directions, native tokens and
 * vouchers going home, amounts that sometimes exceed the rate limits on send or on receive,
 * receivers that are not addresses (the transfer app acknowledges an error), timeouts, and clock
 * jumps that reset windows. After EVERY block, for each native denom, the source chain's escrow
 * equals the sink chain's voucher supply plus the tokens in flight (sent, not yet received
 * successfully nor refunded). At the end, with nothing in flight, they are equal and every
 * supply equals the sum of its balances.
 */
class SupplyConservationTest {
  private static final long SEED = 20240101L;
  private static final int TRANSFERS = 10_000;
  private static final int TRANSFERS_PER_BLOCK = 20;
  private static final int USERS = 20;
  private static final byte[] SUCCESS_ACK =
      Commitments.acknowledgement(Acknowledgement.SUCCESS.toJsonBytes());

  @TempDir Path root;

  private final Random random = new Random(SEED);
  private final List<String> osmoUsers = new ArrayList<>();
  private final List<String> strideUsers = new ArrayList<>();
  /** Packets sent and not yet settled on their source, by "chain/channel/sequence". */
  private final Map<String, Packet> unsettled = new LinkedHashMap<>();
  private final Map<String, Integer> outcomes = new TreeMap<>();
  private Network n;
  private int blocksChecked;

  @Test
  void escrowEqualsVoucherSupplyPlusInFlight_afterEveryBlock() {
    for (int i = 0; i < USERS; i++) {
      osmoUsers.add(dev.ratelimit.app.relayer.OsmosisStride.osmosisAccount("user" + i));
      strideUsers.add(dev.ratelimit.app.relayer.OsmosisStride.strideAccount("user" + i));
    }
    n =
        Network.start(
            root,
            o -> osmoUsers.forEach(u -> o.balance(u, UOSMO, 10_000_000)),
            s -> strideUsers.forEach(u -> s.balance(u, USTRD, 10_000_000)),
            (home, chainId, authority) ->
                dev.ratelimit.app.inject.ChainComponent.open(home, chainId, authority));
    try {
      n.net.onCommit(this::checkAfterBlock);
      seedVouchers();
      // limits on all four paths, windows of 24 h, 6 h, 1 h
      n.addRateLimit(n.osmosis, UOSMO, OSMO_CH, 1, 1, 24);
      n.addRateLimit(n.osmosis, OSMOSIS_USTRD, OSMO_CH, 5, 5, 1);
      n.addRateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH, 2, 2, 6);
      n.addRateLimit(n.stride, USTRD, STRIDE_CH, 1, 1, 24);

      n.randomTraffic(random, TRANSFERS, TRANSFERS_PER_BLOCK, this::submitRandomTransfer,
          tick -> { });
      n.relay();
      assertTrue(unsettled.isEmpty(), "settled: " + unsettled.keySet());
      assertEquals(n.escrowed(n.osmosis, OSMO_CH, UOSMO), n.stride.totalSupply(STRIDE_UOSMO));
      assertEquals(n.escrowed(n.stride, STRIDE_CH, USTRD), n.osmosis.totalSupply(OSMOSIS_USTRD));
      Network.assertSuppliesAreSumsOfBalances(n.osmosis, UOSMO, OSMOSIS_USTRD);
      Network.assertSuppliesAreSumsOfBalances(n.stride, USTRD, STRIDE_UOSMO);
      // the run exercised every path
      Network.assertEveryOutcome(outcomes, "send rejected: ratelimit 4", "ack: success",
          "ack: error ABCI code: 4", "ack: error ABCI code: 7", "timeout");
      assertTrue(blocksChecked > 500, "blocks checked: " + blocksChecked);
      System.out.println(blocksChecked + " blocks checked; outcomes " + outcomes);
    } finally {
      n.close();
    }
  }

  /** Vouchers exist on both sides before any limit. */
  private void seedVouchers() {
    for (int i = 0; i < USERS; i++) {
      n.net.submit(n.osmosis,
          msg(osmoUsers.get(i), OSMO_CH, UOSMO, 500_000, strideUsers.get(i), 600));
      n.net.submit(n.stride,
          msg(strideUsers.get(i), STRIDE_CH, USTRD, 500_000, osmoUsers.get(i), 600));
    }
    n.net.tick();
    n.relay();
  }

  private void submitRandomTransfer() {
    int direction = random.nextInt(4);
    int u = random.nextInt(USERS);
    int v = random.nextInt(USERS);
    long amount = random.nextInt(100) < 3 ? 50_000 + random.nextInt(500_000) : 1 + random.nextInt(20_000);
    long timeoutSeconds = random.nextInt(100) < 3 ? 1 : 600; // 1 s: gone before the next block
    boolean badReceiver = random.nextInt(100) < 2;
    switch (direction) {
      case 0 -> n.net.submit(n.osmosis, msg(osmoUsers.get(u), OSMO_CH, UOSMO, amount,
          badReceiver ? "stride1bad" : strideUsers.get(v), timeoutSeconds));
      case 1 -> n.net.submit(n.stride, msg(strideUsers.get(u), STRIDE_CH, STRIDE_UOSMO, amount,
          badReceiver ? "osmo1bad" : osmoUsers.get(v), timeoutSeconds));
      case 2 -> n.net.submit(n.stride, msg(strideUsers.get(u), STRIDE_CH, USTRD, amount,
          badReceiver ? "osmo1bad" : osmoUsers.get(v), timeoutSeconds));
      default -> n.net.submit(n.osmosis, msg(osmoUsers.get(u), OSMO_CH, OSMOSIS_USTRD, amount,
          badReceiver ? "stride1bad" : strideUsers.get(v), timeoutSeconds));
    }
  }

  private MsgTransfer msg(
      String sender, String channel, String denom, long amount, String receiver, long timeoutSec) {
    return new MsgTransfer(sender, channel, denom, BigInteger.valueOf(amount), receiver,
        Height.ZERO, n.timeoutIn(Duration.ofSeconds(timeoutSec)), "");
  }

  // ---------------------------------------------------------------- the invariant

  private void checkAfterBlock(ChainApp chain, BlockResult block) {
    for (TxResult r : block.txs()) {
      if (r.msg() instanceof MsgTransfer && !r.isOk()) {
        count("send rejected: " + r.codespace() + " " + r.code());
      }
    }
    for (Event e : block.events()) {
      switch (e.type()) {
        case IbcEvents.SEND_PACKET -> {
          Packet p = IbcEvents.packetOf(e);
          unsettled.put(key(chain.chainId(), p.sourceChannel(), p.sequence()), p);
        }
        case IbcEvents.WRITE_ACKNOWLEDGEMENT -> {
          byte[] ack = IbcEvents.acknowledgementOf(e).orElseThrow();
          count(AcknowledgementCodec.classify(ack) == AcknowledgementCodec.AckClass.SUCCESS
              ? "ack: success"
              : "ack: error " + AcknowledgementCodec.parse(ack).error().orElseThrow()
                  .replace(": error handling packet: see events for details", ""));
        }
        case IbcEvents.TIMEOUT_PACKET -> count("timeout");
        default -> { }
      }
    }
    // Osmosis's uosmo and its vouchers on Stride; Stride's ustrd and its vouchers on Osmosis.
    checkDenom(n.osmosis, OSMO_CH, UOSMO, n.stride, STRIDE_CH, STRIDE_UOSMO);
    checkDenom(n.stride, STRIDE_CH, USTRD, n.osmosis, OSMO_CH, OSMOSIS_USTRD);
    // forget packets whose source has settled them (acknowledged or timed out)
    for (Iterator<Map.Entry<String, Packet>> it = unsettled.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Packet> e = it.next();
      ChainApp source = e.getKey().startsWith(n.osmosis.chainId() + "/") ? n.osmosis : n.stride;
      if (commitment(source, e.getValue()).isEmpty()) {
        it.remove();
      }
    }
    blocksChecked++;
  }

  private void checkDenom(
      ChainApp home, String homeChannel, String base, ChainApp sink, String sinkChannel,
      String voucher) {
    BigInteger escrow = n.escrowed(home, homeChannel, base);
    BigInteger supply = sink.totalSupply(voucher);
    BigInteger inFlight = BigInteger.ZERO;
    String returningDenom = "transfer/" + sinkChannel + "/" + base;
    for (Map.Entry<String, Packet> e : unsettled.entrySet()) {
      Packet p = e.getValue();
      boolean fromHome = e.getKey().startsWith(home.chainId() + "/");
      var data = PacketDataCodec.decode(p.data());
      boolean outbound = fromHome && data.denom().equals(base); // escrowed, not yet minted
      boolean returning = !fromHome && data.denom().equals(returningDenom); // burned, not unescrowed
      if (!outbound && !returning) {
        continue;
      }
      ChainApp source = fromHome ? home : sink;
      ChainApp destination = fromHome ? sink : home;
      if (commitment(source, p).isPresent() && !receivedSuccessfully(destination, p)) {
        inFlight = inFlight.add(data.amount());
      }
    }
    assertEquals(escrow, supply.add(inFlight),
        "after block " + blocksChecked + ": " + base + " escrow " + escrow + " != voucher supply "
            + supply + " + in flight " + inFlight);
  }

  private static java.util.Optional<byte[]> commitment(ChainApp source, Packet p) {
    return source.query(ctx ->
        source.ibc().packetCommitment(ctx, p.sourcePort(), p.sourceChannel(), p.sequence()));
  }

  private static boolean receivedSuccessfully(ChainApp destination, Packet p) {
    return destination
        .query(ctx -> destination.ibc().packetAcknowledgement(
            ctx, p.destinationPort(), p.destinationChannel(), p.sequence()))
        .map(ack -> Arrays.equals(ack, SUCCESS_ACK))
        .orElse(false);
  }

  private static String key(String chainId, String channel, long seq) {
    return chainId + "/" + channel + "/" + seq;
  }

  private void count(String outcome) {
    outcomes.merge(outcome, 1, Integer::sum);
  }
}
