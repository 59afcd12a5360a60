package dev.ratelimit.cli.simulate;

import com.google.protobuf.Any;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.proto.v1.GenesisState;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One step of a scenario: its number (from 1), its op, what it does and what it must observe.
 *
 * @param expect {@link Expect#NONE} when the step has no {@code expect}
 * @param expectEvents each needs its own emitted match
 * @param expectNoEvents event types that must not be emitted
 */
public record Step(
    int number,
    String op,
    Action action,
    Expect expect,
    List<EventExpect> expectEvents,
    List<String> expectNoEvents) {

  public Step {
    expectEvents = List.copyOf(expectEvents);
    expectNoEvents = List.copyOf(expectNoEvents);
  }

  /** True when the step asserts anything. */
  public boolean hasExpectations() {
    return !expect.isEmpty()
        || !expectEvents.isEmpty()
        || !expectNoEvents.isEmpty()
        || (action instanceof Check
            && !(action instanceof CheckQuery q && q.expect().isEmpty()));
  }

  /** What a step does. */
  public sealed interface Action {}

  /** Steps that only assert state. */
  public sealed interface Check extends Action {}

  /** Commits the current block and begins the next at this height and time. */
  public record BeginBlock(Instant time, long height) implements Action {}

  public record SetSupply(String denom, BigInteger amount) implements Action {}

  public record AddChannel(Scenario.ChannelSpec channel) implements Action {}

  public record AddClient(Scenario.ClientSpec client) implements Action {}

  public record Msg(Any msg) implements Action {}

  public record Proposal(List<Any> messages) implements Action {
    public Proposal {
      messages = List.copyOf(messages);
    }
  }

  /**
   * A {@code msg} or {@code proposal} carrying a message of a known type whose fields no chain
   * could receive (a uint64 of {@code "-1"}, a percent as a JSON number): the step fails as
   * {@code invalid_request} with {@code reason}.
   */
  public record Undecodable(String reason) implements Action {}

  public record Send(PacketSpec packet) implements Action {}

  /**
   * A packet received from the counterparty.
   *
   * @param appAck {@code success}, {@code error} or {@code async}
   */
  public record Recv(PacketSpec packet, String appAck) implements Action {}

  /** The app writes a receive's async ack through the middleware. */
  public record WriteAck(PacketSpec packet, WrittenAck ack) implements Action {}

  /** The ack a {@code write_ack} writes; {@code MISSING} is SPEC §5's missing (null) ack. */
  public enum WrittenAck {
    SUCCESS,
    ERROR,
    MISSING
  }

  public record AckPacket(PacketSpec packet, byte[] acknowledgement) implements Action {
    public AckPacket {
      acknowledgement = acknowledgement.clone();
    }
  }

  public record Timeout(PacketSpec packet) implements Action {}

  public record BlacklistAdd(String denom) implements Action {}

  public record BlacklistRemove(String denom) implements Action {}

  public record WhitelistAdd(String sender, String receiver) implements Action {}

  public record WhitelistRemove(String sender, String receiver) implements Action {}

  /**
   * {@code check_rate_limit}: the limit of one path as the keeper holds it, or its absence.
   *
   * @param flow expected {@code inflow}, {@code outflow}, {@code channel_value} (any subset)
   * @param quota expected {@code max_percent_send}, {@code max_percent_recv}, {@code
   *     duration_hours} (any subset)
   */
  public record CheckRateLimit(
      String denom,
      String channelOrClientId,
      Optional<Map<String, BigInteger>> flow,
      Optional<Map<String, BigInteger>> quota,
      boolean absent)
      implements Check {}

  public record CheckPending(
      String channelOrClientId,
      String denom,
      Optional<Set<BigInteger>> sendSequences,
      Optional<Set<BigInteger>> recvSequences)
      implements Check {}

  public record CheckEpoch(
      Optional<BigInteger> epochNumber, Optional<Instant> epochStartTime,
      Optional<BigInteger> epochStartHeight)
      implements Check {}

  public record CheckBlacklist(Set<String> denoms) implements Check {}

  public record CheckWhitelist(Set<Pair> pairs) implements Check {}

  public record CheckExport(GenesisState genesis) implements Check {}

  /**
   * {@code check_query}: a query's answer.
   *
   * @param query {@code all_rate_limits}, {@code rate_limits_by_channel}, {@code
   *     rate_limits_by_chain} or {@code remaining_capacity}
   */
  public record CheckQuery(
      String query,
      Optional<String> denom,
      Optional<String> channelOrClientId,
      Optional<String> chainId,
      Optional<QueryExpect> expect)
      implements Check {}

  /** A whitelisted (sender, receiver). */
  public record Pair(String sender, String receiver) {}

  /** A rate limit's path in a query answer. */
  public record PathRef(String denom, String channelOrClientId) {
    @Override
    public String toString() {
      return channelOrClientId + "/" + denom;
    }
  }

  /**
   * A packet as the step gives it; {@code data} is the exact bytes the middleware sees.
   *
   * @param sequence unsigned 64-bit
   * @param timeoutHeight as given, or empty (then none, or for a send the runner's own)
   * @param timeoutTimestamp unsigned 64-bit nanoseconds as given, or empty (likewise)
   */
  public record PacketSpec(
      long sequence,
      String sourcePort,
      String sourceChannel,
      String destinationPort,
      String destinationChannel,
      byte[] data,
      Optional<Height> timeoutHeight,
      Optional<Long> timeoutTimestamp) {
    public PacketSpec {
      data = data.clone();
    }

    @Override
    public byte[] data() {
      return data.clone();
    }

    /** The packet, with the given timeouts where the step gives none. */
    Packet toPacket(Height defaultHeight, long defaultTimestamp) {
      return new Packet(
          sequence,
          sourcePort,
          sourceChannel,
          destinationPort,
          destinationChannel,
          data,
          timeoutHeight.orElse(defaultHeight),
          timeoutTimestamp.orElse(defaultTimestamp));
    }
  }

  /**
   * A step's {@code expect} for actions.
   *
   * @param ack for a recv: {@code success}, {@code error} or {@code async}
   * @param ackBytes for a recv: the exact UTF-8 text of the acknowledgement written
   * @param appCalled for recv, ack, timeout, write_ack: whether the stand-in app was called
   */
  public record Expect(
      Outcome outcome, Optional<String> ack, Optional<String> ackBytes, Optional<Boolean> appCalled) {
    static final Expect NONE =
        new Expect(
            new Outcome(Optional.empty(), Optional.empty()),
            Optional.empty(),
            Optional.empty(),
            Optional.empty());

    boolean isEmpty() {
      return outcome.isEmpty() && ack.isEmpty() && ackBytes.isEmpty() && appCalled.isEmpty();
    }
  }

  /**
   * An event that must be emitted: its type and the attributes listed (others may exist). A value
   * given as a JSON number compares numerically.
   */
  public record EventExpect(String type, Map<String, AttributeValue> attributes) {
    public EventExpect {
      attributes = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(attributes));
    }
  }

  /**
   * An expected attribute value; one given as a JSON number ({@code numeric}) also matches any
   * decimal text of the same number.
   */
  public record AttributeValue(String text, boolean numeric) {}

  /** A query's {@code expect}. */
  public record QueryExpect(
      Outcome outcome,
      Optional<List<PathRef>> paths,
      Optional<DirectionExpect> send,
      Optional<DirectionExpect> recv,
      Optional<Instant> windowResetsAt,
      Optional<BigInteger> secondsUntilReset) {}

  /**
   * One direction of a remaining capacity.
   *
   * @param remaining a number, or empty inside the optional for {@code "unlimited"}
   */
  public record DirectionExpect(
      Optional<BigInteger> threshold,
      Optional<BigInteger> netFlow,
      Optional<Optional<BigInteger>> remaining) {}
}
