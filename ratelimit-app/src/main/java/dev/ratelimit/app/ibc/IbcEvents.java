package dev.ratelimit.app.ibc;

import dev.ratelimit.core.host.Event;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The packet events IBC core emits, with ibc-go's names and attributes, and how a relayer reads a
 * packet (and an acknowledgement) back from them.
 */
public final class IbcEvents {
  public static final String SEND_PACKET = "send_packet";
  public static final String RECV_PACKET = "recv_packet";
  public static final String WRITE_ACKNOWLEDGEMENT = "write_acknowledgement";
  public static final String ACKNOWLEDGE_PACKET = "acknowledge_packet";
  public static final String TIMEOUT_PACKET = "timeout_packet";

  private static final HexFormat HEX = HexFormat.of();

  private IbcEvents() {}

  static Event packetEvent(String type, Packet p, String ordering, byte[] ack) {
    List<Event.Attribute> attrs = new ArrayList<>();
    attrs.add(new Event.Attribute("packet_data_hex", HEX.formatHex(p.data())));
    attrs.add(new Event.Attribute("packet_timeout_height", p.timeoutHeight().toString()));
    attrs.add(
        new Event.Attribute(
            "packet_timeout_timestamp", Long.toUnsignedString(p.timeoutTimestamp())));
    attrs.add(new Event.Attribute("packet_sequence", Long.toUnsignedString(p.sequence())));
    attrs.add(new Event.Attribute("packet_src_port", p.sourcePort()));
    attrs.add(new Event.Attribute("packet_src_channel", p.sourceChannel()));
    attrs.add(new Event.Attribute("packet_dst_port", p.destinationPort()));
    attrs.add(new Event.Attribute("packet_dst_channel", p.destinationChannel()));
    attrs.add(new Event.Attribute("packet_channel_ordering", ordering));
    if (ack != null) {
      attrs.add(new Event.Attribute("packet_ack_hex", HEX.formatHex(ack)));
    }
    return new Event(type, attrs);
  }

  /**
   * The packet an IBC packet event describes.
   *
   * @throws IllegalArgumentException if the event lacks a packet attribute
   */
  public static Packet packetOf(Event e) {
    String[] height = attr(e, "packet_timeout_height").split("-", 2);
    return new Packet(
        Long.parseUnsignedLong(attr(e, "packet_sequence")),
        attr(e, "packet_src_port"),
        attr(e, "packet_src_channel"),
        attr(e, "packet_dst_port"),
        attr(e, "packet_dst_channel"),
        HEX.parseHex(attr(e, "packet_data_hex")),
        new Height(Long.parseUnsignedLong(height[0]), Long.parseUnsignedLong(height[1])),
        Long.parseUnsignedLong(attr(e, "packet_timeout_timestamp")));
  }

  /** The acknowledgement bytes of a {@code write_acknowledgement} event. */
  public static Optional<byte[]> acknowledgementOf(Event e) {
    return e.attribute("packet_ack_hex").map(HEX::parseHex);
  }

  private static String attr(Event e, String key) {
    return e.attribute(key)
        .orElseThrow(() -> new IllegalArgumentException(e.type() + " event has no " + key));
  }
}
