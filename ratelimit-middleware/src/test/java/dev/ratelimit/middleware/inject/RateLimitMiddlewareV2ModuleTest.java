package dev.ratelimit.middleware.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
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
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.Sha256;
import dev.ratelimit.core.testing.TestChain;
import dev.ratelimit.middleware.RateLimitMiddlewareV2;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.ibc.v2.Acknowledgement;
import dev.ratelimit.middleware.ibc.v2.AsyncPackets;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import dev.ratelimit.middleware.ibc.v2.Packet;
import dev.ratelimit.middleware.ibc.v2.Payload;
import dev.ratelimit.middleware.ibc.v2.RecvPacketResult;
import dev.ratelimit.middleware.ibc.v2.WriteAcknowledgementWrapper;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.Ics20PayloadCodec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import javax.inject.Inject;
import javax.inject.Named;
import javax.inject.Singleton;
import org.junit.jupiter.api.Test;

/**
 * The IBC v2 wiring: one middleware is the transfer route and the app's acknowledgement writer
 * (the cycle through a Lazy), and an app that acknowledges later settles through it.
 */
class RateLimitMiddlewareV2ModuleTest {

  /** An app that receives asynchronously and acknowledges later through what it was given. */
  @Singleton
  static class AsyncApp implements IbcModule {
    final WriteAcknowledgementWrapper acks;

    @Inject
    AsyncApp(@Named(RateLimitMiddlewareV2Module.RATE_LIMITED) WriteAcknowledgementWrapper acks) {
      this.acks = acks;
    }

    @Override
    public void onSendPacket(
        BlockContext ctx, String src, String dst, long seq, Payload p, String signer) {}

    @Override
    public RecvPacketResult onRecvPacket(
        BlockContext ctx, String src, String dst, long seq, Payload p, String relayer) {
      return RecvPacketResult.async();
    }

    @Override
    public void onTimeoutPacket(
        BlockContext ctx, String src, String dst, long seq, Payload p, String relayer) {}

    @Override
    public void onAcknowledgementPacket(
        BlockContext ctx, String src, String dst, long seq, byte[] ack, Payload p, String r) {}
  }

  @Module
  abstract static class HostModule {
    @Binds
    @Named(RateLimitMiddlewareV2Module.WRAPPED_APP)
    abstract IbcModule wrappedApp(AsyncApp app);
  }

  @Singleton
  @Component(modules = {RateLimitMiddlewareV2Module.class, HostModule.class})
  interface TestComponent {
    RateLimitMiddlewareV2 middleware();

    @Named(RateLimitMiddlewareV2Module.RATE_LIMITED)
    IbcModule transferRoute();

    AsyncApp app();

    @Component.Factory
    interface Factory {
      TestComponent create(
          @BindsInstance RateLimitKeeper keeper,
          @BindsInstance @Named(RateLimitMiddlewareV2Module.DOWNSTREAM)
              WriteAcknowledgementWrapper core,
          @BindsInstance AsyncPackets asyncPackets);
    }
  }

  @Module
  abstract static class BothVersionsHostModule {
    @Binds
    @Named(RateLimitMiddlewareModule.WRAPPED_APP)
    abstract dev.ratelimit.middleware.ibc.IbcModule v1App(
        RateLimitMiddlewareModuleTest.SendingApp app);

    @Binds
    @Named(RateLimitMiddlewareV2Module.WRAPPED_APP)
    abstract IbcModule v2App(AsyncApp app);
  }

  /** A chain that speaks IBC v1 and v2: both modules, one keeper. */
  @Singleton
  @Component(modules = {RateLimitMiddlewareModule.class, RateLimitMiddlewareV2Module.class,
      BothVersionsHostModule.class})
  interface BothVersionsComponent {
    RateLimitMiddlewareModuleTest.SendingApp v1App();

    @Named(RateLimitMiddlewareV2Module.RATE_LIMITED)
    IbcModule v2Route();

    @Component.Factory
    interface Factory {
      BothVersionsComponent create(
          @BindsInstance RateLimitKeeper keeper,
          @BindsInstance @Named(RateLimitMiddlewareModule.DOWNSTREAM) Ics4Wrapper channel,
          @BindsInstance @Named(RateLimitMiddlewareV2Module.DOWNSTREAM)
              WriteAcknowledgementWrapper core,
          @BindsInstance AsyncPackets asyncPackets);
    }
  }

