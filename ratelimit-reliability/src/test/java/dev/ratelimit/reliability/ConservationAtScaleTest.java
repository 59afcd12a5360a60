package dev.ratelimit.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.chain.BlockResult;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Supply conservation at scale on the wired example chains: {@code reliability.transfers} seeded
 * random transfers (100,000 by default; the pom sets it), about 100 per block, with
 * timeouts, error acknowledgements (refused receivers and receive quotas), window resets and
 * governance updates mid-flight ({@link Traffic}). After EVERY block of either chain:
 *
 * <ul>
 *   <li>for each native denom, the source chain's escrow equals the other chain's voucher supply
 *       plus the packets in flight (sent and neither received successfully nor settled on the
 *       source), read from both chains' committed state;
 *   <li>native supplies never change, and no flow of any rate limit is negative.
 * </ul>
 *
 * Once everything settles: nothing in flight, escrow equals voucher supply exactly, every supply
 * equals the sum of its balances, no pending send or recv marker is left, and the relayer saw no
 * failed transaction. With the default seed and 100,000 transfers the outcome counts are pinned:
 * the same blocks must give the same outcomes on every machine and every run (a read that failed
 * only on one run once changed them).
 */
class ConservationAtScaleTest {
  private static final long DEFAULT_SEED = 0xC0_5E_8E_2024L;
  private static final long SEED = Long.getLong("reliability.conservation.seed", DEFAULT_SEED);
  private static final int TRANSFERS = Integer.getInteger("reliability.transfers", 100_000);
  private static final int MAX_TRANSFERS_PER_TICK = 200;
  private static final byte[] SUCCESS =
      Commitments.acknowledgement(Acknowledgement.SUCCESS.toJsonBytes());
  private static final BigInteger NATIVE_SUPPLY =
      BigInteger.valueOf(Traffic.USER_BALANCE * Traffic.USERS);

  @TempDir java.nio.file.Path root;

  /** Packets sent and not yet acknowledged or timed out on their source, by chain/channel/seq. */
  private final Map<String, Packet> inFlight = new LinkedHashMap<>();
  private final Map<String, Integer> outcomes = new TreeMap<>();
  private int blocksChecked;

  @Test
  void escrowEqualsVouchersPlusInFlight_afterEveryBlock_andNothingIsLeftOnceSettled() {
    try (TwoChains n = Traffic.start(root)) {
      Traffic traffic = new Traffic(SEED, n);
      n.net.onCommit((chain, block) -> afterBlock(n, chain, block));
      while (traffic.transfers() < TRANSFERS) {
        traffic.step(MAX_TRANSFERS_PER_TICK);
      }
      n.net.tick(); // acknowledgements of the last tick's receives
      n.net.relayUntilIdle(100);
      n.net.tick();
      String where = "seed=" + SEED + " " + traffic.stats() + " after " + blocksChecked + " blocks";
      System.out.println("conservation: " + where + " outcomes " + outcomes);

      assertEquals(Map.of(), inFlight, where);
      assertEquals(List.of(), n.net.relayer().failures(), where);
      assertEquals(n.escrowed(n.osmosis, TwoChains.OSMO_CH, TwoChains.UOSMO),
          n.stride.totalSupply(TwoChains.STRIDE_UOSMO), where);
      assertEquals(n.escrowed(n.stride, TwoChains.STRIDE_CH, TwoChains.USTRD),
          n.osmosis.totalSupply(TwoChains.OSMOSIS_USTRD), where);
      for (ChainApp chain : List.of(n.osmosis, n.stride)) {
        assertEquals(List.of(), n.pendingSend(chain), chain.chainId() + " " + where);
        assertEquals(List.of(), n.pendingRecv(chain), chain.chainId() + " " + where);
        for (String denom : List.of(TwoChains.UOSMO, TwoChains.USTRD, TwoChains.STRIDE_UOSMO,
            TwoChains.OSMOSIS_USTRD)) {
          BigInteger sum = chain.query(ctx -> chain.bank().sumOfBalances(ctx, denom));
          assertEquals(chain.totalSupply(denom), sum, chain.chainId() + " " + denom);
        }
      }
      assertTrue(traffic.transfers() >= TRANSFERS);
      // the traffic really exercised every path
      for (String o : List.of("acked-ok", "acked-error", "timed-out")) {
        assertTrue(outcomes.getOrDefault(o, 0) > 0, o + " " + outcomes);
      }
      assertTrue(outcomes.getOrDefault("transfer_denied", 0) > 0, outcomes.toString());
      if (SEED == DEFAULT_SEED && TRANSFERS == 100_000) {
        assertEquals("{acked-error=6759, acked-ok=72762, proposal_failed=42, proposal_passed=29,"
            + " timed-out=7257, transfer_denied=3534}", outcomes.toString(), where);
        assertEquals(2020, blocksChecked, where);
      }
    }
  }

