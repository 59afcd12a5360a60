package dev.ratelimit.core.store;

import java.util.Arrays;
import java.util.Objects;

/** One key-value pair of a scan. */
public record KvEntry(byte[] key, byte[] value) {
  public KvEntry {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(value, "value");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KvEntry e && Arrays.equals(key, e.key) && Arrays.equals(value, e.value);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return Bytes.hex(key) + "=" + Bytes.hex(value);
  }
}
