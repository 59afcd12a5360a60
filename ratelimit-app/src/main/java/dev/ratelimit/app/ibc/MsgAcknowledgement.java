package dev.ratelimit.app.ibc;

import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.ibc.Packet;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A relayer brings a packet's acknowledgement back to the packet's source ({@code
 * MsgAcknowledgement}; proof trusted).
 *
 * @param acknowledgement the acknowledgement bytes as the destination wrote them
 */
public record MsgAcknowledgement(Packet packet, byte[] acknowledgement, String relayer)
    implements Msg {
  public MsgAcknowledgement {
    Objects.requireNonNull(packet, "packet");
    acknowledgement = Objects.requireNonNull(acknowledgement, "acknowledgement").clone();
    Objects.requireNonNull(relayer, "relayer");
  }

  @Override
  public byte[] acknowledgement() {
    return acknowledgement.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MsgAcknowledgement m
        && packet.equals(m.packet)
        && Arrays.equals(acknowledgement, m.acknowledgement)
        && relayer.equals(m.relayer);
  }

  @Override
  public int hashCode() {
    return Objects.hash(packet, relayer) * 31 + Arrays.hashCode(acknowledgement);
  }

  @Override
  public String toString() {
    return "MsgAcknowledgement[packet=" + packet + ", acknowledgement="
        + HexFormat.of().formatHex(acknowledgement) + ", relayer=" + relayer + "]";
  }
}
