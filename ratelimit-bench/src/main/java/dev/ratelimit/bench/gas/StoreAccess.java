package dev.ratelimit.bench.gas;

import java.util.Locale;
import java.util.Objects;

/**
 * One access the module made to its store, as the meter saw it: the kind and the sizes of the key
 * and the value (never the bytes themselves).
 *
 * @param keyBytes the key's length; 0 for {@link Kind#SEEK}
 * @param valueBytes the value's length: what a {@link Kind#GET} or {@link Kind#STEP} returned, what
 *     a {@link Kind#PUT} stored; 0 for a miss, a {@link Kind#HAS}, {@link Kind#DELETE} or {@link
 *     Kind#SEEK}
 * @param found for {@link Kind#GET} and {@link Kind#HAS}: whether the key existed; true otherwise
 */
public record StoreAccess(Kind kind, int keyBytes, int valueBytes, boolean found) {

  /** What the module asked of the store. */
  public enum Kind {
    /** A point read ({@code get}). */
    GET,
    /** An existence check ({@code has}). */
    HAS,
    /** A write ({@code put}, or a put inside a {@code write} batch). */
    PUT,
    /** A delete ({@code delete}, or a delete inside a {@code write} batch). */
    DELETE,
    /** Opening a scan (the iterator's first seek). */
    SEEK,
    /** One entry a scan returned. */
    STEP
  }

  public StoreAccess {
    Objects.requireNonNull(kind, "kind");
    if (keyBytes < 0 || valueBytes < 0) {
      throw new IllegalArgumentException(
          "sizes must not be negative, got key " + keyBytes + " value " + valueBytes);
    }
  }

  public static StoreAccess get(int keyBytes, int valueBytes) {
    return new StoreAccess(Kind.GET, keyBytes, valueBytes, true);
  }

  public static StoreAccess getMiss(int keyBytes) {
    return new StoreAccess(Kind.GET, keyBytes, 0, false);
  }

  public static StoreAccess has(int keyBytes, boolean found) {
    return new StoreAccess(Kind.HAS, keyBytes, 0, found);
  }

  public static StoreAccess put(int keyBytes, int valueBytes) {
    return new StoreAccess(Kind.PUT, keyBytes, valueBytes, true);
  }

  public static StoreAccess delete(int keyBytes) {
    return new StoreAccess(Kind.DELETE, keyBytes, 0, true);
  }

  public static StoreAccess seek() {
    return new StoreAccess(Kind.SEEK, 0, 0, true);
  }

  public static StoreAccess step(int keyBytes, int valueBytes) {
    return new StoreAccess(Kind.STEP, keyBytes, valueBytes, true);
  }

  /** Key plus value bytes. */
  public int bytes() {
    return keyBytes + valueBytes;
  }

  /**
   * Compact form used in traces and pinned in tests: {@code get 80+10}, {@code get 80 miss},
   * {@code has 70 miss}, {@code put 88+0}, {@code delete 88}, {@code seek}, {@code step 80+10}.
   */
  @Override
  public String toString() {
    String name = kind.name().toLowerCase(Locale.ROOT);
    return switch (kind) {
      case GET -> name + " " + keyBytes + (found ? "+" + valueBytes : " miss");
      case HAS -> name + " " + keyBytes + (found ? "" : " miss");
      case PUT, STEP -> name + " " + keyBytes + "+" + valueBytes;
      case DELETE -> name + " " + keyBytes;
      case SEEK -> name;
    };
  }
}
