package dev.ratelimit.bench;

import dev.ratelimit.bench.fixture.WrappedBranch;
import dev.ratelimit.core.store.KvBranch;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.WriteBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Records the point accesses (with their bytes) made to a store and to its branches, so the
 * store-floor benchmarks can replay exactly the keys and values the middleware used.
 */
final class RecordingKvStore implements KvStore {

  /** One recorded point access; {@code value} is {@code null} except for puts. */
  record Op(Kind kind, byte[] key, byte[] value) {
    enum Kind {
      GET,
      HAS,
      PUT,
      DELETE
    }

    /** This access with {@code sequence} as the key's last 8 bytes (big-endian). */
    Op withSequence(long sequence) {
      byte[] k = key.clone();
      for (int i = 0; i < Long.BYTES; i++) {
        k[k.length - 1 - i] = (byte) (sequence >>> (8 * i));
      }
      return new Op(kind, k, value);
    }

    /** Performs this access on {@code store}; returns something for the blackhole. */
    Object replay(KvStore store) {
      return switch (kind) {
        case GET -> store.get(key);
        case HAS -> store.has(key);
        case PUT -> {
          store.put(key, value);
          yield key;
        }
        case DELETE -> {
          store.delete(key);
          yield key;
        }
      };
    }
  }

  private final KvStore inner;
  private final List<Op> ops;

  RecordingKvStore(KvStore inner) {
    this(inner, new ArrayList<>());
  }

  private RecordingKvStore(KvStore inner, List<Op> ops) {
    this.inner = inner;
    this.ops = ops;
  }

  /** What was recorded, in order. */
  List<Op> ops() {
    return List.copyOf(ops);
  }

  void clear() {
    ops.clear();
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    ops.add(new Op(Op.Kind.GET, key.clone(), null));
    return inner.get(key);
  }

  @Override
  public boolean has(byte[] key) {
    ops.add(new Op(Op.Kind.HAS, key.clone(), null));
    return inner.has(key);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    ops.add(new Op(Op.Kind.PUT, key.clone(), value.clone()));
    inner.put(key, value);
  }

  @Override
  public void delete(byte[] key) {
    ops.add(new Op(Op.Kind.DELETE, key.clone(), null));
    inner.delete(key);
  }

  @Override
  public KvScan scan(byte[] fromInclusive, byte[] toExclusive) {
    return inner.scan(fromInclusive, toExclusive);
  }

  @Override
  public void write(WriteBatch batch) {
    inner.write(batch);
  }

  @Override
  public KvBranch branch() {
    KvBranch branch = inner.branch();
    return new WrappedBranch(new RecordingKvStore(branch, ops), branch);
  }
}
