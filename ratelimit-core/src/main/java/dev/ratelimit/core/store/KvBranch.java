package dev.ratelimit.core.store;

/**
 * A branch of a {@link KvStore}: writes stay here until {@link #commit()}; {@link #discard()} drops
 * them and leaves the parent untouched. After either call the branch must not be used.
 */
public interface KvBranch extends KvStore, AutoCloseable {

  /** Applies this branch's writes to its parent atomically. */
  void commit();

  /** Drops this branch's writes. */
  void discard();

  /** Discards unless already committed, so try-with-resources rolls back on an exception. */
  @Override
  void close();
}
