package dev.ratelimit.app.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import dev.ratelimit.app.chain.AppGenesis;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.gov.MsgSubmitProposal;
import dev.ratelimit.app.gov.Proposal;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.relayer.Coordinator;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.transfer.MsgTransfer;
import dev.ratelimit.app.transfer.MsgTransferV2;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * The README's two chains under a temporary root, with funded accounts: alice (Osmosis, 1,000,000
 * uosmo), bob (Stride, 1,000,000 ustrd).
 */
public final class Network implements AutoCloseable {
  public static final Instant GENESIS = Instant.parse("2024-01-01T00:00:00Z");
  public static final String ALICE = OsmosisStride.osmosisAccount("alice");
  public static final String BOB = OsmosisStride.strideAccount("bob");
  public static final String UOSMO = "uosmo";
  public static final String USTRD = "ustrd";
  public static final String OSMO_CH = OsmosisStride.OSMOSIS_CHANNEL;
  public static final String STRIDE_CH = OsmosisStride.STRIDE_CHANNEL;
  public static final String STRIDE_UOSMO = OsmosisStride.STRIDE_UOSMO;
  public static final String OSMOSIS_USTRD = OsmosisStride.OSMOSIS_USTRD;
  /** Osmosis's client of Stride: IBC v2 packets leave Osmosis on it. */
  public static final String OSMO_CLIENT = OsmosisStride.OSMOSIS_CLIENT;
  /** Stride's client of Osmosis. */
  public static final String STRIDE_CLIENT = OsmosisStride.STRIDE_CLIENT;
  /** uosmo received on Stride over IBC v2: traced through {@code transfer/07-tendermint-0}. */
  public static final String STRIDE_UOSMO_V2 = OsmosisStride.voucher(STRIDE_CLIENT, UOSMO);
  /** ustrd received on Osmosis over IBC v2. */
  public static final String OSMOSIS_USTRD_V2 = OsmosisStride.voucher(OSMO_CLIENT, USTRD);

  public final Coordinator net;
  public final ChainApp osmosis;
  public final ChainApp stride;
  public final AppGenesis osmosisGenesis;
  public final AppGenesis strideGenesis;

  private Network(Coordinator net, AppGenesis osmosisGenesis, AppGenesis strideGenesis) {
    this.net = net;
    this.osmosis = net.first();
    this.stride = net.second();
    this.osmosisGenesis = osmosisGenesis;
    this.strideGenesis = strideGenesis;
  }

  public static Network start(java.nio.file.Path root) {
    return start(root, b -> {}, b -> {}, (home, chainId, authority) ->
        ChainComponent.open(home, chainId, authority));
  }

  /** {@link #start(java.nio.file.Path)} with both chains speaking IBC v2 over their clients. */
  public static Network startV2(java.nio.file.Path root) {
    return startV2(root, b -> {}, b -> {});
  }

  /** {@link #startV2(java.nio.file.Path)} with more genesis. */
  public static Network startV2(
      java.nio.file.Path root,
      Consumer<AppGenesis.Builder> osmosisExtra,
      Consumer<AppGenesis.Builder> strideExtra) {
    return start(root,
        o -> osmosisExtra.accept(o.counterparty(OsmosisStride.OSMOSIS_IBC_V2)),
        s -> strideExtra.accept(s.counterparty(OsmosisStride.STRIDE_IBC_V2)),
        ChainComponent::open);
  }

  public static Network start(
      java.nio.file.Path root,
      Consumer<AppGenesis.Builder> osmosisExtra,
      Consumer<AppGenesis.Builder> strideExtra,
      OsmosisStride.ChainOpener opener) {
    AppGenesis.Builder o =
        OsmosisStride.osmosisGenesis(GENESIS).balance(ALICE, UOSMO, 1_000_000);
    AppGenesis.Builder s = OsmosisStride.strideGenesis(GENESIS).balance(BOB, USTRD, 1_000_000);
    osmosisExtra.accept(o);
    strideExtra.accept(s);
    AppGenesis og = o.build();
    AppGenesis sg = s.build();
    return new Network(
        OsmosisStride.start(root, og, sg, Coordinator.DEFAULT_BLOCK_STEP, opener), og, sg);
  }

  /** The IBC v1 packets either chain sends from now on, in order: a list that grows as it does. */
  public List<Packet> sentPackets() {
    List<Packet> sent = new ArrayList<>();
    net.onCommit((chain, block) -> block.events().stream()
        .filter(e -> e.type().equals(IbcEvents.SEND_PACKET))
        .forEach(e -> sent.add(IbcEvents.packetOf(e))));
    return sent;
  }

  /** A timeout timestamp {@code d} after the coordinator's current time. */
  public long timeoutIn(Duration d) {
    return Commitments.nanos(net.time().plus(d));
  }

  public MsgTransfer transferMsg(
      String sender, String channel, String denom, long amount, String receiver, long timeout) {
    return new MsgTransfer(
        sender, channel, denom, BigInteger.valueOf(amount), receiver, Height.ZERO, timeout, "");
  }

