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
 * state elsewhere. A scan sees the store as it was when the scan started: it walks the live tree
 * lazily (a scan that reads one entry costs one entry, not the range) and, when the store is
 * written while scans are open, those scans first copy the rest of their range. Not thread-safe.
 */
public final class MemoryKvStore implements KvStore, AutoCloseable {
  // Stored arrays are private copies and are never mutated, so a scan's copy may share them.
  private final TreeMap<byte[], byte[]> map = new TreeMap<>(Bytes.ORDER);
  /** Scans still walking the live tree; a write detaches them first (see detachScans). */
  private final List<TreeScan> liveScans = new ArrayList<>();

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
    detachScans();
    map.put(key.clone(), value.clone());
  }

  @Override
  public void delete(byte[] key) {
    Bytes.requireKey(key);
    detachScans();
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
    TreeScan scan = new TreeScan(range.entrySet().iterator());
    liveScans.add(scan);
    return scan;
  }

  @Override
  public void write(WriteBatch batch) {
    Objects.requireNonNull(batch, "batch");
    detachScans();
    // Nothing can fail half-way in memory, so applying in order is atomic.
    batch.forEachShared(
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

  /** Before a write: open scans copy the rest of their range, so the write cannot reach them. */
  private void detachScans() {
    for (TreeScan scan : liveScans) {
      scan.detach();
    }
    liveScans.clear();
  }

  /**
   * Walks the tree until the store is written, then a copy of the rest of its range (stored
   * arrays are private and never mutated, so the copy shares them). Hands out copies.
   */
  private final class TreeScan implements KvScan {
    private Iterator<Map.Entry<byte[], byte[]>> live;
    private Iterator<KvEntry> detached;
    private boolean closed;

    TreeScan(Iterator<Map.Entry<byte[], byte[]>> live) {
      this.live = live;
    }

    void detach() {
      List<KvEntry> rest = new ArrayList<>();
      // the pairs, not TreeMap's entry objects, which it reuses on later writes
      live.forEachRemaining(e -> rest.add(new KvEntry(e.getKey(), e.getValue())));
      live = null;
      detached = rest.iterator();
    }

    @Override
    public boolean hasNext() {
      checkOpen();
      return live != null ? live.hasNext() : detached.hasNext();
    }

    @Override
    public KvEntry next() {
      checkOpen();
      if (!hasNext()) {
        throw new NoSuchElementException("scan exhausted");
      }
      if (live != null) {
        Map.Entry<byte[], byte[]> e = live.next();
        return new KvEntry(e.getKey().clone(), e.getValue().clone());
      }
      KvEntry e = detached.next();
      return new KvEntry(e.key().clone(), e.value().clone());
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        liveScans.remove(this);
      }
    }

    private void checkOpen() {
      if (closed) {
        throw new IllegalStateException("scan is closed");
      }
    }
  }
}
