package dev.ratelimit.middleware.ibc;

import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * An IBC packet ({@code ibc.core.channel.v1.Packet}, same fields as ibc-go). {@code sequence} and
 * {@code timeoutTimestamp} (nanoseconds since the Unix epoch, 0 = none) are uint64, read as
 * unsigned.
 *
 * <p>The data bytes are copied in and out, so a packet is immutable; {@link #equals}, {@link
 * #hashCode} and {@link #toString} use the data's content. Identifiers are not validated here: core
 * IBC has checked them against the channel before any callback sees the packet.
 *
 * @param data the application data; for ICS-20 the JSON of a {@code FungibleTokenPacketData}
 */
public record Packet(
    long sequence,
    String sourcePort,
    String sourceChannel,
    String destinationPort,
    String destinationChannel,
    byte[] data,
    Height timeoutHeight,
    long timeoutTimestamp) {

  private static final int MAX_SHOWN_DATA_BYTES = 48;

  /**
   * @throws NullPointerException if a port, channel, the data or the timeout height is {@code null}
   */
  public Packet {
    Objects.requireNonNull(sourcePort, "sourcePort");
    Objects.requireNonNull(sourceChannel, "sourceChannel");
    Objects.requireNonNull(destinationPort, "destinationPort");
    Objects.requireNonNull(destinationChannel, "destinationChannel");
    data = Objects.requireNonNull(data, "data").clone();
    Objects.requireNonNull(timeoutHeight, "timeoutHeight");
  }

  /** A copy of the packet data. */
  @Override
  public byte[] data() {
    return data.clone();
  }

  /** The packet data itself, for this package's readers, which never write to it (no copy). */
  byte[] dataForReading() {
    return data;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Packet p
        && sequence == p.sequence
        && timeoutTimestamp == p.timeoutTimestamp
        && sourcePort.equals(p.sourcePort)
        && sourceChannel.equals(p.sourceChannel)
        && destinationPort.equals(p.destinationPort)
        && destinationChannel.equals(p.destinationChannel)
        && timeoutHeight.equals(p.timeoutHeight)
        && Arrays.equals(data, p.data);
  }

  @Override
  public int hashCode() {
    int h =
        Objects.hash(
            sequence,
            sourcePort,
            sourceChannel,
            destinationPort,
            destinationChannel,
            timeoutHeight,
            timeoutTimestamp);
    return 31 * h + Arrays.hashCode(data);
  }

  /** The fields, with the data as its length and (the start of) its base64. */
  @Override
  public String toString() {
    String shown =
        Base64.getEncoder()
            .encodeToString(Arrays.copyOf(data, Math.min(data.length, MAX_SHOWN_DATA_BYTES)));
    return "Packet[sequence="
        + Long.toUnsignedString(sequence)
        + ", sourcePort="
        + sourcePort
        + ", sourceChannel="
        + sourceChannel
        + ", destinationPort="
        + destinationPort
        + ", destinationChannel="
        + destinationChannel
        + ", data=("
        + data.length
        + " bytes) "
        + shown
        + (data.length > MAX_SHOWN_DATA_BYTES ? "..." : "")
        + ", timeoutHeight="
        + timeoutHeight
        + ", timeoutTimestamp="
        + Long.toUnsignedString(timeoutTimestamp)
        + "]";
  }
}
