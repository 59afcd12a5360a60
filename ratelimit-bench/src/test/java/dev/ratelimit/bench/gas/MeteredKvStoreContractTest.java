package dev.ratelimit.bench.gas;

import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.KvStoreContractTest;
import dev.ratelimit.core.store.MemoryKvStore;

/**
 * The metering wrapper is a faithful {@link KvStore}: the gas report and every benchmark run the
 * keeper through it, so a wrapper that changed an answer would measure another module. Also the
 * contract run from outside the store package, as a host with its own engine runs it.
 */
class MeteredKvStoreContractTest extends KvStoreContractTest {
  @Override
  protected KvStore newStore() {
    return new MeteredKvStore(new MemoryKvStore());
  }
}
