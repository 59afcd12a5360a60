package dev.ratelimit.core.model;

import java.util.Objects;
import java.util.function.Function;

/**
 * A bounded memo of a pure function, for the hashes every packet computes again (a denom trace's
 * {@code ibc/} denom, a path's store key): a chain's traffic moves few denoms over few channels, so
 * most packets find their hash here.
 *
 * <p>Direct-mapped: a key has one slot (by its hash code), and a new key takes the slot over. The
 * function is pure, so what the memo holds never changes a result, only whether it is computed
 * again: no state leaks into the state machine, whatever the order of calls or threads. Slots hold
 * immutable entries, so threads may share a memo without locks (a racing writer only makes another
 * thread compute again).
 *
 * @param <K> the argument; its {@code equals} and {@code hashCode} must be value-based
 * @param <V> the result; shared between callers, so immutable (or copied by the caller)
 */
public final class PureMemo<K, V> {
  /** The slots of {@link #PureMemo(Function)}: far more than the denoms of a chain's traffic. */
  public static final int SLOTS = 256;

  /**
   * The longest text argument worth keeping (callers compute longer ones every time): real denom
   * traces and paths are tens of characters, and the bound keeps a memo full of a peer's longest
   * denoms small.
   */
  public static final int MAX_KEY_CHARS = 256;

  // Safe to share between threads without locks because a slot changes by one reference write
  // of an Entry whose fields are final: a reader sees a whole (key, value) pair or an older one,
  // never one key with another's value (a stress test with two parallel arrays instead found
  // millions). Keep it so: no second array, no mutable or non-final fields.
  private record Entry<K, V>(K key, V value) {}

  private final Function<? super K, ? extends V> function;
  private final Entry<K, V>[] slots;
  private final int mask;

  /** A memo of {@code function} with {@link #SLOTS} slots. */
  public PureMemo(Function<? super K, ? extends V> function) {
    this(SLOTS, function);
  }

  /**
   * A memo of {@code function} with {@code slots} slots.
   *
   * @throws IllegalArgumentException if {@code slots} is not a power of two
   */
  @SuppressWarnings("unchecked")
  public PureMemo(int slots, Function<? super K, ? extends V> function) {
    if (slots <= 0 || Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("slots must be a power of two: " + slots);
    }
    this.function = Objects.requireNonNull(function, "function");
    this.slots = (Entry<K, V>[]) new Entry<?, ?>[slots];
    this.mask = slots - 1;
  }

  /**
   * {@code function.apply(key)}, from the memo when the key's slot holds it.
   *
   * @throws NullPointerException if {@code key} is {@code null} or the function returns {@code
   *     null}
   */
  public V apply(K key) {
    int h = key.hashCode();
    int slot = (h ^ (h >>> 16)) & mask; // the high bits too: String hashes of similar texts
    Entry<K, V> e = slots[slot];
    if (e != null && e.key().equals(key)) {
      return e.value();
    }
    V value = Objects.requireNonNull(function.apply(key), "function result");
    slots[slot] = new Entry<>(key, value);
    return value;
  }
}
