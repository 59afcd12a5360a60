package dev.ratelimit.core.store;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The {@link KvStore#branch()} implementation: an overlay of pending puts and deletes over a parent
 * store. Reads consult the overlay, then the parent; {@link #commit()} hands the whole overlay to
 * the parent as one {@link WriteBatch}, so the parent sees all of it or none of it. A branch of a
 * branch commits into its parent branch only. Not thread-safe.
 */
final class CachedBranch implements KvBranch {
  /** Marks a delete in {@link #overlay}; compared by identity, never handed out. */
  private static final byte[] TOMBSTONE = WriteBatch.DELETE;

  private enum State {
    OPEN,
    COMMITTED,
    DISCARDED
  }

  private final KvStore parent;
  // Stored arrays are private copies and are never mutated, so a scan's copy may share them.
  private final TreeMap<byte[], byte[]> overlay = new TreeMap<>(Bytes.ORDER);
  private State state = State.OPEN;

  CachedBranch(KvStore parent) {
    this.parent = Objects.requireNonNull(parent, "parent");
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    checkOpen();
    Bytes.requireKey(key);
    byte[] value = overlay.get(key);
    if (value == TOMBSTONE) {
      return Optional.empty();
    }
    return value != null ? Optional.of(value.clone()) : parent.get(key);
  }

  @Override
  public boolean has(byte[] key) {
    checkOpen();
    Bytes.requireKey(key);
    byte[] value = overlay.get(key);
    if (value != null) {
      return value != TOMBSTONE;
    }
    return parent.has(key);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    checkOpen();
    Bytes.requireKey(key);
    Bytes.requireValue(value);
    overlay.put(key.clone(), value.clone());
  }

  @Override
  public void delete(byte[] key) {
    checkOpen();
    Bytes.requireKey(key);
    // Recorded even if the parent lacks the key: the parent may be another branch's view.
    overlay.put(key.clone(), TOMBSTONE);
  }

  @Override
  public KvScan scan(byte[] fromInclusive, byte[] toExclusive) {
    checkOpen();
    Bytes.checkRange(fromInclusive, toExclusive);
    NavigableMap<byte[], byte[]> range = overlay;
    if (fromInclusive != null && toExclusive != null) {
      range = overlay.subMap(fromInclusive, true, toExclusive, false);
    } else if (fromInclusive != null) {
      range = overlay.tailMap(fromInclusive, true);
    } else if (toExclusive != null) {
      range = overlay.headMap(toExclusive, false);
    }
    // Copy the pairs (TreeMap reuses its entry objects on later writes) so writing during a scan
    // neither throws nor changes what the scan returns.
    List<byte[][]> pending = new ArrayList<>(range.size());
    for (Map.Entry<byte[], byte[]> e : range.entrySet()) {
      pending.add(new byte[][] {e.getKey(), e.getValue()});
    }
    return new MergedScan(parent.scan(fromInclusive, toExclusive), pending.iterator());
  }

  @Override
  public void write(WriteBatch batch) {
    checkOpen();
    Objects.requireNonNull(batch, "batch");
    batch.forEachShared((key, value) -> overlay.put(key, value == null ? TOMBSTONE : value));
  }

  @Override
  public KvBranch branch() {
    checkOpen();
    return new CachedBranch(this);
  }

  /**
   * Applies the overlay to the parent in one {@link KvStore#write}. If that write throws, the
   * branch stays open with its writes, so the caller may retry or discard.
   */
  @Override
  public void commit() {
    checkOpen();
    if (!overlay.isEmpty()) {
      // the overlay's arrays are private and its deletes are batch deletes: handed over as the
      // batch itself, without copies (a committed branch never reads it again)
      parent.write(WriteBatch.ofOwned(overlay));
    }
    state = State.COMMITTED;
  }

  @Override
  public void discard() {
    checkOpen();
    overlay.clear();
    state = State.DISCARDED;
  }

  /** Discards if still open; a no-op after {@link #commit()} or {@link #discard()}. */
  @Override
  public void close() {
    if (state == State.OPEN) {
      discard();
    }
  }

  private void checkOpen() {
    if (state != State.OPEN) {
      throw new IllegalStateException("branch already " + state.name().toLowerCase(Locale.ROOT));
    }
  }

  /**
   * Merges the parent's scan with the overlay's range, both ascending: on equal keys the overlay
   * wins, and a tombstone hides the parent's entry.
   */
  private static final class MergedScan implements KvScan {
    private final KvScan parentScan;
    private final Iterator<byte[][]> pending;
    private KvEntry parentHead;
    private byte[][] pendingHead;
    private KvEntry next;
    private boolean closed;

    MergedScan(KvScan parentScan, Iterator<byte[][]> pending) {
      this.parentScan = parentScan;
      this.pending = pending;
    }

    @Override
    public boolean hasNext() {
      checkScanOpen();
      if (next == null) {
        next = computeNext();
      }
      return next != null;
    }

    @Override
    public KvEntry next() {
      if (!hasNext()) {
        throw new NoSuchElementException("scan exhausted");
      }
      KvEntry result = next;
      next = null;
      return result;
    }

    @Override
    public void close() {
      if (!closed) {
        closed = true;
        parentScan.close();
      }
    }

    private KvEntry computeNext() {
      while (true) {
        if (parentHead == null && parentScan.hasNext()) {
          parentHead = parentScan.next();
        }
        if (pendingHead == null && pending.hasNext()) {
          pendingHead = pending.next();
        }
        if (parentHead == null && pendingHead == null) {
          return null;
        }
        int order;
        if (parentHead == null) {
          order = 1;
        } else if (pendingHead == null) {
          order = -1;
        } else {
          order = Bytes.compare(parentHead.key(), pendingHead[0]);
        }
        if (order < 0) {
          KvEntry result = parentHead;
          parentHead = null;
          return result;
        }
        if (order == 0) {
          parentHead = null; // shadowed by the overlay
        }
        byte[][] own = pendingHead;
        pendingHead = null;
        if (own[1] != TOMBSTONE) {
          return new KvEntry(own[0].clone(), own[1].clone());
        }
      }
    }

    private void checkScanOpen() {
      if (closed) {
        throw new IllegalStateException("scan is closed");
      }
    }
  }
}
