package dev.ratelimit.core.store;

import dev.ratelimit.core.model.Sha256;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Objects;

/**
 * A SHA-256 fingerprint of a store's whole content, independent of the engine: two stores holding
 * the same entries have the same digest. Tests use it to prove that a rejected operation left the
 * store unchanged; the example app's hash chain starts from it when it resumes a home written
 * before the chain.
 *
 * <p>The digest is SHA-256 over every entry in ascending unsigned key order, each encoded as a
 * 4-byte big-endian key length, the key, a 4-byte big-endian value length and the value. The
 * lengths make the encoding unambiguous ({@code "ab" -> "c"} differs from {@code "a" -> "bc"}).
 * This encoding is part of such a home's app hash: changing it forks the chain.
 */
public final class StoreDigest {
  private StoreDigest() {}

  /** The 32-byte SHA-256 digest of {@code store}'s content (of the empty input if it is empty). */
  public static byte[] sha256(KvStore store) {
    Objects.requireNonNull(store, "store");
    MessageDigest digest = Sha256.newDigest();
    ByteBuffer length = ByteBuffer.allocate(Integer.BYTES); // big-endian by default
    try (KvScan scan = store.scan(null, null)) {
      while (scan.hasNext()) {
        KvEntry entry = scan.next();
        digest.update(length.clear().putInt(entry.key().length).array());
        digest.update(entry.key());
        digest.update(length.clear().putInt(entry.value().length).array());
        digest.update(entry.value());
      }
    }
    return digest.digest();
  }

  /** {@link #sha256(KvStore)} as 64 lower-case hex digits. */
  public static String hex(KvStore store) {
    return Bytes.hex(sha256(store));
  }
}
