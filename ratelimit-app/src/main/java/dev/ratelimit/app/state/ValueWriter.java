package dev.ratelimit.app.state;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Writes a store value: a fixed sequence of fields, each self-delimiting (strings and byte arrays
 * with a 4-byte big-endian length, numbers 8 bytes big-endian, big integers as decimal strings).
 * Deterministic: the same fields always give the same bytes, which the app hash depends on.
 */
public final class ValueWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream(64);

  public ValueWriter string(String value) {
    return bytes(Objects.requireNonNull(value, "value").getBytes(StandardCharsets.UTF_8));
  }

  public ValueWriter bytes(byte[] value) {
    int n = value.length;
    out.write(n >>> 24);
    out.write(n >>> 16);
    out.write(n >>> 8);
    out.write(n);
    out.writeBytes(value);
    return this;
  }

  public ValueWriter u64(long value) {
    for (int shift = 56; shift >= 0; shift -= 8) {
      out.write((int) (value >>> shift));
    }
    return this;
  }

  public ValueWriter bigInteger(BigInteger value) {
    return string(value.toString());
  }

  public ValueWriter bool(boolean value) {
    out.write(value ? 1 : 0);
    return this;
  }

  public byte[] build() {
    return out.toByteArray();
  }
}
