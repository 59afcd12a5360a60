package dev.ratelimit.core.inject;

import dagger.Module;
import dagger.Provides;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import javax.inject.Singleton;

/**
 * Dagger wiring of the core: the keeper, built from the two ports the host chain binds ({@link
 * BankSupply} and {@link IbcChannels}).
 *
 * <pre>{@code
 * @Singleton
 * @Component(modules = {RateLimitCoreModule.class, MyChainPortsModule.class})
 * interface App { RateLimitKeeper rateLimitKeeper(); }
 * }</pre>
 */
@Module
public final class RateLimitCoreModule {
  private RateLimitCoreModule() {}

  @Provides
  @Singleton
  static RateLimitKeeper rateLimitKeeper(BankSupply bank, IbcChannels channels) {
    return new RateLimitKeeper(bank, channels);
  }
}
