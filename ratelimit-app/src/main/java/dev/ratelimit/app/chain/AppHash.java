package dev.ratelimit.app.chain;

import dev.ratelimit.core.model.Sha256;
import dev.ratelimit.core.store.WriteBatch;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Objects;

/**
 * The app hash, a hash chain over the committed write batches: each commit's hash is SHA-256 of
 * the previous one (32 zero bytes before the genesis commit) followed by the batch's operations in
 * ascending unsigned key order, a put as {@code 0x01}, 4-byte big-endian key length, key, 4-byte
 * value length, value, and a delete as {@code 0x00}, key length, key. The hash is stored under
 * {@link #KEY} in the same batch (after hashing it, so it is not part of its own input).
 *
 * <p>Its cost is proportional to the block's writes, not the state (a digest of the whole
 * database made every commit of the example chain scan it). Nodes that start from the same
 * genesis and commit the same blocks hold the same state and the same hash at every height. This
 * encoding is part of the app hash: changing it forks the chain.
 */
final class AppHash {
  /** Where the last commit's hash is stored, written with the commit. */
  static final byte[] KEY = "m/app_hash".getBytes(StandardCharsets.US_ASCII);
  /** The hash before the genesis commit. */
  static final byte[] BEFORE_GENESIS = new byte[32];

  private static final byte PUT = 1;
  private static final byte DELETE = 0;

  private AppHash() {}

  /**
   * The hash after committing {@code batch} on top of {@code previous}.
   *
   * @throws IllegalArgumentException if {@code previous} is not 32 bytes or {@code batch} already
   *     writes {@link #KEY}
   */
  static byte[] next(byte[] previous, WriteBatch batch) {
    Objects.requireNonNull(previous, "previous");
    Objects.requireNonNull(batch, "batch");
    if (previous.length != BEFORE_GENESIS.length) {
      throw new IllegalArgumentException(
          "a previous app hash has 32 bytes, got " + previous.length);
    }
    MessageDigest digest = Sha256.newDigest();
    digest.update(previous);
    ByteBuffer length = ByteBuffer.allocate(Integer.BYTES); // big-endian by default
    batch.forEach(
        (key, value) -> {
          if (Arrays.equals(key, KEY)) {
            throw new IllegalArgumentException("a block must not write the app hash's own key");
          }
          digest.update(value == null ? DELETE : PUT);
          digest.update(length.clear().putInt(key.length).array());
          digest.update(key);
          if (value != null) {
            digest.update(length.clear().putInt(value.length).array());
            digest.update(value);
          }
        });
    return digest.digest();
  }
}
