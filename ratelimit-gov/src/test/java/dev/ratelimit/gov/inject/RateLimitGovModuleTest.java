package dev.ratelimit.gov.inject;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.Any;
import dagger.BindsInstance;
import dagger.Component;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.EventSink;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.core.inject.RateLimitCoreModule;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.gov.AddressCodec;
import dev.ratelimit.gov.MsgRouter;
import dev.ratelimit.gov.ProposalHandler;
import dev.ratelimit.gov.RateLimitMsgHandler;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.inject.Named;
import javax.inject.Singleton;
import org.junit.jupiter.api.Test;

class RateLimitGovModuleTest {

  /** A host that binds no address codec: the module falls back to {@link AddressCodec#nonBlank()}. */
  @Singleton
  @Component(modules = {RateLimitCoreModule.class, RateLimitGovModule.class})
  interface DefaultCodecApp {
    RateLimitKeeper keeper();

    RateLimitMsgHandler handler();

    MsgRouter router();

    ProposalHandler proposals();

    @Component.Factory
    interface Factory {
      DefaultCodecApp create(
          @BindsInstance @Named(RateLimitGovModule.AUTHORITY) String authority,
          @BindsInstance @Named(RateLimitCoreModule.STORE_PREFIX) byte[] storePrefix,
          @BindsInstance BankSupply bank,
          @BindsInstance IbcChannels channels);
    }
  }

  /** A host that binds its own address codec (here: a bech32-like prefix check). */
  @Singleton
  @Component(modules = {RateLimitCoreModule.class, RateLimitGovModule.class})
  interface CustomCodecApp {
    ProposalHandler proposals();

    RateLimitMsgHandler handler();

    @Component.Factory
    interface Factory {
      CustomCodecApp create(
          @BindsInstance @Named(RateLimitGovModule.AUTHORITY) String authority,
          @BindsInstance @Named(RateLimitCoreModule.STORE_PREFIX) byte[] storePrefix,
          @BindsInstance BankSupply bank,
          @BindsInstance IbcChannels channels,
          @BindsInstance AddressCodec addressCodec);
    }
  }

  private static final byte[] PREFIX = "g/".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NONE = new byte[0]; // a store of the module's own
  private static final BankSupply BANK = (ctx, denom) -> BigInteger.valueOf(1000);
  private static final IbcChannels CHANNELS =
      new IbcChannels() {
        @Override
        public boolean channelOrClientExists(BlockContext ctx, String id) {
          return id.equals("channel-0");
        }

        @Override
        public Optional<String> counterpartyChainId(BlockContext ctx, String id) {
          return Optional.empty();
        }
      };

  private final BlockContext ctx =
      BlockContext.of(1, Instant.parse("2024-01-01T00:00:00Z"), new MemoryKvStore(), EventSink.discarding());

  private static Any addSignedBy(String signer) {
    MsgAddRateLimit msg =
        MsgAddRateLimit.newBuilder()
            .setAuthority(signer)
            .setDenom("ustrd")
            .setChannelOrClientId("channel-0")
            .setMaxPercentSend("10")
            .setMaxPercentRecv("10")
            .setDurationHours(24)
            .build();
    return Any.newBuilder()
        .setTypeUrl("/ratelimit.v1.MsgAddRateLimit")
        .setValue(msg.toByteString())
        .build();
  }

  @Test
  void defaultWiring_executesAProposalThroughTheSharedKeeper() {
    DefaultCodecApp app =
        DaggerRateLimitGovModuleTest_DefaultCodecApp.factory().create("gov", PREFIX, BANK, CHANNELS);
    assertEquals("gov", app.handler().authority());

    app.proposals().execute(ctx, List.of(addSignedBy("gov")));
    // the keeper writes under the bound prefix, nothing at the store's root
    List<String> keys = new ArrayList<>();
    try (KvScan scan = ctx.store().scan(null, null)) {
      scan.forEachRemaining(e -> keys.add(new String(e.key(), 0, 2, StandardCharsets.ISO_8859_1)));
    }
    assertEquals(false, keys.isEmpty());
    assertEquals(List.of("g/"), keys.stream().distinct().toList());

    // the keeper the governance handlers write through is the component's singleton keeper
    assertEquals(true, app.keeper().hasRateLimit(ctx, new Path("ustrd", "channel-0")));
    RateLimitException e =
        assertThrows(RateLimitException.class, () -> app.router().route(ctx, addSignedBy("x")));
    assertEquals(ErrorCode.UNAUTHORIZED, e.code());
    e = assertThrows(RateLimitException.class, () -> app.router().route(ctx, addSignedBy(" ")));
    assertEquals(ErrorCode.INVALID_ADDRESS, e.code());
  }

  @Test
  void defaultWiring_rejectsABlankAuthority() {
    DefaultCodecApp app =
        DaggerRateLimitGovModuleTest_DefaultCodecApp.factory().create(" ", NONE, BANK, CHANNELS);
    assertThrows(IllegalArgumentException.class, app::handler);
  }

  @Test
  void hostCodec_isUsedWhenBound() {
    AddressCodec stridePrefix =
        address -> {
          if (!address.startsWith("stride1")) {
            throw new IllegalArgumentException("expected prefix stride1");
          }
        };
    CustomCodecApp app =
        DaggerRateLimitGovModuleTest_CustomCodecApp.factory()
            .create("stride1gov", NONE, BANK, CHANNELS, stridePrefix);

    // a well-formed stranger is unauthorized, a malformed address is an invalid address
    RateLimitException e =
        assertThrows(
            RateLimitException.class,
            () -> app.proposals().execute(ctx, List.of(addSignedBy("stride1mallory"))));
    assertEquals(ErrorCode.UNAUTHORIZED, e.code());
    e =
        assertThrows(
            RateLimitException.class,
            () -> app.proposals().execute(ctx, List.of(addSignedBy("osmo1mallory"))));
    assertEquals(ErrorCode.INVALID_ADDRESS, e.code());

    app.proposals().execute(ctx, List.of(addSignedBy("stride1gov")));
  }

  @Test
  void hostCodec_mustAcceptTheAuthority() {
    CustomCodecApp app =
        DaggerRateLimitGovModuleTest_CustomCodecApp.factory()
            .create(
                "gov",
                NONE,
                BANK,
                CHANNELS,
                a -> {
                  throw new IllegalArgumentException("no");
                });
    assertThrows(IllegalArgumentException.class, app::handler);
  }
}
