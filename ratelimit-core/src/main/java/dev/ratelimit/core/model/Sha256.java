package dev.ratelimit.core.model;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * SHA-256 on the hot path: one digest instance per thread instead of a provider lookup per call
 * (denom traces and store keys are hashed on every packet).
 */
public final class Sha256 {
  private static final ThreadLocal<MessageDigest> DIGEST =
      ThreadLocal.withInitial(Sha256::newDigest);

  private Sha256() {}

  /** A fresh SHA-256 digest, for a caller that feeds it in parts (a store, a write batch). */
  public static MessageDigest newDigest() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
  }

  /**
   * The 32-byte SHA-256 of {@code data}.
   *
   * @throws NullPointerException if {@code data} is {@code null}
   */
  public static byte[] hash(byte[] data) {
    // digest(data) resets the digest when it completes, and a null input fails before the digest
    // reads it; the reset first also covers an Error (a stack overflow) thrown half way through
    // an earlier call on this thread, which would leave its bytes in the next hash
    MessageDigest d = DIGEST.get();
    d.reset();
    return d.digest(data);
  }
}