  @Test
  void bothModulesInstallSideBySideAndCountOnTheSameKeeper() {
    TestChain chain = TestChain.inMemory(Instant.parse("2024-01-01T07:10:00Z"));
    chain.initGenesis(Genesis.empty());
    chain.channels().add("channel-0", "osmosis-1").add("07-tendermint-0", "osmosis-1");
    chain.bank().set("ustrd", 1000);
    for (String id : List.of("channel-0", "07-tendermint-0")) {
      chain.keeper().addRateLimit(chain.ctx(), new Path("ustrd", id), new Quota(10, 10, 1));
    }
    Ics4Wrapper channel = mock(Ics4Wrapper.class);
    when(channel.sendPacket(any(), any(), any(), any(), anyLong(), any())).thenReturn(4L);
    BothVersionsComponent c = DaggerRateLimitMiddlewareV2ModuleTest_BothVersionsComponent
        .factory().create(chain.keeper(), channel, mock(WriteAcknowledgementWrapper.class),
            (ctx, id, s) -> Optional.empty());

    c.v1App().transfer(chain.ctx(), "channel-0", "ustrd", 60);
    byte[] value = Ics20PayloadCodec.encode(new FungibleTokenPacketData(
        "ustrd", BigInteger.valueOf(70), "stride1a", "osmo1b"), Ics20PayloadCodec.ENCODING_JSON);
    c.v2Route().onSendPacket(chain.ctx(), "07-tendermint-0", "08-wasm-1", 9,
        new Payload("transfer", "transfer", "ics20-1", "application/json", value), "stride1a");

    assertEquals(BigInteger.valueOf(60), chain.keeper()
        .getRateLimit(chain.ctx(), new Path("ustrd", "channel-0")).orElseThrow().flow().outflow());
    assertEquals(BigInteger.valueOf(70), chain.keeper()
        .getRateLimit(chain.ctx(), new Path("ustrd", "07-tendermint-0")).orElseThrow().flow()
        .outflow());
  }

  @Test
  void oneMiddlewareIsTheRouteAndTheAppsAcknowledgementWriter() {
    TestChain chain = TestChain.inMemory(Instant.parse("2024-01-01T07:10:00Z"));
    TestComponent c = DaggerRateLimitMiddlewareV2ModuleTest_TestComponent.factory()
        .create(chain.keeper(), mock(WriteAcknowledgementWrapper.class), (ctx, id, s) -> Optional.empty());

    assertSame(c.middleware(), c.transferRoute());
    assertSame(c.middleware(), c.app().acks);
  }

  @Test
  void anAsyncReceiveFailedLaterGivesItsInflowBack() {
    TestChain chain = TestChain.inMemory(Instant.parse("2024-01-01T07:10:00Z"));
    chain.initGenesis(Genesis.empty());
    chain.channels().add("07-tendermint-0", "osmosis-1");
    chain.bank().set("ustrd", 1000);
    chain.keeper().addRateLimit(
        chain.ctx(), new Path("ustrd", "07-tendermint-0"), new Quota(10, 10, 1));
    byte[] value = Ics20PayloadCodec.encode(new FungibleTokenPacketData(
        "transfer/08-wasm-1/ustrd", BigInteger.valueOf(60), "osmo1a", "stride1b"),
        Ics20PayloadCodec.ENCODING_JSON);
    Payload payload = new Payload("transfer", "transfer", "ics20-1", "application/json", value);
    Packet packet = new Packet(3, "08-wasm-1", "07-tendermint-0", 0, List.of(payload));
    WriteAcknowledgementWrapper core = mock(WriteAcknowledgementWrapper.class);
    TestComponent c = DaggerRateLimitMiddlewareV2ModuleTest_TestComponent.factory().create(
        chain.keeper(), core, (ctx, id, s) -> Optional.of(packet).filter(p -> s == 3));

    c.transferRoute().onRecvPacket(chain.ctx(), "08-wasm-1", "07-tendermint-0", 3, payload, "r");
    Path path = new Path("ustrd", "07-tendermint-0");
    assertEquals(List.of(new PendingPacket("07-tendermint-0", "ustrd", 3)),
        chain.keeper().getPendingRecvPackets(chain.ctx(), path));
    byte[] universalError =
        Sha256.hash("UNIVERSAL_ERROR_ACKNOWLEDGEMENT".getBytes(StandardCharsets.US_ASCII));
    c.app().acks.writeAcknowledgement(
        chain.ctx(), "07-tendermint-0", 3, new Acknowledgement(List.of(universalError)));

    assertEquals(new Flow(BigInteger.ZERO, BigInteger.ZERO, BigInteger.valueOf(1000)),
        chain.keeper().getRateLimit(chain.ctx(), path).orElseThrow().flow());
    verify(core).writeAcknowledgement(any(), eq("07-tendermint-0"), anyLong(), any());
  }
}
