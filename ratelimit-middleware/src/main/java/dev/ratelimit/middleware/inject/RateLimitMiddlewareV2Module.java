package dev.ratelimit.middleware.inject;

import dagger.Binds;
import dagger.Lazy;
import dagger.Module;
import dagger.Provides;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.middleware.RateLimitMiddlewareV2;
import dev.ratelimit.middleware.ibc.v2.AsyncPackets;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import dev.ratelimit.middleware.ibc.v2.WriteAcknowledgementWrapper;
import javax.inject.Named;
import javax.inject.Singleton;

/**
 * Dagger wiring of the IBC v2 middleware, beside {@link RateLimitMiddlewareModule} (a chain that
 * speaks both installs both; they share the keeper and its store). The host binds three things:
 *
 * <ul>
 *   <li>{@code @Named(WRAPPED_APP) IbcModule} (the v2 one): the ICS-20 transfer app's IBC v2
 *       module; an app that acknowledges asynchronously takes the middleware's {@link
 *       WriteAcknowledgementWrapper} (bound here under {@code @Named(RATE_LIMITED)}), the cycle
 *       broken by a {@link Lazy};
 *   <li>{@code @Named(DOWNSTREAM) WriteAcknowledgementWrapper}: IBC core's, below the middleware;
 *   <li>{@link AsyncPackets}: IBC core's packets awaiting an asynchronous acknowledgement.
 * </ul>
 *
 * <p>Route the {@code transfer} port's IBC v2 callbacks to {@code @Named(RATE_LIMITED) IbcModule}.
 * Core's acknowledgement writer and async packets are taken lazily, so a core that takes its routes
 * by injection (and so this middleware) closes no cycle; take the routes as {@code Map<String,
 * Provider<IbcModule>>} all the same, as with {@link RateLimitMiddlewareModule}.
 */
@Module
public abstract class RateLimitMiddlewareV2Module {
  /** The transfer application's IBC v2 module, which the middleware wraps. */
  public static final String WRAPPED_APP = "ratelimit.v2.wrapped_app";
  /** IBC core's acknowledgement writer, below the middleware. */
  public static final String DOWNSTREAM = "ratelimit.v2.downstream";
  /** The middleware, as the transfer port's IBC v2 module and acknowledgement writer. */
  public static final String RATE_LIMITED = "ratelimit.v2.rate_limited";

  private RateLimitMiddlewareV2Module() {}

  @Provides
  @Singleton
  static RateLimitMiddlewareV2 middleware(
      RateLimitKeeper keeper,
      @Named(WRAPPED_APP) Lazy<IbcModule> app,
      @Named(DOWNSTREAM) Lazy<WriteAcknowledgementWrapper> downstream,
      Lazy<AsyncPackets> asyncPackets) {
    // core is asked for only when an acknowledgement is written, so a core that takes its routes
    // (and so this middleware) by injection closes no cycle at construction
    return new RateLimitMiddlewareV2(keeper, app::get,
        (ctx, clientId, sequence, ack) ->
            downstream.get().writeAcknowledgement(ctx, clientId, sequence, ack),
        (ctx, clientId, sequence) -> asyncPackets.get().asyncPacket(ctx, clientId, sequence));
  }

  @Binds
  @Named(RATE_LIMITED)
  abstract IbcModule ibcModule(RateLimitMiddlewareV2 middleware);

  @Binds
  @Named(RATE_LIMITED)
  abstract WriteAcknowledgementWrapper writeAcknowledgementWrapper(
      RateLimitMiddlewareV2 middleware);
}
