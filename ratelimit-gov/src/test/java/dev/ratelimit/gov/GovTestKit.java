package dev.ratelimit.gov;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.google.protobuf.Any;
import com.google.protobuf.Message;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.store.StoreDigest;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import dev.ratelimit.proto.v1.MsgRemoveRateLimit;
import dev.ratelimit.proto.v1.MsgResetRateLimit;
import dev.ratelimit.proto.v1.MsgUpdateRateLimit;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.function.Executable;

/**
 * A tiny host for governance tests: an in-memory store, a bank with settable supplies, a set of
 * open channels and clients, a root block context that records its events, and the handlers.
 */
final class GovTestKit {
  static final String AUTHORITY = "authority";
  static final Instant TIME = Instant.parse("2024-01-01T00:00:00Z");

  final MemoryKvStore store = new MemoryKvStore();
  final Map<String, BigInteger> supply = new HashMap<>();
  final Set<String> channels = new HashSet<>();
  final List<Event> events = new ArrayList<>();
  final BlockContext ctx = BlockContext.of(1, TIME, store, events::add);
  final RateLimitKeeper keeper = new RateLimitKeeper(bank(), ibc());
  final RateLimitMsgHandler handler =
      new RateLimitMsgHandler(keeper, AUTHORITY, AddressCodec.nonBlank());
  final MsgRouter router = new MsgRouter(handler);
  final ProposalHandler proposals = new ProposalHandler(router);

  GovTestKit() {
    channels.add("channel-0");
    supply.put("ustrd", BigInteger.valueOf(1000));
  }

  BankSupply bank() {
    return (ctx, denom) -> supply.getOrDefault(denom, BigInteger.ZERO);
  }

  IbcChannels ibc() {
    return new IbcChannels() {
      @Override
      public boolean channelOrClientExists(BlockContext ctx, String id) {
        return channels.contains(id);
      }

      @Override
      public Optional<String> counterpartyChainId(BlockContext ctx, String id) {
        return Optional.empty();
      }
    };
  }

  String digest() {
    return StoreDigest.hex(store);
  }

  /**
   * Runs {@code action}, expects a rejection with {@code code}, and checks that it wrote nothing
   * and emitted nothing.
   */
  RateLimitException assertRejected(ErrorCode code, Executable action) {
    String before = digest();
    int eventsBefore = events.size();
    RateLimitException e = assertThrows(RateLimitException.class, action);
    assertEquals(code, e.code(), () -> "got " + e.getMessage());
    assertEquals(before, digest(), "a rejected message must not write");
    assertEquals(eventsBefore, events.size(), "a rejected message must not emit");
    return e;
  }

  Event lastEvent() {
    return events.get(events.size() - 1);
  }

  static Path path(String denom, String channel) {
    return new Path(denom, channel);
  }

  // ------------------------------------------------------------------ messages

  static MsgAddRateLimit add(String denom, String channel, String send, String recv, long hours) {
    return MsgAddRateLimit.newBuilder()
        .setAuthority(AUTHORITY)
        .setDenom(denom)
        .setChannelOrClientId(channel)
        .setMaxPercentSend(send)
        .setMaxPercentRecv(recv)
        .setDurationHours(hours)
        .build();
  }

  static MsgAddRateLimit add(String denom, String channel) {
    return add(denom, channel, "10", "10", 24);
  }

  static MsgUpdateRateLimit update(
      String denom, String channel, String send, String recv, long hours) {
    return MsgUpdateRateLimit.newBuilder()
        .setAuthority(AUTHORITY)
        .setDenom(denom)
        .setChannelOrClientId(channel)
        .setMaxPercentSend(send)
        .setMaxPercentRecv(recv)
        .setDurationHours(hours)
        .build();
  }

  static MsgRemoveRateLimit remove(String denom, String channel) {
    return MsgRemoveRateLimit.newBuilder()
        .setAuthority(AUTHORITY)
        .setDenom(denom)
        .setChannelOrClientId(channel)
        .build();
  }

  static MsgResetRateLimit reset(String denom, String channel) {
    return MsgResetRateLimit.newBuilder()
        .setAuthority(AUTHORITY)
        .setDenom(denom)
        .setChannelOrClientId(channel)
        .build();
  }

  /** {@code msg} packed Cosmos style: {@code /<full name>}. */
  static Any any(Message msg) {
    return any("/" + msg.getDescriptorForType().getFullName(), msg);
  }

  static Any any(String typeUrl, Message msg) {
    return Any.newBuilder().setTypeUrl(typeUrl).setValue(msg.toByteString()).build();
  }
}
