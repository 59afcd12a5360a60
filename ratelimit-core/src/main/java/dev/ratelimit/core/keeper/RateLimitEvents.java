package dev.ratelimit.core.keeper;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.model.PacketDirection;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** The module's events (SPEC §6): names and attributes in one place. */
public final class RateLimitEvents {
  public static final String MODULE = "ratelimit";
  public static final String TRANSFER_DENIED = "transfer_denied";
  public static final String INVALID_PACKET = "ratelimit_invalid_packet";
  public static final String CHANNEL_VALUE_KEPT = "ratelimit_channel_value_kept";
  public static final String FLOW_OVERFLOW = "ratelimit_flow_overflow";
  public static final String REASON_RATE_LIMIT_EXCEEDED = "rate_limit_exceeded";
  public static final String REASON_BLACKLISTED_DENOM = "blacklisted_denom";

  private RateLimitEvents() {}

  /** {@code packet_send} or {@code packet_recv}. */
  public static String action(PacketDirection direction) {
    return direction == PacketDirection.SEND ? "packet_send" : "packet_recv";
  }

  /** A quota or blacklist rejection. */
  public static Event transferDenied(
      String reason,
      PacketDirection direction,
      String denom,
      String channelOrClientId,
      BigInteger amount,
      String error) {
    Objects.requireNonNull(reason, "reason");
    return packetEvent(TRANSFER_DENIED, reason, direction, denom, channelOrClientId, amount, error);
  }

  /**
   * A packet refused with code 11: its amount would take the stored inflow or outflow to 2^256.
   * Not a {@code transfer_denied} (SPEC §6 keeps that for quota and blacklist), but the same
   * attributes less the reason, so an operator sees why a receive's error ack was written.
   */
  public static Event flowOverflow(
      PacketDirection direction,
      String denom,
      String channelOrClientId,
      BigInteger amount,
      String error) {
    return packetEvent(FLOW_OVERFLOW, null, direction, denom, channelOrClientId, amount, error);
  }

  private static Event packetEvent(
      String type,
      String reason, // null: none
      PacketDirection direction,
      String denom,
      String channelOrClientId,
      BigInteger amount,
      String error) {
    List<Event.Attribute> attributes = new ArrayList<>(7);
    attributes.add(new Event.Attribute("module", MODULE));
    if (reason != null) {
      attributes.add(new Event.Attribute("reason", reason));
    }
    attributes.add(new Event.Attribute("action", action(direction)));
    attributes.add(new Event.Attribute("denom", denom));
    attributes.add(new Event.Attribute("channel_or_client", channelOrClientId));
    attributes.add(new Event.Attribute("amount", amount.toString()));
    attributes.add(new Event.Attribute("error", error));
    return new Event(type, attributes);
  }

  /** Packet data or an acknowledgement the module could not decode (codes 9, 10, 14). */
  public static Event invalidPacket(String channelOrClientId, ErrorCode code, String error) {
    return Event.of(
        INVALID_PACKET,
        "module", MODULE,
        "channel_or_client", channelOrClientId,
        "code", Integer.toString(code.code()),
        "error", error);
  }

  /** A window started while the denom's supply was zero: the previous channel value is kept. */
  public static Event channelValueKept(
      String denom, String channelOrClientId, BigInteger channelValue) {
    return Event.of(
        CHANNEL_VALUE_KEPT,
        "module", MODULE,
        "denom", denom,
        "channel_or_client", channelOrClientId,
        "channel_value", channelValue.toString());
  }
}
