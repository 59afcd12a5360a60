package dev.ratelimit.core.keeper;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
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

  private static final ThreadLocal<MessageDigest> SHA256 =
      ThreadLocal.withInitial(
          () -> {
            try {
              return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
              throw new IllegalStateException("every Java platform must provide SHA-256", e);
            }
          });

  private PathHash() {}

  static byte[] of(String channelOrClientId, String denom) {
    MessageDigest md = SHA256.get();
    md.reset();
    update(md, channelOrClientId.getBytes(StandardCharsets.UTF_8));
    update(md, denom.getBytes(StandardCharsets.UTF_8));
    return Arrays.copyOf(md.digest(), LENGTH);
  }

  private static void update(MessageDigest md, byte[] part) {
    int n = part.length;
    md.update((byte) (n >>> 24));
    md.update((byte) (n >>> 16));
    md.update((byte) (n >>> 8));
    md.update((byte) n);
    md.update(part);
  }
}
