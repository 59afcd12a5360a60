package dev.ratelimit.middleware.inject;

import dagger.Binds;
import dagger.Lazy;
import dagger.Module;
import dagger.Provides;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.middleware.RateLimitMiddleware;
import dev.ratelimit.middleware.ibc.IbcModule;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import javax.inject.Named;
import javax.inject.Singleton;

/**
 * Dagger wiring of the middleware. The host binds two things:
 *
 * <ul>
 *   <li>{@code @Named(DOWNSTREAM) Ics4Wrapper}: IBC core's channel keeper, below the middleware;
 *   <li>{@code @Named(WRAPPED_APP) IbcModule}: the ICS-20 transfer app, which itself takes the
 *       middleware's {@link Ics4Wrapper} (bound here under {@code @Named(RATE_LIMITED)}) — the
 *       cycle is broken by a {@link Lazy}, never by a setter. The middleware asks for the app
 *       once and keeps it, so even an unscoped app binding gives every callback the same app
 *       (scope it {@code @Singleton} anyway if the host injects it elsewhere too).
 * </ul>
 *
 * <p>Route the {@code transfer} port to {@code @Named(RATE_LIMITED) IbcModule}. If IBC core takes
 * its routes by injection, it closes a second cycle (core → routes → middleware → core as {@code
 * DOWNSTREAM}): take them as {@code Map<String, Provider<IbcModule>>}.
 */
@Module
public abstract class RateLimitMiddlewareModule {
  /** The channel keeper below the middleware. */
  public static final String DOWNSTREAM = "ratelimit.downstream";
  /** The transfer application the middleware wraps. */
  public static final String WRAPPED_APP = "ratelimit.wrapped_app";
  /** The middleware, as the transfer app's ICS4 wrapper and as the transfer port's module. */
  public static final String RATE_LIMITED = "ratelimit.rate_limited";

  private RateLimitMiddlewareModule() {}

  @Provides
  @Singleton
  static RateLimitMiddleware middleware(
      RateLimitKeeper keeper,
      @Named(DOWNSTREAM) Ics4Wrapper channel,
      @Named(WRAPPED_APP) Lazy<IbcModule> app) {
    return new RateLimitMiddleware(keeper, channel, app::get);
  }

  @Binds
  @Named(RATE_LIMITED)
  abstract Ics4Wrapper ics4Wrapper(RateLimitMiddleware middleware);

  @Binds
  @Named(RATE_LIMITED)
  abstract IbcModule ibcModule(RateLimitMiddleware middleware);
}
