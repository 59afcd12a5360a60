package dev.ratelimit.app.ibc;

import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.model.Sha256;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.middleware.ibc.Packet;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

/**
 * The commitments ibc-go stores for IBC v1 channels, byte for byte, and how a settled packet's
 * commitment is consumed (IBC v1 and v2).
 */
public final class Commitments {
  private Commitments() {}

  /**
   * ibc-go's {@code CommitPacket}: SHA-256 of the timeout timestamp, the timeout revision number
   * and revision height (each 8 bytes big-endian) followed by SHA-256 of the data.
   */
  public static byte[] packet(Packet packet) {
    ByteBuffer b = ByteBuffer.allocate(24 + 32);
    b.putLong(packet.timeoutTimestamp());
    b.putLong(packet.timeoutHeight().revisionNumber());
    b.putLong(packet.timeoutHeight().revisionHeight());
    b.put(Sha256.hash(packet.data()));
    return Sha256.hash(b.array());
  }

  /** ibc-go's {@code CommitAcknowledgement}: SHA-256 of the acknowledgement bytes. */
  public static byte[] acknowledgement(byte[] ack) {
    return Sha256.hash(ack);
  }

  /**
   * Deletes the commitment stored under {@code key} for a packet being acknowledged or timed out,
   * after checking it is {@code expected}; false when there is none (already settled).
   *
   * @throws TxException IBC 6 when the stored commitment is another packet's
   */
  public static boolean consume(KvStore store, byte[] key, byte[] expected, long sequence) {
    Optional<byte[]> stored = store.get(key);
    if (stored.isEmpty()) {
      return false;
    }
    if (!Arrays.equals(stored.get(), expected)) {
      throw new TxException(
          TxException.IBC, 6, "packet " + sequence + " does not match its commitment");
    }
    store.delete(key);
    return true;
  }

  /** A block time as IBC timestamps count it: unsigned nanoseconds since the Unix epoch. */
  public static long nanos(Instant time) {
    return Math.addExact(Math.multiplyExact(time.getEpochSecond(), 1_000_000_000L), time.getNano());
  }
}
