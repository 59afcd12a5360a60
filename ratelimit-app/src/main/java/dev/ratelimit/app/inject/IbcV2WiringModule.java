package dev.ratelimit.app.inject;

import static dev.ratelimit.middleware.inject.RateLimitMiddlewareV2Module.DOWNSTREAM;
import static dev.ratelimit.middleware.inject.RateLimitMiddlewareV2Module.RATE_LIMITED;
import static dev.ratelimit.middleware.inject.RateLimitMiddlewareV2Module.WRAPPED_APP;

import dagger.Binds;
import dagger.Module;
import dagger.multibindings.IntoMap;
import dagger.multibindings.StringKey;
import dev.ratelimit.app.ibc.v2.IbcCoreV2;
import dev.ratelimit.app.transfer.TransferV2;
import dev.ratelimit.middleware.ibc.v2.AsyncPackets;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import dev.ratelimit.middleware.ibc.v2.WriteAcknowledgementWrapper;
import javax.inject.Named;

/**
 * What a chain writes to plug the rate limiter into IBC v2, beside {@code
 * RateLimitMiddlewareV2Module} (the names are its): ICS-20's IBC v2 module as the app the
 * middleware wraps, IBC core's v2 part as the acknowledgement writer below it and as the keeper of
 * packets awaiting an asynchronous acknowledgement, and the route of port {@code transfer}'s IBC v2
 * callbacks to the middleware. The keeper, its store and {@link RateLimitWiringModule}'s host ports
 * are shared with IBC v1.
 */
@Module
public abstract class IbcV2WiringModule {
  private IbcV2WiringModule() {}

  @Binds @Named(WRAPPED_APP) abstract IbcModule wrapped(TransferV2 t);     // ICS-20 above it
  @Binds @Named(DOWNSTREAM)                                               // IBC core under it
  abstract WriteAcknowledgementWrapper below(IbcCoreV2 core);
  @Binds abstract AsyncPackets asyncPackets(IbcCoreV2 core);              // core's async packets
  @Binds @IntoMap @StringKey("transfer")                                  // core routes the port
  abstract IbcModule route(@Named(RATE_LIMITED) IbcModule m);             // to the middleware
}
