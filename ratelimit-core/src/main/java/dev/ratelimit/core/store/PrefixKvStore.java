package dev.ratelimit.core.store;

import java.util.Arrays;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;

/**
 * A view of one module's keys inside a shared store: every key is stored with a fixed prefix,
 * which the view adds on the way in and strips on the way out. Order and atomicity are the
 * parent's.
 */
public final class PrefixKvStore implements KvStore {
  private final KvStore parent;
  private final byte[] prefix;

  /**
   * @param prefix must not be empty; prefixes of two modules must not be prefixes of each other
   */
  public PrefixKvStore(KvStore parent, byte[] prefix) {
    this.parent = Objects.requireNonNull(parent, "parent");
    Objects.requireNonNull(prefix, "prefix");
    if (prefix.length == 0) {
      throw new IllegalArgumentException("prefix must not be empty");
    }
    this.prefix = prefix.clone();
  }

  private byte[] full(byte[] key) {
    Objects.requireNonNull(key, "key");
    byte[] out = Arrays.copyOf(prefix, prefix.length + key.length);
    System.arraycopy(key, 0, out, prefix.length, key.length);
    return out;
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    return parent.get(full(key));
  }

  @Override
  public boolean has(byte[] key) {
    return parent.has(full(key));
  }

  @Override
  public void put(byte[] key, byte[] value) {
    parent.put(full(key), Objects.requireNonNull(value, "value"));
  }

  @Override
  public void delete(byte[] key) {
    parent.delete(full(key));
  }

  @Override
  public KvScan scan(byte[] fromInclusive, byte[] toExclusive) {
    byte[] from = fromInclusive == null ? prefix.clone() : full(fromInclusive);
    byte[] to = toExclusive == null ? Bytes.prefixEnd(prefix) : full(toExclusive);
    KvScan inner = parent.scan(from, to);
    return new KvScan() {
      @Override
      public boolean hasNext() {
        return inner.hasNext();
      }

      @Override
      public KvEntry next() {
        if (!inner.hasNext()) {
          throw new NoSuchElementException();
        }
        KvEntry e = inner.next();
        return new KvEntry(Arrays.copyOfRange(e.key(), prefix.length, e.key().length), e.value());
      }

      @Override
      public void close() {
        inner.close();
      }
    };
  }

  @Override
  public void write(WriteBatch batch) {
    WriteBatch prefixed = new WriteBatch();
    batch.forEach(
        (k, v) -> {
          if (v == null) {
            prefixed.delete(full(k));
          } else {
            prefixed.put(full(k), v);
          }
        });
    parent.write(prefixed);
  }
}
