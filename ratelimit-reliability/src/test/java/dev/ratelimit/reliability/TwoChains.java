package dev.ratelimit.reliability;

import dev.ratelimit.app.chain.AppGenesis;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.relayer.Coordinator;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.transfer.MsgTransfer;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.middleware.ibc.Height;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The example app's two chains (Osmosis-like and Stride-like, {@link OsmosisStride}) under a
 * temporary root, driven by the app's {@link Coordinator} and relayer: what a test of the wired
 * chain needs, on the app's public API only.
 */
final class TwoChains implements AutoCloseable {
  static final String UOSMO = "uosmo";
  static final String USTRD = "ustrd";
  static final String OSMO_CH = OsmosisStride.OSMOSIS_CHANNEL;
  static final String STRIDE_CH = OsmosisStride.STRIDE_CHANNEL;
  static final String STRIDE_UOSMO = OsmosisStride.STRIDE_UOSMO;
  static final String OSMOSIS_USTRD = OsmosisStride.OSMOSIS_USTRD;
  static final String ALICE = OsmosisStride.osmosisAccount("alice");
  static final String BOB = OsmosisStride.strideAccount("bob");

  final Coordinator net;
  final ChainApp osmosis;
  final ChainApp stride;

  private TwoChains(Coordinator net) {
    this.net = net;
    this.osmosis = net.first();
    this.stride = net.second();
  }

  /** alice holds 1,000,000 uosmo, bob 1,000,000 ustrd; both wired by {@link ChainComponent}. */
  static TwoChains start(
      java.nio.file.Path root,
      Instant genesis,
      Consumer<AppGenesis.Builder> osmosisExtra,
      Consumer<AppGenesis.Builder> strideExtra,
      OsmosisStride.ChainOpener opener) {
    AppGenesis.Builder o = OsmosisStride.osmosisGenesis(genesis).balance(ALICE, UOSMO, 1_000_000);
    AppGenesis.Builder s = OsmosisStride.strideGenesis(genesis).balance(BOB, USTRD, 1_000_000);
    osmosisExtra.accept(o);
    strideExtra.accept(s);
    return new TwoChains(OsmosisStride.start(
        root, o.build(), s.build(), Coordinator.DEFAULT_BLOCK_STEP, opener));
  }

  /** Both chains from complete geneses, wired by {@link ChainComponent}. */
  static TwoChains start(java.nio.file.Path root, AppGenesis osmosis, AppGenesis stride) {
    return new TwoChains(OsmosisStride.start(
        root, osmosis, stride, Coordinator.DEFAULT_BLOCK_STEP, ChainComponent::open));
  }

  static TwoChains start(java.nio.file.Path root, Instant genesis,
      Consumer<AppGenesis.Builder> osmosisExtra, Consumer<AppGenesis.Builder> strideExtra) {
    return start(root, genesis, osmosisExtra, strideExtra, ChainComponent::open);
  }

  long timeoutIn(Duration d) {
    return Commitments.nanos(net.time().plus(d));
  }

  MsgTransfer transfer(String sender, String channel, String denom, long amount, String receiver,
      String memo) {
    return new MsgTransfer(sender, channel, denom, BigInteger.valueOf(amount), receiver,
        Height.ZERO, timeoutIn(Duration.ofMinutes(10)), memo);
  }

  /** alice sends uosmo to bob in one tick (not relayed further). */
  TxResult aliceSends(long amount) {
    return net.deliver(osmosis, transfer(ALICE, OSMO_CH, UOSMO, amount, BOB, ""));
  }

  void relay() {
    net.relayUntilIdle(50);
    if (!net.relayer().failures().isEmpty()) {
      throw new AssertionError("relay failures: " + net.relayer().failures());
    }
  }

  Optional<RateLimit> rateLimit(ChainApp chain, String denom, String channel) {
    return chain.query(ctx -> chain.rateLimits().getRateLimit(ctx, new Path(denom, channel)));
  }

  Flow flow(ChainApp chain, String denom, String channel) {
    return rateLimit(chain, denom, channel).orElseThrow().flow();
  }

  List<PendingPacket> pendingRecv(ChainApp chain) {
    return chain.query(ctx -> chain.rateLimits().getAllPendingRecvPackets(ctx));
  }

  List<PendingPacket> pendingSend(ChainApp chain) {
    return chain.query(ctx -> chain.rateLimits().getAllPendingSendPackets(ctx));
  }

  BigInteger escrowed(ChainApp chain, String channel, String denom) {
    return chain.balance(chain.transfer().escrowAddress(channel), denom);
  }

  static Flow flow(long inflow, long outflow, long channelValue) {
    return MiddlewareRig.flow(inflow, outflow, channelValue);
  }

  @Override
  public void close() {
    net.close();
  }
}
