package dev.ratelimit.core.inject;

import dagger.BindsOptionalOf;
import dagger.Module;
import dagger.Provides;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.query.RateLimitQueryServer;
import java.util.Optional;
import javax.inject.Named;
import javax.inject.Singleton;

/**
 * Dagger wiring of the core: the keeper, built from the two ports the host chain binds ({@link
 * BankSupply} and {@link IbcChannels}) and, optionally, the key prefix of the module inside the
 * chain's shared store ({@code @Named(STORE_PREFIX) byte[]}, like a Cosmos store key; without it
 * the keeper owns the whole store of the contexts it gets).
 *
 * <pre>{@code
 * @Singleton
 * @Component(modules = {RateLimitCoreModule.class, MyChainPortsModule.class})
 * interface App { RateLimitKeeper rateLimitKeeper(); RateLimitQueryServer queries(); }
 * }</pre>
 */
@Module
public abstract class RateLimitCoreModule {
  /** Name of the optional {@code byte[]} binding holding the module's store prefix. */
  public static final String STORE_PREFIX = "ratelimit.store_prefix";

  private RateLimitCoreModule() {}

  @BindsOptionalOf
  @Named(STORE_PREFIX)
  abstract byte[] storePrefix();

  @Provides
  @Singleton
  static RateLimitKeeper rateLimitKeeper(
      BankSupply bank, IbcChannels channels, @Named(STORE_PREFIX) Optional<byte[]> prefix) {
    return prefix.map(p -> new RateLimitKeeper(bank, channels, p))
        .orElseGet(() -> new RateLimitKeeper(bank, channels));
  }

  /** The query service over the one keeper. */
  @Provides
  @Singleton
  static RateLimitQueryServer rateLimitQueryServer(RateLimitKeeper keeper) {
    return new RateLimitQueryServer(keeper);
  }
}
