package dev.ratelimit.bench.app;

import dagger.Binds;
import dagger.BindsInstance;
import dagger.Component;
import dagger.Module;
import dagger.Provides;
import dagger.multibindings.IntoMap;
import dagger.multibindings.StringKey;
import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.bank.BankKeeper;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.ibc.IbcCore;
import dev.ratelimit.app.inject.AppModule;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.transfer.TransferApp;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.core.inject.RateLimitCoreModule;
import dev.ratelimit.core.store.NodeHome;
import dev.ratelimit.gov.AddressCodec;
import dev.ratelimit.gov.inject.RateLimitGovModule;
import dev.ratelimit.middleware.ibc.IbcModule;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.inject.RateLimitMiddlewareModule;
import java.nio.file.Path;
import javax.inject.Named;
import javax.inject.Singleton;

/**
 * The example chain with the rate-limit middleware taken out of the transfer stack, for the
 * app-throughput baseline: port {@code transfer} routes straight to the transfer app, and the
 * transfer app sends straight through IBC core. Everything else ({@link ChainComponent}'s modules,
 * the keeper's BeginBlock, governance) stays, so the difference is the middleware alone.
 */
@Singleton
@Component(
    modules = {
      RateLimitCoreModule.class,
      RateLimitGovModule.class,
      AppModule.class,
      WithoutMiddlewareChainComponent.Wiring.class
    })
public interface WithoutMiddlewareChainComponent {
  ChainApp app();

  @Component.Factory
  interface Factory {
    WithoutMiddlewareChainComponent create(
        @BindsInstance @Named(ChainComponent.HOME) Path home,
        @BindsInstance @Named(ChainComponent.CHAIN_ID) String chainId,
        @BindsInstance @Named(RateLimitGovModule.AUTHORITY) String authority);
  }

  /** Opens (creating if needed) a node home without the middleware. */
  static ChainApp open(Path home, String chainId, String authority) {
    return DaggerWithoutMiddlewareChainComponent.factory().create(home, chainId, authority).app();
  }

  /** The app's wiring module minus the middleware. */
  @Module
  abstract class Wiring {
    private Wiring() {}

    @Provides
    @Named(RateLimitCoreModule.STORE_PREFIX)
    static byte[] rateLimitStorePrefix() {
      return NodeHome.ratelimitPrefix();
    }

    @Binds
    abstract BankSupply bankSupply(BankKeeper bank);

    @Binds
    abstract IbcChannels ibcChannels(IbcCore ibc);

    /** The transfer app's ICS4 wrapper is IBC core itself. */
    @Binds
    @Named(RateLimitMiddlewareModule.RATE_LIMITED)
    abstract Ics4Wrapper transferSendsThroughCore(IbcCore ibc);

    @Binds
    @IntoMap
    @StringKey(IbcCore.TRANSFER_PORT)
    abstract IbcModule transferRoute(TransferApp transfer);

    /** Governance checks the signer as the example chain does (bech32 with its prefix). */
    @Provides
    static AddressCodec addresses(ChainInfo chain) {
      return address -> Addresses.requireValid(chain.accountPrefix(), address);
    }
  }
}
