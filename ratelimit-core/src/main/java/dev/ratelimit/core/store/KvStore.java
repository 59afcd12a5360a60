package dev.ratelimit.core.store;

import java.util.Optional;

/**
 * The storage port: an ordered key-value store whose keys compare as <b>unsigned</b> bytes
 * (LevelDB's order), so fixed-width big-endian numbers and order-preserving string encodings
 * iterate in their logical order.
 *
 * <p>Arrays passed in are not retained after the call returns; arrays returned are the caller's.
 * Keys and values must not be {@code null} ({@link NullPointerException}); an empty value is a
 * value, distinct from absence. Implementations are not thread-safe unless they say so: a chain
 * applies blocks from one thread. An engine of the host's own is checked against this contract
 * by extending {@code KvStoreContractTest} from this module's test jar.
 */
public interface KvStore {

  /** The value under {@code key}, if any. */
  Optional<byte[]> get(byte[] key);

  /** Whether a value exists under {@code key}. */
  default boolean has(byte[] key) {
    return get(key).isPresent();
  }

  /** Stores {@code value} (possibly empty) under {@code key}. */
  void put(byte[] key, byte[] value);

  /** Removes {@code key}; removing an absent key is a no-op. */
  void delete(byte[] key);

  /**
   * Entries with {@code fromInclusive <= key < toExclusive} in ascending unsigned order. A {@code
   * null} bound is unbounded. The scan must be closed. The scan reflects the store as it was when
   * the scan started; writing to the store while it is open is allowed and does not change what it
   * returns.
   *
   * @throws IllegalArgumentException if both bounds are given and {@code fromInclusive} sorts after
   *     {@code toExclusive} (equal bounds give an empty scan), naming both in hex: {@link
   *     Bytes#checkRange}
   */
  KvScan scan(byte[] fromInclusive, byte[] toExclusive);

  /**
   * Entries whose key starts with {@code prefix}, ascending: {@code scan(prefix,
   * Bytes.prefixEnd(prefix))}. An empty or all-{@code 0xff} prefix has no upper bound; an empty
   * prefix scans everything.
   */
  default KvScan scanPrefix(byte[] prefix) {
    return scan(prefix, Bytes.prefixEnd(prefix));
  }

  /**
   * A branch (cache) over this store: it reads through to this store and keeps its own writes until
   * {@link KvBranch#commit()} applies them here in one atomic {@link #write(WriteBatch)}. Branches
   * nest. This store must not be written while a branch of it is open.
   */
  default KvBranch branch() {
    return new CachedBranch(this);
  }

  /**
   * Applies every put and delete of {@code batch} atomically (all or nothing).
   *
   * @throws StorageException if the engine fails; then nothing of the batch was applied
   */
  void write(WriteBatch batch);
}
