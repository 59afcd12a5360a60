package dev.ratelimit.bench.gas;

import dev.ratelimit.bench.fixture.WrappedBranch;
import dev.ratelimit.core.store.KvBranch;
import dev.ratelimit.core.store.KvEntry;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.WriteBatch;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link KvStore} that records every access made to it in an {@link AccessLog}, then forwards
 * it unchanged to the store it wraps.
 *
 * <p>The Cosmos SDK charges gas at its {@code gaskv} layer, which sits <i>above</i> the
 * transaction's cache: every access the module makes is charged, whether the cache answers it or
 * the database does, and writing the cache back on commit is free. This wrapper meters the same
 * way: {@link #branch()} returns a metered branch (sharing the log) over the wrapped store's
 * branch, so the middleware's per-packet branches, and branches of those, are metered at the
 * point where the keeper uses them. Each access is recorded exactly once: the inner branch's
 * reads that fall through to its parent go to the <i>unwrapped</i> parent. Commits are counted,
 * not charged. Not thread-safe.
 */
public final class MeteredKvStore implements KvStore {
  private final KvStore inner;
  private final AccessLog log;

  /** Meters {@code inner} into a new log. */
  public MeteredKvStore(KvStore inner) {
    this(inner, new AccessLog());
  }

  /** Meters {@code inner} into {@code log}. */
  public MeteredKvStore(KvStore inner, AccessLog log) {
    this.inner = Objects.requireNonNull(inner, "inner");
    this.log = Objects.requireNonNull(log, "log");
  }

  /** The log this store and its branches record into. */
  public AccessLog log() {
    return log;
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    Optional<byte[]> value = inner.get(key);
    log.record(
        value.isPresent()
            ? StoreAccess.get(key.length, value.get().length)
            : StoreAccess.getMiss(key.length));
    return value;
  }

  @Override
  public boolean has(byte[] key) {
    boolean found = inner.has(key);
    log.record(StoreAccess.has(key.length, found));
    return found;
  }

  @Override
  public void put(byte[] key, byte[] value) {
    inner.put(key, value);
    log.record(StoreAccess.put(key.length, value.length));
  }

  @Override
  public void delete(byte[] key) {
    inner.delete(key);
    log.record(StoreAccess.delete(key.length));
  }

  @Override
  public KvScan scan(byte[] fromInclusive, byte[] toExclusive) {
    KvScan scan = inner.scan(fromInclusive, toExclusive);
    log.record(StoreAccess.seek());
    return new MeteredScan(scan, log);
  }

  /** Charges each put and delete of the batch like the single call. */
  @Override
  public void write(WriteBatch batch) {
    inner.write(batch);
    batch.forEach(
        (key, value) ->
            log.record(
                value == null
                    ? StoreAccess.delete(key.length)
                    : StoreAccess.put(key.length, value.length)));
  }

  /**
   * A metered branch over the wrapped store's branch, recording into the same log; its commits
   * are counted.
   */
  @Override
  public KvBranch branch() {
    KvBranch branch = inner.branch();
    return new WrappedBranch(new MeteredKvStore(branch, log), branch) {
      @Override
      protected void afterCommit() {
        log.recordCommit();
      }
    };
  }

  /** Records each entry a scan returns. */
  private static final class MeteredScan implements KvScan {
    private final KvScan scan;
    private final AccessLog log;

    MeteredScan(KvScan scan, AccessLog log) {
      this.scan = scan;
      this.log = log;
    }

    @Override
    public boolean hasNext() {
      return scan.hasNext();
    }

    @Override
    public KvEntry next() {
      KvEntry e = scan.next();
      log.record(StoreAccess.step(e.key().length, e.value().length));
      return e;
    }

    @Override
    public void close() {
      scan.close();
    }
  }
}
