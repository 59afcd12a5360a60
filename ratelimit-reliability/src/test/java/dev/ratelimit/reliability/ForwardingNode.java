package dev.ratelimit.reliability;

import dagger.Binds;
import dagger.BindsInstance;
import dagger.Component;
import dagger.Module;
import dagger.Provides;
import dagger.multibindings.IntoMap;
import dagger.multibindings.IntoSet;
import dagger.multibindings.StringKey;
import dev.ratelimit.app.bank.BankKeeper;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.EndBlocker;
import dev.ratelimit.app.ibc.IbcCore;
import dev.ratelimit.app.inject.AppModule;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.transfer.TransferApp;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.core.inject.RateLimitCoreModule;
import dev.ratelimit.core.store.NodeHome;
import dev.ratelimit.gov.inject.RateLimitGovModule;
import dev.ratelimit.middleware.ibc.IbcModule;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.inject.RateLimitMiddlewareModule;
import java.nio.file.Path;
import javax.inject.Named;
import javax.inject.Singleton;

/**
 * The example chain with {@link HoldingForwardApp} between the rate-limit middleware and transfer:
 * the app's {@link ChainComponent} with the wiring module swapped. {@code forwardThroughMiddleware}
 * picks the forward app's ICS4 wrapper: the middleware (right) or IBC core (the bypass).
 */
@Singleton
@Component(modules = {
    RateLimitCoreModule.class,
    RateLimitMiddlewareModule.class,
    RateLimitGovModule.class,
    AppModule.class,
    ForwardingNode.Wiring.class
})
interface ForwardingNode {
  /** Name of the switch binding. */
  String THROUGH_MIDDLEWARE = "test.forward_through_middleware";

  ChainApp app();

  HoldingForwardApp forwardApp();

  @Component.Factory
  interface Factory {
    ForwardingNode create(
        @BindsInstance @Named(ChainComponent.HOME) Path home,
        @BindsInstance @Named(ChainComponent.CHAIN_ID) String chainId,
        @BindsInstance @Named(RateLimitGovModule.AUTHORITY) String authority,
        @BindsInstance @Named(THROUGH_MIDDLEWARE) boolean throughMiddleware);
  }

  @Module
  abstract class Wiring {
    @Provides
    @Named(RateLimitCoreModule.STORE_PREFIX)
    static byte[] prefix() {
      return NodeHome.RATELIMIT_PREFIX;
    }

    @Binds
    abstract BankSupply bankSupply(BankKeeper bank);

    @Binds
    abstract IbcChannels ibcChannels(IbcCore ibc);

    @Binds
    @Named(RateLimitMiddlewareModule.DOWNSTREAM)
    abstract Ics4Wrapper below(IbcCore ibc);

    @Provides
    @Singleton
    static HoldingForwardApp forwardApp(
        TransferApp transfer,
        @Named(RateLimitMiddlewareModule.RATE_LIMITED)
            javax.inject.Provider<Ics4Wrapper> middleware,
        IbcCore core,
        BankKeeper bank,
        ChainInfo chain,
        @Named(THROUGH_MIDDLEWARE) boolean throughMiddleware) {
      Ics4Wrapper ics4 = throughMiddleware ? middleware.get() : core;
      return new HoldingForwardApp(transfer, ics4, bank, chain);
    }

    @Binds
    @Named(RateLimitMiddlewareModule.WRAPPED_APP)
    abstract IbcModule wrapped(HoldingForwardApp forward);

    @Binds
    @IntoSet
    abstract EndBlocker forwardAcks(HoldingForwardApp forward);

    @Provides
    @IntoMap
    @StringKey(IbcCore.TRANSFER_PORT)
    static IbcModule route(@Named(RateLimitMiddlewareModule.RATE_LIMITED) IbcModule m) {
      return m;
    }
  }
}
