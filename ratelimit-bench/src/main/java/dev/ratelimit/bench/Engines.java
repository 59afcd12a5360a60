package dev.ratelimit.bench;

import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.LevelDbKvStore;
import dev.ratelimit.core.store.MemoryKvStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Opens the store engine a benchmark's {@code engine} parameter names, and cleans up after it. */
final class Engines {
  static final String MEMORY = "memory";
  static final String LEVELDB = "leveldb";

  private final KvStore store;
  private final Path dir;

  private Engines(KvStore store, Path dir) {
    this.store = store;
    this.dir = dir;
  }

  /**
   * {@code memory}: a {@link MemoryKvStore}; {@code leveldb}: a {@link LevelDbKvStore} in a fresh
   * temporary directory.
   */
  static Engines open(String engine) {
    switch (engine) {
      case MEMORY:
        return new Engines(new MemoryKvStore(), null);
      case LEVELDB:
        try {
          // a JMH fork is a JVM of its own: like a node's main, it keeps iq80's names in 0-9
          LevelDbKvStore.useDigitsZeroToNineForFormatting();
          Path dir = Files.createTempDirectory("ratelimit-bench-");
          return new Engines(LevelDbKvStore.open(dir.resolve("db")), dir);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      default:
        throw new IllegalArgumentException(
            "engine must be " + MEMORY + " or " + LEVELDB + ", got " + engine);
    }
  }

  KvStore store() {
    return store;
  }

  /** Closes the engine and deletes its directory. */
  void close() {
    if (store instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        throw new IllegalStateException("cannot close " + store, e);
      }
    }
    if (dir != null) {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
