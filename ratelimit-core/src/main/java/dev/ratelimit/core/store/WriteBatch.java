package dev.ratelimit.core.store;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * A set of puts and deletes to apply to a {@link KvStore} in one atomic {@link KvStore#write}.
 *
 * <p>Operations are kept per key in unsigned key order; a later operation on a key replaces the
 * earlier one ({@code put} then {@code delete} is a delete, {@code delete} then {@code put} is a
 * put). Arrays are copied on the way in and on the way out. Not thread-safe.
 */
public final class WriteBatch {
  /**
   * Marks a delete inside {@link #ops}; compared by identity, never handed out. {@link
   * CachedBranch} marks its deletes with it too, so its overlay can become a batch as it is.
   */
  static final byte[] DELETE = new byte[0];

  private final TreeMap<byte[], byte[]> ops;

  /** An empty batch. */
  public WriteBatch() {
    this(new TreeMap<>(Bytes.ORDER));
  }

  private WriteBatch(TreeMap<byte[], byte[]> ops) {
    this.ops = ops;
  }

  /**
   * A batch over {@code ops} itself, no copy: keys in {@link Bytes#ORDER}, deletes marked with
   * {@link #DELETE}, private arrays nobody mutates; the caller must not touch the map afterwards.
   */
  static WriteBatch ofOwned(TreeMap<byte[], byte[]> ops) {
    return new WriteBatch(ops);
  }

  /**
   * Records {@code key -> value} ({@code value} may be empty), replacing any earlier operation on
   * {@code key}.
   *
   * @throws NullPointerException if {@code key} or {@code value} is {@code null}
   */
  public WriteBatch put(byte[] key, byte[] value) {
    Bytes.requireKey(key);
    Bytes.requireValue(value);
    ops.put(key.clone(), value.clone());
    return this;
  }

  /**
   * Records a delete of {@code key}, replacing any earlier operation on it.
   *
   * @throws NullPointerException if {@code key} is {@code null}
   */
  public WriteBatch delete(byte[] key) {
    Bytes.requireKey(key);
    ops.put(key.clone(), DELETE);
    return this;
  }

  /**
   * {@link #forEach} without copies, for the stores of this package, which keep the arrays and
   * never mutate them (the batch's arrays are its own copies, never handed out otherwise).
   */
  void forEachShared(BiConsumer<byte[], byte[]> action) {
    for (Map.Entry<byte[], byte[]> op : ops.entrySet()) {
      byte[] value = op.getValue();
      action.accept(op.getKey(), value == DELETE ? null : value);
    }
  }

  /** Whether the batch holds no operation. */
  public boolean isEmpty() {
    return ops.isEmpty();
  }

  /** The number of distinct keys touched. */
  public int size() {
    return ops.size();
  }

  /**
   * Calls {@code action} once per key in ascending unsigned order with copies of the key and the
   * value; the value is {@code null} for a delete.
   */
  public void forEach(BiConsumer<byte[], byte[]> action) {
    Objects.requireNonNull(action, "action");
    for (Map.Entry<byte[], byte[]> op : ops.entrySet()) {
      byte[] value = op.getValue();
      action.accept(op.getKey().clone(), value == DELETE ? null : value.clone());
    }
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("WriteBatch[");
    String sep = "";
    for (Map.Entry<byte[], byte[]> op : ops.entrySet()) {
      sb.append(sep).append(Bytes.hex(op.getKey()));
      sb.append(op.getValue() == DELETE ? " delete" : "=" + Bytes.hex(op.getValue()));
      sep = ", ";
    }
    return sb.append(']').toString();
  }
}
