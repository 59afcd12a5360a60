package dev.ratelimit.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The store contract on {@link MemoryKvStore}, plus its own extras. */
class MemoryKvStoreTest extends KvStoreContractTest {

  @Override
  protected KvStore newStore() {
    return new MemoryKvStore();
  }

  @Test
  void size_countsKeys() {
    MemoryKvStore memory = (MemoryKvStore) store;
    putAll("01", "02");
    memory.delete(hex("01"));
    assertEquals(1, memory.size());
  }

  @Test
  void close_isNoOpAndStoreStaysUsable() {
    MemoryKvStore memory = (MemoryKvStore) store;
    putAll("01");
    memory.close();
    putAll("02");
    assertEquals(List.of("01=", "02="), dump(memory));
  }
}
