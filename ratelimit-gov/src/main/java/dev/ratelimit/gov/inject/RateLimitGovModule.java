package dev.ratelimit.gov.inject;

import dagger.BindsOptionalOf;
import dagger.Module;
import dagger.Provides;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.gov.AddressCodec;
import dev.ratelimit.gov.MsgRouter;
import dev.ratelimit.gov.ProposalHandler;
import dev.ratelimit.gov.RateLimitMsgHandler;
import java.util.Optional;
import javax.inject.Named;

/**
 * Dagger wiring of governance: {@link RateLimitMsgHandler}, {@link MsgRouter} and {@link
 * ProposalHandler}, built from the core's {@link RateLimitKeeper} and two values of the host:
 *
 * <ul>
 *   <li>the authority, a {@code @Named(}{@value #AUTHORITY}{@code ) String}, required (typically
 *       bound with {@code @BindsInstance} in the root component's factory);
 *   <li>an {@link AddressCodec}, <b>optional</b>: this module declares it with {@link
 *       BindsOptionalOf}, so a host that binds one (e.g. its bech32 codec) gets it used and a host
 *       that binds none gets {@link AddressCodec#nonBlank()}. Optional rather than a default
 *       {@code @Provides}, because Dagger does not let a component override a module's binding: a
 *       provided default would make the host's own codec a duplicate binding.
 * </ul>
 *
 * <pre>{@code
 * @Singleton
 * @Component(modules = {RateLimitCoreModule.class, RateLimitGovModule.class, MyChainModule.class})
 * interface App {
 *   ProposalHandler proposalHandler();
 *
 *   @Component.Factory
 *   interface Factory {
 *     App create(@BindsInstance @Named(RateLimitGovModule.AUTHORITY) String authority);
 *   }
 * }
 * }</pre>
 *
 * The three objects are stateless, so they are unscoped.
 */
@Module
public abstract class RateLimitGovModule {
  /** The {@link Named} qualifier of the authority string. */
  public static final String AUTHORITY = "ratelimit.authority";

  private RateLimitGovModule() {}

  /** Declares the host's optional address codec. */
  @BindsOptionalOf
  abstract AddressCodec optionalAddressCodec();

  @Provides
  static RateLimitMsgHandler rateLimitMsgHandler(
      RateLimitKeeper keeper,
      @Named(AUTHORITY) String authority,
      Optional<AddressCodec> addressCodec) {
    return new RateLimitMsgHandler(
        keeper, authority, addressCodec.orElseGet(AddressCodec::nonBlank));
  }

  @Provides
  static MsgRouter msgRouter(RateLimitMsgHandler handler) {
    return new MsgRouter(handler);
  }

  @Provides
  static ProposalHandler proposalHandler(MsgRouter router) {
    return new ProposalHandler(router);
  }
}