  /** An IBC v2 timeout (seconds) {@code d} after the coordinator's current time. */
  public long timeoutV2In(Duration d) {
    return net.time().plus(d).getEpochSecond();
  }

  /** An IBC v2 transfer timing out in 10 minutes. */
  public MsgTransferV2 transferV2Msg(
      String sender, String client, String denom, long amount, String receiver) {
    return MsgTransferV2.of(sender, client, denom, BigInteger.valueOf(amount), receiver,
        timeoutV2In(Duration.ofMinutes(10)));
  }

  /** alice sends {@code amount} uosmo to bob over IBC v2 (one tick; not relayed further). */
  public TxResult sendUosmoToStrideV2(long amount) {
    return net.deliver(osmosis, transferV2Msg(ALICE, OSMO_CLIENT, UOSMO, amount, BOB));
  }

  /** alice sends {@code amount} uosmo to bob (one tick; not relayed further). */
  public TxResult sendUosmoToStride(long amount) {
    return net.deliver(
        osmosis,
        transferMsg(ALICE, OSMO_CH, UOSMO, amount, BOB, timeoutIn(Duration.ofMinutes(10))));
  }

  /** bob sends {@code amount} ibc/uosmo back to alice (one tick). */
  public TxResult sendUosmoBackToOsmosis(long amount) {
    return net.deliver(
        stride,
        transferMsg(BOB, STRIDE_CH, STRIDE_UOSMO, amount, ALICE, timeoutIn(Duration.ofMinutes(10))));
  }

  /** Adds a rate limit by a governance proposal on {@code chain}; asserts that it passed. */
  public void addRateLimit(
      ChainApp chain, String denom, String channel, int send, int recv, long hours) {
    String authority = chain.gov().authority();
    MsgAddRateLimit add =
        MsgAddRateLimit.newBuilder()
            .setAuthority(authority)
            .setDenom(denom)
            .setChannelOrClientId(channel)
            .setMaxPercentSend(Integer.toString(send))
            .setMaxPercentRecv(Integer.toString(recv))
            .setDurationHours(hours)
            .build();
    String proposer = chain == osmosis ? ALICE : BOB;
    TxResult r = net.deliver(chain, new MsgSubmitProposal(proposer, List.of(Any.pack(add, ""))));
    assertTrue(r.isOk(), r.log());
    Proposal p =
        chain.query(ctx -> chain.gov().proposal(ctx, r.value().orElseThrow())).orElseThrow();
    assertEquals(Proposal.Status.PASSED, p.status(), p.failure());
  }

  public Optional<RateLimit> rateLimit(ChainApp chain, String denom, String channel) {
    return chain.query(ctx -> chain.rateLimits().getRateLimit(ctx, new Path(denom, channel)));
  }

  public Flow flow(ChainApp chain, String denom, String channel) {
    return rateLimit(chain, denom, channel).orElseThrow().flow();
  }

  public static Flow flow(long inflow, long outflow, long channelValue) {
    return new Flow(
        BigInteger.valueOf(inflow), BigInteger.valueOf(outflow), BigInteger.valueOf(channelValue));
  }

  public BigInteger escrowed(ChainApp chain, String channel, String denom) {
    return chain.balance(chain.transfer().escrowAddress(channel), denom);
  }

  /**
   * Seeded random traffic: {@code submit} queues one transfer, {@code perBlock} of them a tick,
   * until {@code transfers} were queued; {@code beforeTick} sees each tick's number (from 1) first,
   * and every 20th tick jumps the clock 30 min to 6.5 h (windows reset, packets time out).
   */
  public void randomTraffic(
      Random random, int transfers, int perBlock, Runnable submit, IntConsumer beforeTick) {
    int sent = 0;
    int ticks = 0;
    while (sent < transfers) {
      for (int i = 0; i < perBlock && sent < transfers; i++, sent++) {
        submit.run();
      }
      ticks++;
      beforeTick.accept(ticks);
      if (ticks % 20 == 0) {
        net.advanceTime(Duration.ofMinutes(30 + random.nextInt(6 * 60)));
      } else {
        net.tick();
      }
    }
  }

  /** Each of {@code denoms}' committed supply on {@code chain} is the sum of its balances. */
  public static void assertSuppliesAreSumsOfBalances(ChainApp chain, String... denoms) {
    for (String denom : denoms) {
      assertEquals(chain.totalSupply(denom),
          chain.query(ctx -> chain.bank().sumOfBalances(ctx, denom)), denom);
    }
  }

  /** Each outcome was counted at least once. */
  public static void assertEveryOutcome(Map<String, Integer> counted, String... outcomes) {
    for (String outcome : outcomes) {
      assertTrue(counted.getOrDefault(outcome, 0) > 0, outcome + " never happened: " + counted);
    }
  }

  public void relay() {
    net.relayUntilIdle(50);
    assertEquals(List.of(), net.relayer().failures());
  }

  public static BigInteger big(long v) {
    return BigInteger.valueOf(v);
  }

  @Override
  public void close() {
    net.close();
  }
}
