package dev.ratelimit.core.host;

import dev.ratelimit.core.store.KvBranch;
import dev.ratelimit.core.store.KvStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What one block gives the module: header height and time, the module's store and an event sink.
 * Time comes from the block header only; nothing here reads a clock.
 *
 * <p>{@link #branch()} gives a child context over a store branch whose writes and events reach the
 * parent only on {@link #commit()}; {@link #discard()} (or {@link #close()} without commit) drops
 * both. Every state transition that may fail runs in a branch, so a rejection changes nothing.
 */
public final class BlockContext implements AutoCloseable {
  private final long height;
  private final Instant time;
  private final KvStore store;
  private final EventSink sink;
  private final BlockContext parent;
  /** A branch's events until commit; made on the first one (most branches emit none). */
  private List<Event> buffered;
  private boolean closed;

  private BlockContext(
      long height, Instant time, KvStore store, EventSink sink, BlockContext parent) {
    this.height = height;
    this.time = time;
    this.store = store;
    this.sink = sink;
    this.parent = parent;
  }

  /**
   * The root context of a block.
   *
   * @throws IllegalArgumentException if {@code height} is negative
   */
  public static BlockContext of(long height, Instant time, KvStore store, EventSink events) {
    if (height < 0) {
      throw new IllegalArgumentException("block height must not be negative, got " + height);
    }
    return new BlockContext(
        height,
        Objects.requireNonNull(time, "time"),
        Objects.requireNonNull(store, "store"),
        Objects.requireNonNull(events, "events"),
        null);
  }

  public long height() {
    return height;
  }

  public Instant time() {
    return time;
  }

  public KvStore store() {
    checkOpen();
    return store;
  }

  /** Emits an event: at once on a root context, on commit on a branch. */
  public void emit(Event event) {
    checkOpen();
    Objects.requireNonNull(event, "event");
    if (parent == null) {
      sink.emit(event);
    } else {
      if (buffered == null) {
        buffered = new ArrayList<>();
      }
      buffered.add(event);
    }
  }

  /**
   * Emits an event that survives a discarded branch: it goes straight to the block's sink. For
   * rejections ({@code transfer_denied}) whose state changes are rolled back but whose reason
   * must still be visible to relayers and indexers.
   */
  public void emitDurable(Event event) {
    checkOpen();
    Objects.requireNonNull(event, "event");
    sink.emit(event);
  }

  /** A child context over a branch of this context's store. */
  public BlockContext branch() {
    checkOpen();
    return new BlockContext(height, time, store.branch(), sink, this);
  }

  /** True for a context made by {@link #branch()}. */
  public boolean isBranch() {
    return parent != null;
  }

  /**
   * Applies this branch's writes and events to its parent.
   *
   * @throws IllegalStateException on a root context or a closed branch
   */
  public void commit() {
    requireBranch();
    checkOpen();
    ((KvBranch) store).commit();
    closed = true;
    if (buffered != null) {
      for (Event e : buffered) {
        parent.emit(e);
      }
      buffered = null;
    }
  }

  /** Drops this branch's writes and events; a no-op once committed or discarded. */
  public void discard() {
    requireBranch();
    if (!closed) {
      ((KvBranch) store).discard();
      buffered = null;
      closed = true;
    }
  }

  /** Discards a branch that was not committed; a no-op on a root context. */
  @Override
  public void close() {
    if (parent != null) {
      discard();
    }
  }

  private void requireBranch() {
    if (parent == null) {
      throw new IllegalStateException("commit and discard apply to a branch, not a root context");
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("this branch was already committed or discarded");
    }
  }
}
