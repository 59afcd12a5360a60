package dev.ratelimit.bench.gas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.store.KvBranch;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.store.WriteBatch;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeteredKvStoreTest {
  private static final byte[] K = {1, 2, 3};
  private static final byte[] V = {9, 9};

  @Test
  void pointAccesses_areRecordedWithTheirSizes() {
    MeteredKvStore store = new MeteredKvStore(new MemoryKvStore());
    store.put(K, V);
    store.get(K);
    store.get(new byte[] {7});
    store.has(K);
    store.delete(K);
    assertEquals("put 3+2, get 3+2, get 1 miss, has 3, delete 3", store.log().trace());
    assertEquals((2000 + 30 * 5) + (1000 + 3 * 5) + (1000 + 3) + 1000 + 1000,
        store.log().gas(GasSchedule.COSMOS_KV));
  }

  @Test
  void readsServedByABranchOverlay_areChargedLikeAnyOther() {
    MeteredKvStore store = new MeteredKvStore(new MemoryKvStore());
    try (KvBranch branch = store.branch()) {
      branch.put(K, V);
      assertTrue(branch.get(K).isPresent()); // answered by the overlay, still charged
    }
    assertEquals(List.of(StoreAccess.put(3, 2), StoreAccess.get(3, 2)), store.log().accesses());
  }

  @Test
  void nestedBranches_recordEachAccessOnce_andCommitsAreCountedNotCharged() {
    MemoryKvStore engine = new MemoryKvStore();
    engine.put(K, V);
    MeteredKvStore store = new MeteredKvStore(engine);
    try (KvBranch outer = store.branch()) {
      try (KvBranch inner = outer.branch()) {
        inner.get(K); // falls through two branches to the engine
        inner.put(new byte[] {5}, V);
        inner.commit();
      }
      outer.commit();
    }
    assertEquals(List.of(StoreAccess.get(3, 2), StoreAccess.put(1, 2)), store.log().accesses());
    assertEquals(2, store.log().commits());
    assertTrue(engine.get(new byte[] {5}).isPresent());
  }

  @Test
  void scans_chargeOneSeekAndOneStepPerEntry() {
    MemoryKvStore engine = new MemoryKvStore();
    engine.put(new byte[] {1}, V);
    engine.put(new byte[] {2}, new byte[0]);
    MeteredKvStore store = new MeteredKvStore(engine);
    try (KvScan scan = store.scanPrefix(new byte[0])) {
      while (scan.hasNext()) {
        scan.next();
      }
    }
    assertEquals("seek, step 1+2, step 1+0", store.log().trace());
    assertEquals(30 + (30 + 9) + (30 + 3), store.log().gas(GasSchedule.COSMOS_KV));
  }

  @Test
  void writeBatches_areChargedAsTheirPutsAndDeletes() {
    MeteredKvStore store = new MeteredKvStore(new MemoryKvStore());
    store.write(new WriteBatch().put(K, V).delete(new byte[] {4}));
    assertEquals("put 3+2, delete 1", store.log().trace());
  }
}
