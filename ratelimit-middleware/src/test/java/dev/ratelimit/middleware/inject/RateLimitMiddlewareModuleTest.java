package dev.ratelimit.middleware.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dagger.Binds;
import dagger.BindsInstance;
import dagger.Component;
import dagger.Module;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.testing.TestChain;
import dev.ratelimit.middleware.RateLimitMiddleware;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Counterparty;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.IbcModule;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.ibc.Order;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.inject.Inject;
import javax.inject.Named;
import javax.inject.Singleton;
import org.junit.jupiter.api.Test;

/**
 * The Dagger wiring: one middleware is both names' binding, the transfer app gets it as its ICS4
 * wrapper through the Provider cycle (no setter), and a send the app makes is rate limited.
 */
class RateLimitMiddlewareModuleTest {

  /** A minimal transfer app that sends through whatever ICS4 wrapper it is given. */
  @Singleton
  static class SendingApp implements IbcModule {
    final Ics4Wrapper ics4;

    @Inject
    SendingApp(@Named(RateLimitMiddlewareModule.RATE_LIMITED) Ics4Wrapper ics4) {
      this.ics4 = ics4;
    }

    long transfer(BlockContext ctx, String channel, String denom, long amount) {
      byte[] data =
          PacketDataCodec.encode(
              new FungibleTokenPacketData(denom, BigInteger.valueOf(amount), "stride1a", "osmo1b"));
      return ics4.sendPacket(ctx, "transfer", channel, new Height(1, 100), 0, data);
    }

    @Override
    public String onChanOpenInit(
        BlockContext ctx, Order o, List<String> h, String p, String c, Counterparty cp, String v) {
      return "ics20-1";
    }

    @Override
    public String onChanOpenTry(
        BlockContext ctx, Order o, List<String> h, String p, String c, Counterparty cp, String v) {
      return "ics20-1";
    }

    @Override
    public void onChanOpenAck(BlockContext ctx, String p, String c, String cc, String v) {}

    @Override
    public void onChanOpenConfirm(BlockContext ctx, String p, String c) {}

    @Override
    public void onChanCloseInit(BlockContext ctx, String p, String c) {}

    @Override
    public void onChanCloseConfirm(BlockContext ctx, String p, String c) {}

    @Override
    public Optional<Acknowledgement> onRecvPacket(BlockContext ctx, Packet packet, String relayer) {
      return Optional.of(Acknowledgement.SUCCESS);
    }

    @Override
    public void onAcknowledgementPacket(
        BlockContext ctx, Packet packet, byte[] acknowledgement, String relayer) {}

    @Override
    public void onTimeoutPacket(BlockContext ctx, Packet packet, String relayer) {}
  }

  @Module
  abstract static class HostModule {
    @Binds
    @Named(RateLimitMiddlewareModule.WRAPPED_APP)
    abstract IbcModule wrappedApp(SendingApp app);
  }

  @Singleton
  @Component(modules = {RateLimitMiddlewareModule.class, HostModule.class})
  interface TestComponent {
    RateLimitMiddleware middleware();

    @Named(RateLimitMiddlewareModule.RATE_LIMITED)
    Ics4Wrapper ics4Wrapper();

    @Named(RateLimitMiddlewareModule.RATE_LIMITED)
    IbcModule transferRoute();

    SendingApp app();

    @Component.Factory
    interface Factory {
      TestComponent create(
          @BindsInstance RateLimitKeeper keeper,
          @BindsInstance @Named(RateLimitMiddlewareModule.DOWNSTREAM) Ics4Wrapper channel);
    }
  }

  /** Unscoped on purpose: Dagger makes a new one on every request of the binding. */
  static final class UnscopedApp extends SendingApp {
    static final List<UnscopedApp> made = new ArrayList<>();

    @Inject
    UnscopedApp(@Named(RateLimitMiddlewareModule.RATE_LIMITED) Ics4Wrapper ics4) {
      super(ics4);
      made.add(this);
    }
  }

  @Module
  abstract static class UnscopedHostModule {
    @Binds
    @Named(RateLimitMiddlewareModule.WRAPPED_APP)
    abstract IbcModule wrappedApp(UnscopedApp app);
  }

  @Singleton
  @Component(modules = {RateLimitMiddlewareModule.class, UnscopedHostModule.class})
  interface UnscopedComponent {
    @Named(RateLimitMiddlewareModule.RATE_LIMITED)
    IbcModule transferRoute();

    @Component.Factory
    interface Factory {
      UnscopedComponent create(
          @BindsInstance RateLimitKeeper keeper,
          @BindsInstance @Named(RateLimitMiddlewareModule.DOWNSTREAM) Ics4Wrapper channel);
    }
  }

  @Test
  void anUnscopedAppBinding_isAskedForOnce_soEveryCallbackReachesTheSameApp() {
    TestChain chain = TestChain.inMemory(Instant.parse("2024-01-01T07:10:00Z"));
    UnscopedApp.made.clear();
    IbcModule route =
        DaggerRateLimitMiddlewareModuleTest_UnscopedComponent.factory()
            .create(chain.keeper(), mock(Ics4Wrapper.class))
            .transferRoute();

    for (int i = 0; i < 3; i++) {
      route.onChanOpenConfirm(chain.ctx(), "transfer", "channel-" + i);
    }

    assertEquals(1, UnscopedApp.made.size());
  }

  @Test
  void oneMiddlewareIsBothPortsAndTheAppsIcs4Wrapper() {
    TestChain chain = TestChain.inMemory(Instant.parse("2024-01-01T07:10:00Z"));
    TestComponent c =
        DaggerRateLimitMiddlewareModuleTest_TestComponent.factory()
            .create(chain.keeper(), mock(Ics4Wrapper.class));

    assertSame(c.middleware(), c.ics4Wrapper());
    assertSame(c.middleware(), c.transferRoute());
    assertSame(c.middleware(), c.app().ics4);
  }

  @Test
  void aSendByTheWiredAppIsRateLimited() {
    TestChain chain = TestChain.inMemory(Instant.parse("2024-01-01T07:10:00Z"));
    chain.initGenesis(Genesis.empty());
    chain.channels().add("channel-0", "osmosis-1");
    chain.bank().set("ustrd", 1000);
    chain.keeper().addRateLimit(chain.ctx(), new Path("ustrd", "channel-0"), new Quota(10, 10, 1));
    Ics4Wrapper core = mock(Ics4Wrapper.class);
    when(core.sendPacket(any(), any(), any(), any(), anyLong(), any())).thenReturn(5L);
    TestComponent c =
        DaggerRateLimitMiddlewareModuleTest_TestComponent.factory().create(chain.keeper(), core);

    assertEquals(5L, c.app().transfer(chain.ctx(), "channel-0", "ustrd", 40));

    assertEquals(
        new Flow(BigInteger.ZERO, BigInteger.valueOf(40), BigInteger.valueOf(1000)),
        chain.keeper()
            .getRateLimit(chain.ctx(), new Path("ustrd", "channel-0"))
            .orElseThrow()
            .flow());
    assertEquals(
        "ics20-1",
        c.transferRoute()
            .onChanOpenInit(
                chain.ctx(), Order.UNORDERED, List.of("connection-0"), "transfer", "channel-0",
                new Counterparty("transfer", ""), "ics20-1"));
  }
}
