package dev.ratelimit.core.keeper;

import dev.ratelimit.core.store.KvEntry;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.KvStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * One table of the {@link Schema}: a one-byte id, a typed key codec (order-preserving) and a
 * value codec.
 */
final class Table<K, V> {

  /** Writes a key's parts after the table id, and reads them back. */
  interface KeyCodec<K> {
    void write(K key, KeyEncoding.Builder out);

    K read(KeyEncoding.Reader in);

    /**
     * The size of {@code key}'s parts, exact for ASCII strings without NUL (see {@link
     * KeyEncoding#stringSize}): the builder starts at that size, so a key is built in one array,
     * handed over without a copy (if it is off, the builder grows or trims). By default a guess.
     */
    default int size(K key) {
      return 127;
    }
  }

  /** Encodes a value. */
  interface ValueCodec<V> {
    byte[] encode(V value);

    V decode(byte[] bytes);
  }

  private final byte id;
  private final String name;
  private final KeyCodec<K> keys;
  private final ValueCodec<V> values;

  Table(int id, String name, KeyCodec<K> keys, ValueCodec<V> values) {
    this.id = (byte) id;
    this.name = name;
    this.keys = keys;
    this.values = values;
  }

  byte id() {
    return id;
  }

  String name() {
    return name;
  }

  ValueCodec<V> values() {
    return values;
  }

  byte[] key(K key) {
    KeyEncoding.Builder b = new KeyEncoding.Builder(id, 1 + keys.size(key));
    keys.write(key, b);
    return b.build();
  }

  /** A key prefix: the table id then the given leading parts (String or Long). */
  byte[] prefix(Object... parts) {
    KeyEncoding.Builder b = new KeyEncoding.Builder(id);
    for (Object part : parts) {
      if (part instanceof String s) {
        b.string(s);
      } else if (part instanceof Long n) {
        b.u64(n);
      } else {
        throw new IllegalArgumentException("key parts are String or Long, got " + part);
      }
    }
    return b.build();
  }

  K decodeKey(byte[] raw) {
    KeyEncoding.Reader r = new KeyEncoding.Reader(raw, id);
    K k = keys.read(r);
    r.end();
    return k;
  }

  Optional<V> get(KvStore store, K key) {
    return store.get(key(key)).map(values::decode);
  }

  boolean has(KvStore store, K key) {
    return store.has(key(key));
  }

  void put(KvStore store, K key, V value) {
    store.put(key(key), values.encode(value));
  }

  void delete(KvStore store, K key) {
    store.delete(key(key));
  }

  /** Every value under {@code prefix}, in key order (for tables whose keys cannot be read back). */
  List<V> valuesUnder(KvStore store, byte[] prefix) {
    return collect(store, prefix, e -> values.decode(e.value()));
  }

  /** Every key under {@code prefix}, in key order. */
  List<K> keys(KvStore store, byte[] prefix) {
    return collect(store, prefix, e -> decodeKey(e.key()));
  }

  void forEach(KvStore store, byte[] prefix, BiConsumer<K, V> action) {
    try (KvScan scan = store.scanPrefix(prefix)) {
      while (scan.hasNext()) {
        KvEntry e = scan.next();
        action.accept(decodeKey(e.key()), values.decode(e.value()));
      }
    }
  }

  /** Deletes every row under {@code prefix}; returns how many. */
  int deleteAll(KvStore store, byte[] prefix) {
    List<byte[]> raw = collect(store, prefix, KvEntry::key);
    raw.forEach(store::delete);
    return raw.size();
  }

  private <T> List<T> collect(KvStore store, byte[] prefix, Function<KvEntry, T> f) {
    List<T> out = new ArrayList<>();
    try (KvScan scan = store.scanPrefix(prefix)) {
      while (scan.hasNext()) {
        out.add(f.apply(scan.next()));
      }
    }
    return out;
  }
}
