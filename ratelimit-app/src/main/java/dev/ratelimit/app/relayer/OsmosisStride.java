package dev.ratelimit.app.relayer;

import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.chain.AppGenesis;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.NodeConfig;
import dev.ratelimit.app.ibc.ChannelEnd;
import dev.ratelimit.app.ibc.ClientState;
import dev.ratelimit.app.ibc.v2.ClientCounterparty;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.transfer.DenomTrace;
import dev.ratelimit.middleware.transfer.Hop;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * The original README's two chains: an Osmosis-like {@code osmosis-1} and a Stride-like {@code
 * stride-1}, joined by {@code channel-326} (Osmosis) ↔ {@code channel-5} (Stride), each home in
 * {@code <root>/<chain-id>}, with the real gov module addresses as authorities.
 */
public final class OsmosisStride {
  public static final String OSMOSIS = "osmosis-1";
  public static final String STRIDE = "stride-1";
  public static final String OSMOSIS_PREFIX = "osmo";
  public static final String STRIDE_PREFIX = "stride";
  /** {@code osmo10d07y265gmmuvt4z0w9aw880jnsr700jjeq4qp}. */
  public static final String OSMOSIS_AUTHORITY = Addresses.module(OSMOSIS_PREFIX, "gov");
  /** {@code stride10d07y265gmmuvt4z0w9aw880jnsr700jefnezl}. */
  public static final String STRIDE_AUTHORITY = Addresses.module(STRIDE_PREFIX, "gov");
  /** Osmosis's end of the channel. */
  public static final String OSMOSIS_CHANNEL = "channel-326";
  /** Stride's end of the channel. */
  public static final String STRIDE_CHANNEL = "channel-5";
  /** Osmosis's client of Stride. */
  public static final String OSMOSIS_CLIENT = "07-tendermint-1";
  /** Stride's client of Osmosis. */
  public static final String STRIDE_CLIENT = "07-tendermint-0";
  /** uosmo on Stride: {@code ibc/D24B4564BCD51D3D02D9987D92571EAC5915676A9BD6D9B0C1D0254CB8A5EA34}. */
  public static final String STRIDE_UOSMO = voucher(STRIDE_CHANNEL, "uosmo");
  /** ustrd on Osmosis. */
  public static final String OSMOSIS_USTRD = voucher(OSMOSIS_CHANNEL, "ustrd");

  private OsmosisStride() {}

  /** Opens a chain's home; swap it to wire a chain differently (tests). */
  @FunctionalInterface
  public interface ChainOpener {
    ChainApp open(Path home, String chainId, String authority);
  }

  /** The voucher denom a chain holds for {@code baseDenom} received over {@code channel}. */
  public static String voucher(String channel, String baseDenom) {
    return new DenomTrace(List.of(new Hop("transfer", channel)), baseDenom).ibcDenom();
  }

  /** Osmosis's genesis so far: its client of Stride and its channel. */
  public static AppGenesis.Builder osmosisGenesis(Instant genesisTime) {
    return AppGenesis.builder(genesisTime)
        .client(new ClientState(
            OSMOSIS_CLIENT, STRIDE, new Height(ChainInfo.revisionNumber(STRIDE), 0), genesisTime))
        .channel(ChannelEnd.transfer(OSMOSIS_CHANNEL, STRIDE_CHANNEL, OSMOSIS_CLIENT));
  }

  /** Stride's genesis so far: its client of Osmosis and its channel. */
  public static AppGenesis.Builder strideGenesis(Instant genesisTime) {
    return AppGenesis.builder(genesisTime)
        .client(new ClientState(
            STRIDE_CLIENT, OSMOSIS, new Height(ChainInfo.revisionNumber(OSMOSIS), 0), genesisTime))
        .channel(ChannelEnd.transfer(STRIDE_CHANNEL, OSMOSIS_CHANNEL, STRIDE_CLIENT));
  }

  /**
   * Osmosis's IBC v2 registration over the channel's client: Stride's client of Osmosis is its
   * counterparty. Add it (and {@link #STRIDE_IBC_V2} to Stride's) for both chains to speak IBC v2;
   * without it no IBC v2 state is written and the app hashes are IBC v1's alone.
   */
  public static final ClientCounterparty OSMOSIS_IBC_V2 =
      new ClientCounterparty(OSMOSIS_CLIENT, STRIDE_CLIENT);
  /** Stride's IBC v2 registration: Osmosis's client of Stride is its client's counterparty. */
  public static final ClientCounterparty STRIDE_IBC_V2 =
      new ClientCounterparty(STRIDE_CLIENT, OSMOSIS_CLIENT);

  /** An Osmosis account derived from a name. */
  public static String osmosisAccount(String name) {
    return Addresses.named(OSMOSIS_PREFIX, name);
  }

  /** A Stride account derived from a name. */
  public static String strideAccount(String name) {
    return Addresses.named(STRIDE_PREFIX, name);
  }

  /** {@link #start(Path, AppGenesis, AppGenesis, Duration, ChainOpener)} with the app's wiring. */
  public static Coordinator start(Path root, AppGenesis osmosis, AppGenesis stride) {
    return start(root, osmosis, stride, Coordinator.DEFAULT_BLOCK_STEP, ChainComponent::open);
  }

  /**
   * Opens both homes under {@code root}, applies the geneses, writes each home's {@code
   * config/channels.json}, and returns a coordinator with Osmosis first in each tick.
   *
   * @throws IllegalStateException if a home already holds a chain
   */
  public static Coordinator start(
      Path root, AppGenesis osmosis, AppGenesis stride, Duration step, ChainOpener opener) {
    Path osmosisHome = root.resolve(OSMOSIS);
    Path strideHome = root.resolve(STRIDE);
    ChainApp o = opener.open(osmosisHome, OSMOSIS, OSMOSIS_AUTHORITY);
    ChainApp s;
    try {
      s = opener.open(strideHome, STRIDE, STRIDE_AUTHORITY);
    } catch (RuntimeException e) {
      o.close();
      throw e;
    }
    try {
      o.initChain(osmosis);
      s.initChain(stride);
      NodeConfig.writeChannels(osmosisHome, o);
      NodeConfig.writeChannels(strideHome, s);
      return new Coordinator(o, s, step);
    } catch (RuntimeException e) {
      o.close();
      s.close();
      throw e;
    }
  }

  /** Builds both geneses with the given customisations and starts. */
  public static Coordinator start(
      Path root,
      Instant genesisTime,
      Consumer<AppGenesis.Builder> osmosis,
      Consumer<AppGenesis.Builder> stride) {
    AppGenesis.Builder o = osmosisGenesis(genesisTime);
    AppGenesis.Builder s = strideGenesis(genesisTime);
    osmosis.accept(o);
    stride.accept(s);
    return start(root, o.build(), s.build());
  }
}