  private void afterBlock(TwoChains n, ChainApp chain, BlockResult block) {
    String where = "seed=" + SEED + " " + chain.chainId() + " height " + block.height();
    for (Event e : block.events()) {
      switch (e.type()) {
        case IbcEvents.SEND_PACKET -> {
          Packet p = IbcEvents.packetOf(e);
          inFlight.put(key(chain, p), p);
        }
        case IbcEvents.ACKNOWLEDGE_PACKET, IbcEvents.TIMEOUT_PACKET -> {
          Packet p = IbcEvents.packetOf(e);
          Packet sent = inFlight.remove(key(chain, p));
          assertTrue(sent != null, where + ": settled an unknown packet " + p);
          outcomes.merge(e.type().equals(IbcEvents.TIMEOUT_PACKET) ? "timed-out"
              : receivedOk(other(n, chain), p) ? "acked-ok" : "acked-error", 1, Integer::sum);
        }
        case "transfer_denied", "proposal_passed", "proposal_failed",
            "ratelimit_channel_value_kept" -> outcomes.merge(e.type(), 1, Integer::sum);
        default -> { }
      }
    }
    conserved(n, n.osmosis, n.stride, TwoChains.OSMO_CH, TwoChains.STRIDE_CH, TwoChains.UOSMO,
        TwoChains.STRIDE_UOSMO, where);
    conserved(n, n.stride, n.osmosis, TwoChains.STRIDE_CH, TwoChains.OSMO_CH, TwoChains.USTRD,
        TwoChains.OSMOSIS_USTRD, where);
    for (RateLimit rl : chain.query(ctx -> chain.rateLimits().getAllRateLimits(ctx))) {
      assertTrue(rl.flow().inflow().signum() >= 0 && rl.flow().outflow().signum() >= 0,
          where + ": negative flow " + rl);
    }
    blocksChecked++;
  }

  /**
   * escrow(source) == supply of the voucher on the sink + native tokens on the way out + vouchers
   * on the way home (burned on the sink, not yet released from escrow nor refunded).
   */
  private void conserved(TwoChains n, ChainApp source, ChainApp sink, String sourceChannel,
      String sinkChannel, String denom, String voucher, String where) {
    assertEquals(NATIVE_SUPPLY, source.totalSupply(denom), where + " " + denom + " supply");
    String voucherTrace = "transfer/" + sinkChannel + "/" + denom;
    BigInteger travelling = BigInteger.ZERO;
    for (Packet p : inFlight.values()) {
      String d = PacketDataCodec.decode(p.data()).denom();
      boolean out = p.sourceChannel().equals(sourceChannel) && d.equals(denom);
      boolean home = p.sourceChannel().equals(sinkChannel) && d.equals(voucherTrace);
      if ((out && !receivedOk(sink, p)) || (home && !receivedOk(source, p))) {
        travelling = travelling.add(PacketDataCodec.decode(p.data()).amount());
      }
    }
    BigInteger escrow = n.escrowed(source, sourceChannel, denom);
    assertEquals(escrow, sink.totalSupply(voucher).add(travelling),
        where + ": " + denom + " escrow vs voucher supply + in flight " + travelling);
  }

  /** The destination received the packet and acknowledged success. */
  private static boolean receivedOk(ChainApp destination, Packet p) {
    return destination.query(ctx -> destination.ibc().packetAcknowledgement(
            ctx, p.destinationPort(), p.destinationChannel(), p.sequence()))
        .map(ack -> Arrays.equals(ack, SUCCESS))
        .orElse(false);
  }

  private static ChainApp other(TwoChains n, ChainApp chain) {
    return chain == n.osmosis ? n.stride : n.osmosis;
  }

  private static String key(ChainApp source, Packet p) {
    return source.chainId() + "/" + p.sourceChannel() + "/" + Long.toUnsignedString(p.sequence());
  }
}
