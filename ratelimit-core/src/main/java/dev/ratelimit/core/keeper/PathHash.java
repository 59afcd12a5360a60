package dev.ratelimit.core.keeper;

import dev.ratelimit.core.model.PureMemo;
import dev.ratelimit.core.model.Sha256;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The 16-byte key of a path's per-packet rows: the first 16 bytes of SHA-256 over the
 * length-prefixed UTF-8 channel_or_client_id and denom ({@code u32 len, bytes, u32 len, bytes},
 * big-endian lengths), so no two paths share an input. Making an unlimited path read a limited
 * path's row needs a second preimage (2^128 work); AddRateLimit refuses a path whose hash another
 * rate limit holds, so a birthday collision between two paths cannot merge two limits either.
 */
final class PathHash {
  static final int LENGTH = 16;

  private PathHash() {}

  /** A path's row and marker keys, packet after packet, hash the same few paths. */
  private static final PureMemo<Input, byte[]> HASHES =
      new PureMemo<>(in -> compute(in.channelOrClientId(), in.denom()));

  private record Input(String channelOrClientId, String denom) {}

  static byte[] of(String channelOrClientId, String denom) {
    return hash(channelOrClientId, denom).clone(); // callers own their copy
  }

  /** {@code tableId} then the path's hash, in one array: a path's row key or marker prefix. */
  static byte[] prefixed(byte tableId, String channelOrClientId, String denom) {
    byte[] key = new byte[1 + LENGTH];
    key[0] = tableId;
    System.arraycopy(hash(channelOrClientId, denom), 0, key, 1, LENGTH);
    return key;
  }

  /** The hash, possibly the memo's own array: never handed out. */
  private static byte[] hash(String channelOrClientId, String denom) {
    return channelOrClientId.length() + denom.length() > PureMemo.MAX_KEY_CHARS
        ? compute(channelOrClientId, denom)
        : HASHES.apply(new Input(channelOrClientId, denom));
  }

  private static byte[] compute(String channelOrClientId, String denom) {
    byte[] c = channelOrClientId.getBytes(StandardCharsets.UTF_8);
    byte[] d = denom.getBytes(StandardCharsets.UTF_8);
    ByteBuffer in = ByteBuffer.allocate(8 + c.length + d.length); // big-endian lengths
    in.putInt(c.length).put(c).putInt(d.length).put(d);
    return Arrays.copyOf(Sha256.hash(in.array()), LENGTH);
  }
}
