package dev.ratelimit.core.store;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An in-memory {@link KvStore} in LevelDB's unsigned key order, for tests and for chains that keep
 * state elsewhere. A scan iterates over a copy of the requested range taken when the scan starts,
 * so writing to the store during a scan is allowed and does not affect the scan. Not thread-safe.
 */
public final class MemoryKvStore implements KvStore, AutoCloseable {
  // Stored arrays are private copies and are never mutated, so a scan's copy may share them.
  private final TreeMap<byte[], byte[]> map = new TreeMap<>(Bytes.ORDER);

  /** An empty store. */
  public MemoryKvStore() {}

  @Override
  public Optional<byte[]> get(byte[] key) {
    Bytes.requireKey(key);
    byte[] value = map.get(key);
    return value == null ? Optional.empty() : Optional.of(value.clone());
  }

  @Override
  public boolean has(byte[] key) {
    Bytes.requireKey(key);
    return map.containsKey(key);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    Bytes.requireKey(key);
    Bytes.requireValue(value);
    map.put(key.clone(), value.clone());
  }

  @Override
  public void delete(byte[] key) {
    Bytes.requireKey(key);
    map.remove(key);
  }

  @Override
  public KvScan scan(byte[] fromInclusive, byte[] toExclusive) {
    Bytes.checkRange(fromInclusive, toExclusive);
    NavigableMap<byte[], byte[]> range = map;
    if (fromInclusive != null && toExclusive != null) {
      range = map.subMap(fromInclusive, true, toExclusive, false);
    } else if (fromInclusive != null) {
      range = map.tailMap(fromInclusive, true);
    } else if (toExclusive != null) {
      range = map.headMap(toExclusive, false);
    }
    // Copy the pairs, not the TreeMap's entry objects: TreeMap reuses those on later writes.
    List<KvEntry> snapshot = new ArrayList<>(range.size());
    for (Map.Entry<byte[], byte[]> e : range.entrySet()) {
      snapshot.add(new KvEntry(e.getKey(), e.getValue()));
    }
    return new ListScan(snapshot.iterator());
  }

  @Override
  public void write(WriteBatch batch) {
    Objects.requireNonNull(batch, "batch");
    // Nothing can fail half-way in memory, so applying in order is atomic.
    batch.forEach(
        (key, value) -> {
          if (value == null) {
            map.remove(key);
          } else {
            map.put(key, value);
          }
        });
  }

  /** The number of keys held. */
  public int size() {
    return map.size();
  }

  /** Does nothing: there is nothing to release. The store stays usable. */
  @Override
  public void close() {}

  /** Hands out copies of a pre-taken list of entries. */
  private static final class ListScan implements KvScan {
    private final Iterator<KvEntry> entries;
    private boolean closed;

    ListScan(Iterator<KvEntry> entries) {
      this.entries = entries;
    }

    @Override
    public boolean hasNext() {
      checkOpen();
      return entries.hasNext();
    }

    @Override
    public KvEntry next() {
      checkOpen();
      if (!entries.hasNext()) {
        throw new NoSuchElementException("scan exhausted");
      }
      KvEntry e = entries.next();
      return new KvEntry(e.key().clone(), e.value().clone());
    }

    @Override
    public void close() {
      closed = true;
    }

    private void checkOpen() {
      if (closed) {
        throw new IllegalStateException("scan is closed");
      }
    }
  }
}
