package dev.ratelimit.app.inject;

import static dev.ratelimit.core.inject.RateLimitCoreModule.STORE_PREFIX;
import static dev.ratelimit.middleware.inject.RateLimitMiddlewareModule.DOWNSTREAM;
import static dev.ratelimit.middleware.inject.RateLimitMiddlewareModule.RATE_LIMITED;
import static dev.ratelimit.middleware.inject.RateLimitMiddlewareModule.WRAPPED_APP;

import dagger.Binds;
import dagger.Module;
import dagger.Provides;
import dagger.multibindings.IntoMap;
import dagger.multibindings.StringKey;
import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.bank.BankKeeper;
import dev.ratelimit.app.ibc.IbcCore;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.transfer.TransferApp;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.core.store.NodeHome;
import dev.ratelimit.gov.AddressCodec;
import dev.ratelimit.middleware.ibc.IbcModule;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import javax.inject.Named;

/**
 * Everything a chain writes to plug the rate limiter in (the README's snippet): the keeper's store
 * prefix inside the chain's shared store, the two host ports, IBC core as the ICS4 wrapper below
 * the middleware, ICS-20 transfer as the app it wraps (transfer itself takes {@code
 * @Named(RATE_LIMITED) Ics4Wrapper}), the route of port {@code transfer} to the middleware, and
 * the chain's address check for governance messages.
 */
@Module
public abstract class RateLimitWiringModule {
  private RateLimitWiringModule() {}

  @Provides @Named(STORE_PREFIX) static byte[] prefix() { return NodeHome.ratelimitPrefix(); }
  @Binds abstract BankSupply bankSupply(BankKeeper bank);              // supply at window start
  @Binds abstract IbcChannels ibcChannels(IbcCore ibc);                // channel -> chain id
  @Binds @Named(DOWNSTREAM) abstract Ics4Wrapper below(IbcCore ibc);   // IBC core under it
  @Binds @Named(WRAPPED_APP) abstract IbcModule wrapped(TransferApp t); // ICS-20 above it
  @Binds @IntoMap @StringKey("transfer")                               // core routes the port
  abstract IbcModule route(@Named(RATE_LIMITED) IbcModule m);          // to the middleware
  @Provides static AddressCodec addresses(ChainInfo chain) {           // gov's address check
    return a -> Addresses.requireValid(chain.accountPrefix(), a); }    // (bech32, our prefix)
}
