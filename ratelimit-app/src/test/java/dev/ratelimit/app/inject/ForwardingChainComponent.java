package dev.ratelimit.app.inject;

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
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.transfer.ForwardingApp;
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
import javax.inject.Provider;
import javax.inject.Singleton;

/**
 * The chain with a packet-forward-like app between the rate-limit middleware and transfer: the
 * same component as {@link ChainComponent} with the wiring module swapped. {@code
 * throughMiddleware} picks the forwarding app's ICS4 wrapper: the middleware (right) or IBC core
 * (the bypass the reliability tests show stranding a marker).
 */
@Singleton
@Component(
    modules = {
      RateLimitCoreModule.class,
      RateLimitMiddlewareModule.class,
      RateLimitGovModule.class,
      AppModule.class,
      ForwardingChainComponent.ForwardingWiringModule.class
    })
public interface ForwardingChainComponent {
  /** Name of the switch binding. */
  String THROUGH_MIDDLEWARE = "test.forward_through_middleware";

  ChainApp app();

  ForwardingApp forwardingApp();

  @Component.Factory
  interface Factory {
    ForwardingChainComponent create(
        @BindsInstance @Named(ChainComponent.HOME) Path home,
        @BindsInstance @Named(ChainComponent.CHAIN_ID) String chainId,
        @BindsInstance @Named(RateLimitGovModule.AUTHORITY) String authority,
        @BindsInstance @Named(THROUGH_MIDDLEWARE) boolean throughMiddleware);
  }

  /** {@link RateLimitWiringModule} with the forwarding app as the middleware's wrapped app. */
  @Module
  abstract class ForwardingWiringModule {
    @Provides
    @Named(RateLimitCoreModule.STORE_PREFIX)
    static byte[] rateLimitStorePrefix() {
      return NodeHome.ratelimitPrefix();
    }

    @Binds
    abstract BankSupply bankSupply(BankKeeper bank);

    @Binds
    abstract IbcChannels ibcChannels(IbcCore ibc);

    @Binds
    @Named(RateLimitMiddlewareModule.DOWNSTREAM)
    abstract Ics4Wrapper belowMiddleware(IbcCore ibc);

    @Provides
    @Singleton
    static ForwardingApp forwardingApp(
        TransferApp transfer,
        @Named(RateLimitMiddlewareModule.RATE_LIMITED) Provider<Ics4Wrapper> middleware,
        IbcCore core,
        BankKeeper bank,
        ChainInfo chain,
        @Named(THROUGH_MIDDLEWARE) boolean throughMiddleware) {
      return new ForwardingApp(transfer, throughMiddleware ? middleware.get() : core, bank, chain);
    }

    @Binds
    @Named(RateLimitMiddlewareModule.WRAPPED_APP)
    abstract IbcModule wrappedApp(ForwardingApp forwarding);

    @Binds
    @IntoSet
    abstract EndBlocker forwardingAcks(ForwardingApp forwarding);

    @Binds
    @IntoMap
    @StringKey(IbcCore.TRANSFER_PORT)
    abstract IbcModule transferRoute(@Named(RateLimitMiddlewareModule.RATE_LIMITED) IbcModule m);

    @Provides
    static AddressCodec addresses(ChainInfo chain) {
      return RateLimitWiringModule.addresses(chain);
    }
  }
}
