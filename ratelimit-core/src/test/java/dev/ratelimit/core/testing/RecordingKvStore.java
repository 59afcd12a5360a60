package dev.ratelimit.core.testing;

import dev.ratelimit.core.store.Bytes;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.WriteBatch;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Forwards to a store and records every mutating call: {@code put <hex key>}, {@code delete <hex
 * key>}, {@code write <batch>} (the batch's {@code toString}, which names each delete).
 */
public final class RecordingKvStore implements KvStore {
  private final KvStore delegate;
  private final List<String> calls = new ArrayList<>();

  public RecordingKvStore(KvStore delegate) {
    this.delegate = delegate;
  }

  /** The mutating calls so far, in order. */
  public List<String> calls() {
    return calls;
  }

  /** Whether any call deleted a key (directly or in a batch). */
  public boolean deletedAnything() {
    return calls.stream().anyMatch(c -> c.startsWith("delete ") || c.contains(" delete"));
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    return delegate.get(key);
  }

  @Override
  public void put(byte[] key, byte[] value) {
    calls.add("put " + Bytes.hex(key));
    delegate.put(key, value);
  }

  @Override
  public void delete(byte[] key) {
    calls.add("delete " + Bytes.hex(key));
    delegate.delete(key);
  }

  @Override
  public KvScan scan(byte[] fromInclusive, byte[] toExclusive) {
    return delegate.scan(fromInclusive, toExclusive);
  }

  @Override
  public void write(WriteBatch batch) {
    calls.add("write " + batch);
    delegate.write(batch);
  }
}
