package dev.ratelimit.app.inject;

import dagger.BindsInstance;
import dagger.Component;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.core.inject.RateLimitCoreModule;
import dev.ratelimit.gov.inject.RateLimitGovModule;
import dev.ratelimit.middleware.inject.RateLimitMiddlewareModule;
import dev.ratelimit.middleware.inject.RateLimitMiddlewareV2Module;
import java.nio.file.Path;
import javax.inject.Named;
import javax.inject.Singleton;

/**
 * The root component of one chain node. Runtime values enter through the factory: the node home
 * (LevelDB under {@code <home>/data}), the chain id and the governance authority (the gov module
 * account; the chain's address prefix is the authority's bech32 prefix).
 *
 * <pre>{@code
 * try (ChainApp app = ChainComponent.open(home, "stride-1", strideGovAddress)) { ... }
 * }</pre>
 */
@Singleton
@Component(
    modules = {
      RateLimitCoreModule.class,
      RateLimitMiddlewareModule.class,
      RateLimitMiddlewareV2Module.class,
      RateLimitGovModule.class,
      AppModule.class,
      RateLimitWiringModule.class,
      IbcV2WiringModule.class
    })
public interface ChainComponent {
  /** Name of the node home binding. */
  String HOME = "app.home";
  /** Name of the chain id binding. */
  String CHAIN_ID = "app.chain_id";

  /** The chain application; it owns the database and must be closed. */
  ChainApp app();

  /** Builds a component from the node's runtime values. */
  @Component.Factory
  interface Factory {
    ChainComponent create(
        @BindsInstance @Named(HOME) Path home,
        @BindsInstance @Named(CHAIN_ID) String chainId,
        @BindsInstance @Named(RateLimitGovModule.AUTHORITY) String authority);
  }

  /**
   * Opens (creating if needed) the node home and returns its chain application.
   *
   * @throws dev.ratelimit.core.store.StorageException if the database cannot be opened
   * @throws IllegalStateException if the home holds another chain
   */
  static ChainApp open(Path home, String chainId, String authority) {
    return DaggerChainComponent.factory().create(home, chainId, authority).app();
  }
}
