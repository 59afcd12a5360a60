package dev.ratelimit.core.store;

import java.util.Iterator;

/** An ordered scan over a {@link KvStore}; holds engine resources until closed. */
public interface KvScan extends Iterator<KvEntry>, AutoCloseable {
  @Override
  void close();
}
