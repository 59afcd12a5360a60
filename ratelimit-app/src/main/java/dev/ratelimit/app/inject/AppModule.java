package dev.ratelimit.app.inject;

import dagger.Module;
import dagger.Provides;
import dagger.multibindings.Multibinds;
import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.chain.EndBlocker;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.core.store.LevelDbKvStore;
import dev.ratelimit.core.store.NodeHome;
import dev.ratelimit.gov.inject.RateLimitGovModule;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import javax.inject.Named;
import javax.inject.Singleton;

/**
 * The chain's own bindings, independent of the rate limiter: the database of the node home, the
 * chain's identity, the (by default empty) set of extra {@link EndBlocker}s and IBC v2 port routes
 * (a chain without them refuses IBC v2 packets). Bank, IBC core, transfer and governance are
 * {@code @Inject} classes.
 */
@Module
public abstract class AppModule {
  private AppModule() {}

  /** The node's LevelDB; {@link dev.ratelimit.app.chain.ChainApp} closes it. */
  @Provides
  @Singleton
  static LevelDbKvStore database(@Named(ChainComponent.HOME) Path home) {
    return LevelDbKvStore.open(NodeHome.dataDir(home));
  }

  /** The chain id, and the address prefix taken from the authority's bech32 prefix. */
  @Provides
  @Singleton
  static ChainInfo chainInfo(
      @Named(ChainComponent.CHAIN_ID) String chainId,
      @Named(RateLimitGovModule.AUTHORITY) String authority) {
    String prefix;
    try {
      prefix = Addresses.prefixOf(authority);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "the authority must be a bech32 address of the chain, got " + authority, e);
    }
    return new ChainInfo(chainId, prefix);
  }

  @Multibinds
  abstract Set<EndBlocker> endBlockers();

  @Multibinds
  abstract Map<String, IbcModule> ibcV2Routes();
}
