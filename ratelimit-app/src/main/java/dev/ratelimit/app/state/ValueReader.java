package dev.ratelimit.app.state;

import dev.ratelimit.core.store.StorageException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Reads a value written by {@link ValueWriter}, field by field in the same order. A value that
 * ends early or has bytes left over is corrupt ({@link StorageException}).
 */
public final class ValueReader {
  private final ByteBuffer in;

  public ValueReader(byte[] value) {
    this.in = ByteBuffer.wrap(value);
  }

  public String string() {
    return new String(bytes(), StandardCharsets.UTF_8);
  }

  public byte[] bytes() {
    int n = need(4).getInt();
    if (n < 0) {
      throw new StorageException("corrupt value: negative length " + n);
    }
    byte[] b = new byte[n];
    need(n).get(b);
    return b;
  }

  public long u64() {
    return need(8).getLong();
  }

  public BigInteger bigInteger() {
    try {
      return new BigInteger(string());
    } catch (NumberFormatException e) {
      throw new StorageException("corrupt value: not an integer", e);
    }
  }

  public boolean bool() {
    return need(1).get() != 0;
  }

  /** Checks that every byte was read. */
  public void end() {
    if (in.hasRemaining()) {
      throw new StorageException("corrupt value: " + in.remaining() + " trailing bytes");
    }
  }

  private ByteBuffer need(int n) {
    if (in.remaining() < n) {
      throw new StorageException("corrupt value: ends early");
    }
    return in;
  }
}
