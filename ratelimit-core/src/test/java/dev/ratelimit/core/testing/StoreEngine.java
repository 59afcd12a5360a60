package dev.ratelimit.core.testing;

import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.LevelDbKvStore;
import dev.ratelimit.core.store.MemoryKvStore;
import java.nio.file.Path;

/**
 * The store engines every keeper-level test runs against ({@code @EnumSource(StoreEngine.class)}
 * or {@link StoreEngines#all()}). The caller closes what {@link #open} returns.
 */
public enum StoreEngine {
  MEMORY {
    @Override
    public KvStore open(Path tempDir) {
      return new MemoryKvStore();
    }
  },
  LEVELDB {
    @Override
    public KvStore open(Path tempDir) {
      return LevelDbKvStore.open(tempDir.resolve("leveldb"));
    }
  };

  /** A new, empty store; LevelDB lives in a fresh directory under {@code tempDir}. */
  public abstract KvStore open(Path tempDir);
}
