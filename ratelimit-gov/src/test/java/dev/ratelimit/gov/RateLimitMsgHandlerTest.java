package dev.ratelimit.gov;

import static dev.ratelimit.gov.GovTestKit.AUTHORITY;
import static dev.ratelimit.gov.GovTestKit.add;
import static dev.ratelimit.gov.GovTestKit.path;
import static dev.ratelimit.gov.GovTestKit.remove;
import static dev.ratelimit.gov.GovTestKit.reset;
import static dev.ratelimit.gov.GovTestKit.update;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.proto.v1.MsgAddRateLimitResponse;
import dev.ratelimit.proto.v1.MsgRemoveRateLimitResponse;
import dev.ratelimit.proto.v1.MsgResetRateLimitResponse;
import dev.ratelimit.proto.v1.MsgUpdateRateLimitResponse;
import java.math.BigInteger;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class RateLimitMsgHandlerTest {
  private final GovTestKit kit = new GovTestKit();

  /** The four messages, sent with the given signer, denom and id, through the typed handler. */
  enum Kind {
    ADD,
    UPDATE,
    REMOVE,
    RESET;

    Executable send(GovTestKit kit, String authority, String denom, String channel) {
      return switch (this) {
        case ADD -> () -> kit.handler.addRateLimit(
            kit.ctx, add(denom, channel).toBuilder().setAuthority(authority).build());
        case UPDATE -> () -> kit.handler.updateRateLimit(
            kit.ctx,
            update(denom, channel, "20", "30", 48).toBuilder().setAuthority(authority).build());
        case REMOVE -> () -> kit.handler.removeRateLimit(
            kit.ctx, remove(denom, channel).toBuilder().setAuthority(authority).build());
        case RESET -> () -> kit.handler.resetRateLimit(
            kit.ctx, reset(denom, channel).toBuilder().setAuthority(authority).build());
      };
    }
  }

  private void addUstrd() {
    kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-0"));
  }

  private RateLimit stored(String denom, String channel) {
    return kit.keeper.getRateLimit(kit.ctx, path(denom, channel)).orElseThrow();
  }

  // ================================================================== rule 1: authority address

  @Nested
  class AuthorityAddress {
    static Stream<Arguments> blankAuthorities() {
      return Stream.of(Kind.values())
          // Go's strings.TrimSpace decides (the SDK's empty-address test): NEL and NBSP are blank
          .flatMap(k -> Stream.of("", " ", "\t\n", "\u00a0", "\u0085", " \u3000 ")
              .map(a -> Arguments.of(k, a)));
    }

    @ParameterizedTest(name = "{0} signed by \"{1}\"")
    @MethodSource("blankAuthorities")
    void blankAuthority_isInvalidAddress(Kind kind, String authority) {
      addUstrd();
      kit.assertRejected(ErrorCode.INVALID_ADDRESS, kind.send(kit, authority, "ustrd", "channel-0"));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void blankAuthority_isReportedBeforeEveryOtherRule(Kind kind) {
      kit.assertRejected(ErrorCode.INVALID_ADDRESS, kind.send(kit, "", "", "invalid"));
    }

    @Test
    void blankAuthority_isReportedBeforeBadPercentsAndDuration() {
      kit.assertRejected(
          ErrorCode.INVALID_ADDRESS,
          () -> kit.handler.addRateLimit(
              kit.ctx, add("", "channel-", "abc", "101", 0).toBuilder().setAuthority(" ").build()));
    }

    @Test
    void addressCodecRejection_isInvalidAddress_notUnauthorized() {
      AddressCodec codec = mock(AddressCodec.class);
      doThrow(new IllegalArgumentException("bad bech32 checksum")).when(codec).validate("mallory");
      RateLimitMsgHandler handler = new RateLimitMsgHandler(kit.keeper, AUTHORITY, codec);

      kit.assertRejected(
          ErrorCode.INVALID_ADDRESS,
          () -> handler.addRateLimit(
              kit.ctx, add("ustrd", "channel-0").toBuilder().setAuthority("mallory").build()));
      verify(codec).validate("mallory");
    }

    @Test
    void addressCodec_seesTheSignerOfEveryMessage_andAcceptsTheAuthority() {
      AddressCodec codec = mock(AddressCodec.class);
      RateLimitMsgHandler handler = new RateLimitMsgHandler(kit.keeper, AUTHORITY, codec);
      handler.addRateLimit(kit.ctx, add("ustrd", "channel-0"));
      handler.resetRateLimit(kit.ctx, reset("ustrd", "channel-0"));
      // once in the constructor, once per message
      verify(codec, org.mockito.Mockito.times(3)).validate(AUTHORITY);
    }

    @Test
    void nonBlankCodec_acceptsAnyNonBlankString() {
      AddressCodec codec = AddressCodec.nonBlank();
      assertDoesNotThrow(() -> codec.validate("a"));
      assertDoesNotThrow(() -> codec.validate("cosmos10d07y265gmmuvt4z0w9aw880jnsr700j6zn9kn"));
      assertThrows(IllegalArgumentException.class, () -> codec.validate(""));
      assertThrows(IllegalArgumentException.class, () -> codec.validate("  "));
      assertThrows(IllegalArgumentException.class, () -> codec.validate(null));
      assertSame(codec, AddressCodec.nonBlank());
    }
  }

  // ================================================================== rules 2 and 3: path

  @Nested
  class PathRules {
    @ParameterizedTest
    @EnumSource(Kind.class)
    void emptyDenom_isInvalidRequest(Kind kind) {
      addUstrd();
      kit.assertRejected(ErrorCode.INVALID_REQUEST, kind.send(kit, AUTHORITY, "", "channel-0"));
    }

    @Test
    void singleSpaceDenom_passesValidation_likeGo() {
      kit.supply.put(" ", BigInteger.valueOf(500));
      kit.handler.addRateLimit(kit.ctx, add(" ", "channel-0"));
      assertEquals(BigInteger.valueOf(500), stored(" ", "channel-0").flow().channelValue());
      kit.handler.updateRateLimit(kit.ctx, update(" ", "channel-0", "1", "2", 3));
      kit.handler.resetRateLimit(kit.ctx, reset(" ", "channel-0"));
      kit.handler.removeRateLimit(kit.ctx, remove(" ", "channel-0"));
      assertFalse(kit.keeper.hasRateLimit(kit.ctx, path(" ", "channel-0")));
    }

    @ParameterizedTest
    @ValueSource(
        strings = {
          "channel-0",
          "channel-18446744073709551615",
          "07-tendermint-5",
          "09-localhost",
          "08-wasm-0"
        })
    void validChannelOrClientId_isAccepted(String id) {
      kit.channels.add(id);
      kit.handler.addRateLimit(kit.ctx, add("ustrd", id));
      assertTrue(kit.keeper.hasRateLimit(kit.ctx, path("ustrd", id)));
    }

    static Stream<Arguments> invalidIds() {
      return Stream.of(Kind.values())
          .flatMap(
              k ->
                  Stream.of(
                          "channel-",
                          "invalid",
                          "",
                          "channel-18446744073709551616",
                          "07-tendermint-",
                          "channel-0 ",
                          "channel/0",
                          "-5")
                      .map(id -> Arguments.of(k, id)));
    }

    @ParameterizedTest(name = "{0} on \"{1}\"")
    @MethodSource("invalidIds")
    void invalidChannelOrClientId_isInvalidRequest_notCode8(Kind kind, String id) {
      kit.channels.add(id); // even when the host claims it exists
      kit.assertRejected(ErrorCode.INVALID_REQUEST, kind.send(kit, AUTHORITY, "ustrd", id));
    }

    @Test
    void denomWithUnpairedSurrogate_isInvalidRequest() {
      // Only a Java caller can build one: the wire carries valid UTF-8.
      kit.assertRejected(
          ErrorCode.INVALID_REQUEST,
          () -> kit.handler.addRateLimit(kit.ctx, add("u\uD800", "channel-0")));
    }
  }

  // ================================================================== rules 4 to 7: quota

  @Nested
  class QuotaRules {
    @ParameterizedTest
    @ValueSource(strings = {"0", "1", "99", "100"})
    void percentInRange_isAccepted(String pct) {
      kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-0", pct, "10", 24));
      assertEquals(Integer.parseInt(pct), stored("ustrd", "channel-0").quota().maxPercentSend());
      kit.handler.updateRateLimit(kit.ctx, update("ustrd", "channel-0", "10", pct, 24));
      assertEquals(Integer.parseInt(pct), stored("ustrd", "channel-0").quota().maxPercentRecv());
    }

    static Stream<Arguments> badPercents() {
      return Stream.of(
              "-1", "101", "010", "00", "abc", "", "+5", "1000", "99999999999999999999999",
              "\u0665", " 10", "10 ", "1e2", "0x64", "10.0")
          .flatMap(p -> Stream.of(Arguments.of(p, true), Arguments.of(p, false)));
    }

    @ParameterizedTest(name = "\"{0}\" as send: {1}")
    @MethodSource("badPercents")
    void badPercent_onAdd_isInvalidRequest(String pct, boolean asSend) {
      kit.assertRejected(
          ErrorCode.INVALID_REQUEST,
          () -> kit.handler.addRateLimit(
              kit.ctx, add("ustrd", "channel-0", asSend ? pct : "10", asSend ? "10" : pct, 24)));
    }

    @ParameterizedTest(name = "\"{0}\" as send: {1}")
    @MethodSource("badPercents")
    void badPercent_onUpdate_isInvalidRequest(String pct, boolean asSend) {
      addUstrd();
      kit.assertRejected(
          ErrorCode.INVALID_REQUEST,
          () -> kit.handler.updateRateLimit(
              kit.ctx, update("ustrd", "channel-0", asSend ? pct : "10", asSend ? "10" : pct, 24)));
    }

    @Test
    void bothPercentsZero_isInvalidRequest() {
      kit.assertRejected(
          ErrorCode.INVALID_REQUEST,
          () -> kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-0", "0", "0", 24)));
      addUstrd();
      kit.assertRejected(
          ErrorCode.INVALID_REQUEST,
          () -> kit.handler.updateRateLimit(kit.ctx, update("ustrd", "channel-0", "0", "0", 24)));
    }

    @Test
    void oneZeroPercent_isAccepted() {
      kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-0", "0", "1", 24));
      assertEquals(new Quota(0, 1, 24), stored("ustrd", "channel-0").quota());
    }

    @Test
    void zeroDuration_isInvalidRequest() {
      long hours = 0;
      kit.assertRejected(
          ErrorCode.INVALID_REQUEST,
          () -> kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-0", "10", "10", hours)));
      addUstrd();
      kit.assertRejected(
          ErrorCode.INVALID_REQUEST,
          () -> kit.handler.updateRateLimit(
              kit.ctx, update("ustrd", "channel-0", "10", "10", hours)));
    }

    /** Every other uint64, read unsigned: -1 and MIN_VALUE are 2^64 - 1 and 2^63 hours. */
    @ParameterizedTest
    @ValueSource(longs = {1L, 24L, Long.MAX_VALUE, Long.MIN_VALUE, -1L})
    void nonZeroDuration_isAccepted(long hours) {
      kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-0", "10", "10", hours));
      assertEquals(hours, stored("ustrd", "channel-0").quota().durationHours());
      kit.handler.updateRateLimit(kit.ctx, update("ustrd", "channel-0", "20", "20", hours));
      assertEquals(hours, stored("ustrd", "channel-0").quota().durationHours());
    }
  }

  // ================================================================== rule 8: authority

  @Nested
  class Authority {
    @ParameterizedTest
    @EnumSource(Kind.class)
    void otherSigner_isUnauthorized(Kind kind) {
      addUstrd();
      // U+001C and U+001F are Java whitespace but not Go's: signers, not blank
      for (String signer :
          List.of("mallory", "Authority", "authority ", " authority", "\u001c", "\u001f ")) {
        kit.assertRejected(ErrorCode.UNAUTHORIZED, kind.send(kit, signer, "ustrd", "channel-0"));
      }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void statelessErrors_takePrecedenceOverWrongSigner(Kind kind) {
      addUstrd();
      kit.assertRejected(ErrorCode.INVALID_REQUEST, kind.send(kit, "mallory", "", "channel-0"));
      kit.assertRejected(ErrorCode.INVALID_REQUEST, kind.send(kit, "mallory", "ustrd", "invalid"));
    }

    @Test
    void quotaErrors_takePrecedenceOverWrongSigner() {
      addUstrd();
      kit.assertRejected(
          ErrorCode.INVALID_REQUEST,
          () -> kit.handler.addRateLimit(
              kit.ctx,
              add("uatom", "channel-0", "101", "10", 24).toBuilder().setAuthority("mallory").build()));
      kit.assertRejected(
          ErrorCode.INVALID_REQUEST,
          () -> kit.handler.updateRateLimit(
              kit.ctx,
              update("ustrd", "channel-0", "0", "0", 24).toBuilder().setAuthority("mallory").build()));
      kit.assertRejected(
          ErrorCode.INVALID_REQUEST,
          () -> kit.handler.updateRateLimit(
              kit.ctx,
              update("ustrd", "channel-0", "1", "1", 0).toBuilder().setAuthority("mallory").build()));
    }

    @Test
    void wrongSigner_takesPrecedenceOverStatefulErrors() {
      // zero supply (3), unknown channel (6), not found (2) all come after the signer check
      kit.assertRejected(ErrorCode.UNAUTHORIZED, Kind.ADD.send(kit, "mallory", "uzero", "channel-9"));
      for (Kind kind : List.of(Kind.UPDATE, Kind.REMOVE, Kind.RESET)) {
        kit.assertRejected(ErrorCode.UNAUTHORIZED, kind.send(kit, "mallory", "uatom", "channel-0"));
      }
    }

    @Test
    void constructor_rejectsBlankOrInvalidAuthority() {
      assertThrows(
          IllegalArgumentException.class,
          () -> new RateLimitMsgHandler(kit.keeper, "", AddressCodec.nonBlank()));
      assertThrows(
          IllegalArgumentException.class,
          () -> new RateLimitMsgHandler(kit.keeper, " \t", AddressCodec.nonBlank()));
      assertThrows(
          IllegalArgumentException.class,
          () -> new RateLimitMsgHandler(kit.keeper, "gov", a -> {
            throw new IllegalArgumentException("not bech32");
          }));
      assertThrows(
          NullPointerException.class,
          () -> new RateLimitMsgHandler(null, AUTHORITY, AddressCodec.nonBlank()));
      assertThrows(
          NullPointerException.class,
          () -> new RateLimitMsgHandler(kit.keeper, null, AddressCodec.nonBlank()));
      assertEquals(AUTHORITY, kit.handler.authority());
    }
  }

  // ================================================================== rule 9: stateful

  @Nested
  class Stateful {
    @Test
    void add_zeroSupply_isCode3() {
      kit.assertRejected(
          ErrorCode.ZERO_CHANNEL_VALUE,
          () -> kit.handler.addRateLimit(kit.ctx, add("uzero", "channel-0")));
    }

    @Test
    void add_existing_isCode1() {
      addUstrd();
      kit.assertRejected(
          ErrorCode.RATE_LIMIT_ALREADY_EXISTS,
          () -> kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-0", "50", "50", 1)));
    }

    @Test
    void add_unknownChannel_isCode6() {
      kit.assertRejected(
          ErrorCode.CHANNEL_NOT_FOUND,
          () -> kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-9")));
      kit.assertRejected(
          ErrorCode.CHANNEL_NOT_FOUND,
          () -> kit.handler.addRateLimit(kit.ctx, add("ustrd", "07-tendermint-5")));
    }

    @Test
    void add_zeroSupplyIsCheckedBeforeExistenceAndChannel() {
      kit.assertRejected(
          ErrorCode.ZERO_CHANNEL_VALUE,
          () -> kit.handler.addRateLimit(kit.ctx, add("uzero", "channel-9")));
      addUstrd();
      kit.supply.put("ustrd", BigInteger.ZERO);
      kit.assertRejected(
          ErrorCode.ZERO_CHANNEL_VALUE,
          () -> kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-0")));
    }

    @Test
    void add_existenceIsCheckedBeforeChannel() {
      // a limit on a channel that is not (or no longer) open, e.g. from genesis
      kit.keeper.setRateLimit(
          kit.ctx,
          new RateLimit(path("ustrd", "channel-9"), new Quota(1, 1, 1), Flow.fresh(BigInteger.TEN)));
      kit.assertRejected(
          ErrorCode.RATE_LIMIT_ALREADY_EXISTS,
          () -> kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-9")));
    }

    @ParameterizedTest
    @EnumSource(value = Kind.class, names = {"UPDATE", "REMOVE", "RESET"})
    void absentRateLimit_isCode2(Kind kind) {
      addUstrd(); // another denom on the channel, and the same denom on another channel
      kit.channels.add("channel-1");
      kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-1"));
      kit.assertRejected(ErrorCode.RATE_LIMIT_NOT_FOUND, kind.send(kit, AUTHORITY, "uatom", "channel-0"));
      kit.assertRejected(ErrorCode.RATE_LIMIT_NOT_FOUND, kind.send(kit, AUTHORITY, "ustrd", "channel-10"));
    }

    @Test
    void add_storesQuotaAndFreshFlow_andEmits() {
      MsgAddRateLimitResponse r =
          kit.handler.addRateLimit(kit.ctx, add("ustrd", "channel-0", "10", "20", 24));
      assertEquals(MsgAddRateLimitResponse.getDefaultInstance(), r);
      assertEquals(
          new RateLimit(
              path("ustrd", "channel-0"),
              new Quota(10, 20, 24),
              Flow.fresh(BigInteger.valueOf(1000))),
          stored("ustrd", "channel-0"));
      assertEquals(
          Event.of(
              "ratelimit_add_rate_limit",
              "module", "ratelimit",
              "denom", "ustrd",
              "channel_or_client", "channel-0",
              "max_percent_send", "10",
              "max_percent_recv", "20",
              "duration_hours", "24",
              "channel_value", "1000"),
          kit.lastEvent());
      assertEquals(1, kit.events.size());
    }

    @Test
    void update_replacesQuota_freshFlowWithNewSupply_clearsMarkers_andEmits() {
      addUstrd();
      Markers m = new Markers();
      flowTraffic();
      kit.supply.put("ustrd", BigInteger.valueOf(2000));

      MsgUpdateRateLimitResponse r =
          kit.handler.updateRateLimit(kit.ctx, update("ustrd", "channel-0", "20", "30", 48));

      assertEquals(MsgUpdateRateLimitResponse.getDefaultInstance(), r);
      assertEquals(
          new RateLimit(
              path("ustrd", "channel-0"),
              new Quota(20, 30, 48),
              Flow.fresh(BigInteger.valueOf(2000))),
          stored("ustrd", "channel-0"));
      m.assertOwnClearedOthersKept();
      assertEquals(
          Event.of(
              "ratelimit_update_rate_limit",
              "module", "ratelimit",
              "denom", "ustrd",
              "channel_or_client", "channel-0",
              "max_percent_send", "20",
              "max_percent_recv", "30",
              "duration_hours", "48",
              "channel_value", "2000"),
          kit.lastEvent());
    }

    @Test
    void update_withZeroSupply_keepsChannelValue_andEmitsBothEvents() {
      addUstrd();
      kit.supply.put("ustrd", BigInteger.ZERO);
      kit.events.clear();
      kit.handler.updateRateLimit(kit.ctx, update("ustrd", "channel-0", "20", "30", 48));
      assertEquals(BigInteger.valueOf(1000), stored("ustrd", "channel-0").flow().channelValue());
      assertEquals(
          List.of("ratelimit_channel_value_kept", "ratelimit_update_rate_limit"),
          kit.events.stream().map(Event::type).toList());
    }

    @Test
    void remove_removesLimitAndItsMarkers_andEmits() {
      addUstrd();
      Markers m = new Markers();
      MsgRemoveRateLimitResponse r =
          kit.handler.removeRateLimit(kit.ctx, remove("ustrd", "channel-0"));
      assertEquals(MsgRemoveRateLimitResponse.getDefaultInstance(), r);
      assertFalse(kit.keeper.hasRateLimit(kit.ctx, path("ustrd", "channel-0")));
      m.assertOwnClearedOthersKept();
      assertEquals(
          Event.of(
              "ratelimit_remove_rate_limit",
              "module", "ratelimit",
              "denom", "ustrd",
              "channel_or_client", "channel-0"),
          kit.lastEvent());
    }

    @Test
    void reset_startsFreshWindow_clearsMarkers_andEmits() {
      addUstrd();
      Markers m = new Markers();
      flowTraffic();
      kit.supply.put("ustrd", BigInteger.valueOf(3000));
      MsgResetRateLimitResponse r =
          kit.handler.resetRateLimit(kit.ctx, reset("ustrd", "channel-0"));
      assertEquals(MsgResetRateLimitResponse.getDefaultInstance(), r);
      RateLimit rl = stored("ustrd", "channel-0");
      assertEquals(Flow.fresh(BigInteger.valueOf(3000)), rl.flow());
      assertEquals(new Quota(10, 10, 24), rl.quota());
      m.assertOwnClearedOthersKept();
      assertEquals(
          Event.of(
              "ratelimit_reset_rate_limit",
              "module", "ratelimit",
              "denom", "ustrd",
              "channel_or_client", "channel-0",
              "channel_value", "3000"),
          kit.lastEvent());
    }

    @Test
    void failureAfterAWrite_discardsTheMessagesBranch() {
      // The keeper validates before writing, so only a failure injected after a write can show
      // that the handler's branch, not the keeper's care, keeps the store clean.
      RateLimitKeeper keeper = mock(RateLimitKeeper.class);
      when(keeper.updateRateLimit(any(), any(), any()))
          .thenAnswer(
              inv -> {
                BlockContext branch = inv.getArgument(0);
                assertTrue(branch.isBranch());
                branch.store().put(new byte[] {42}, new byte[] {1});
                branch.emit(Event.of("half_done"));
                throw new IllegalStateException("host failure after a write");
              });
      RateLimitMsgHandler handler = new RateLimitMsgHandler(keeper, AUTHORITY, AddressCodec.nonBlank());
      String before = kit.digest();
      assertThrows(
          IllegalStateException.class,
          () -> handler.updateRateLimit(kit.ctx, update("ustrd", "channel-0", "1", "1", 1)));
      assertEquals(before, kit.digest());
      assertTrue(kit.events.isEmpty());
    }

    /** Adds 5 of outflow and 3 of inflow, so a fresh flow is distinguishable. */
    private void flowTraffic() {
      RateLimit rl = stored("ustrd", "channel-0");
      kit.keeper.setRateLimit(
          kit.ctx,
          rl.withFlow(new Flow(BigInteger.valueOf(3), BigInteger.valueOf(5), rl.flow().channelValue())));
    }
  }

  /**
   * Pending markers on (channel-0, ustrd), which a message on that path must clear, and on
   * neighbours (another denom on the channel, a look-alike channel), which must survive.
   */
  private final class Markers {
    final PendingPacket ownSend = new PendingPacket("channel-0", "ustrd", 1);
    final PendingPacket ownSend2 = new PendingPacket("channel-0", "ustrd", 7);
    final PendingPacket ownRecv = new PendingPacket("channel-0", "ustrd", 2);
    final PendingPacket otherDenom = new PendingPacket("channel-0", "uatom", 1);
    final PendingPacket otherChannel = new PendingPacket("channel-00", "ustrd", 1);
    final PendingPacket otherChannelRecv = new PendingPacket("channel-01", "ustrd", 2);

    Markers() {
      kit.keeper.setPendingSendPacket(kit.ctx, ownSend);
      kit.keeper.setPendingSendPacket(kit.ctx, ownSend2);
      kit.keeper.setPendingRecvPacket(kit.ctx, ownRecv);
      kit.keeper.setPendingSendPacket(kit.ctx, otherDenom);
      kit.keeper.setPendingSendPacket(kit.ctx, otherChannel);
      kit.keeper.setPendingRecvPacket(kit.ctx, otherChannelRecv);
    }

    void assertOwnClearedOthersKept() {
      assertEquals(List.of(), kit.keeper.getPendingSendPackets(kit.ctx, path("ustrd", "channel-0")));
      assertEquals(List.of(), kit.keeper.getPendingRecvPackets(kit.ctx, path("ustrd", "channel-0")));
      assertEquals(
          List.of(otherDenom, otherChannel), kit.keeper.getAllPendingSendPackets(kit.ctx));
      assertEquals(List.of(otherChannelRecv), kit.keeper.getAllPendingRecvPackets(kit.ctx));
    }
  }
}
