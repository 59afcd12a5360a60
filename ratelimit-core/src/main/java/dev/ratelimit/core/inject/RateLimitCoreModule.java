package dev.ratelimit.core.inject;

import dagger.Module;
import dagger.Provides;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.query.RateLimitQueryServer;
import javax.inject.Named;
import javax.inject.Singleton;

/**
 * Dagger wiring of the core: the keeper, built from what the host chain binds: the two ports
 * ({@link BankSupply} and {@link IbcChannels}) and the key prefix of the module inside the chain's
 * shared store ({@code @javax.inject.Named(STORE_PREFIX) byte[]}, like a Cosmos store key; an
 * empty array when the module has a store of its own). The prefix is required, not optional: a
 * missing one, or one qualified with {@code jakarta.inject.Named}, fails the host's build instead
 * of putting the module's keys at the root of a shared store.
 *
 * <pre>{@code
 * @Singleton
 * @Component(modules = {RateLimitCoreModule.class, MyChainPortsModule.class}) // binds the three
 * interface App { RateLimitKeeper rateLimitKeeper(); RateLimitQueryServer queries(); }
 * }</pre>
 */
@Module
public abstract class RateLimitCoreModule {
  /** Name of the required {@code byte[]} binding holding the module's store prefix. */
  public static final String STORE_PREFIX = "ratelimit.store_prefix";

  private RateLimitCoreModule() {}

  @Provides
  @Singleton
  static RateLimitKeeper rateLimitKeeper(
      BankSupply bank, IbcChannels channels, @Named(STORE_PREFIX) byte[] prefix) {
    return new RateLimitKeeper(bank, channels, prefix);
  }

  /** The query service over the one keeper. */
  @Provides
  @Singleton
  static RateLimitQueryServer rateLimitQueryServer(RateLimitKeeper keeper) {
    return new RateLimitQueryServer(keeper);
  }
}
