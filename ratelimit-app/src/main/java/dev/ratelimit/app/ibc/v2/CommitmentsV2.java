package dev.ratelimit.app.ibc.v2;

import dev.ratelimit.core.model.Sha256;
import dev.ratelimit.middleware.ibc.v2.Acknowledgement;
import dev.ratelimit.middleware.ibc.v2.Packet;
import dev.ratelimit.middleware.ibc.v2.Payload;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** The commitments ibc-go v10 stores for IBC v2 packets, byte for byte. */
public final class CommitmentsV2 {
  /** The version byte that starts every IBC v2 commitment's preimage. */
  private static final int V2 = 2;

  private CommitmentsV2() {}

  /**
   * ibc-go's v2 {@code CommitPacket}: SHA-256 of {@code 0x02}, SHA-256 of the destination client,
   * SHA-256 of the timeout (8 bytes big-endian) and SHA-256 of the payloads' hashes, each payload
   * hashed as SHA-256 of the SHA-256s of its source port, destination port, version, encoding and
   * value. A fixed-length preimage, so no field can be shifted into another.
   */
  public static byte[] packet(Packet packet) {
    ByteArrayOutputStream payloads = new ByteArrayOutputStream();
    for (Payload p : packet.payloads()) {
      payloads.writeBytes(payload(p));
    }
    ByteArrayOutputStream b = new ByteArrayOutputStream(1 + 3 * 32);
    b.write(V2);
    b.writeBytes(Sha256.hash(utf8(packet.destinationClient())));
    b.writeBytes(Sha256.hash(ByteBuffer.allocate(8).putLong(packet.timeoutTimestamp()).array()));
    b.writeBytes(Sha256.hash(payloads.toByteArray()));
    return Sha256.hash(b.toByteArray());
  }

  /**
   * ibc-go's v2 {@code CommitAcknowledgement}: SHA-256 of {@code 0x02} and the SHA-256 of each
   * application acknowledgement in order.
   */
  public static byte[] acknowledgement(Acknowledgement ack) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(V2);
    for (byte[] appAck : ack.appAcknowledgements()) {
      b.writeBytes(Sha256.hash(appAck));
    }
    return Sha256.hash(b.toByteArray());
  }

  private static byte[] payload(Payload p) {
    ByteArrayOutputStream b = new ByteArrayOutputStream(5 * 32);
    b.writeBytes(Sha256.hash(utf8(p.sourcePort())));
    b.writeBytes(Sha256.hash(utf8(p.destinationPort())));
    b.writeBytes(Sha256.hash(utf8(p.version())));
    b.writeBytes(Sha256.hash(utf8(p.encoding())));
    b.writeBytes(Sha256.hash(p.value()));
    return Sha256.hash(b.toByteArray());
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
