package dev.ratelimit.core.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The store contract on a {@link PrefixKvStore} view of a shared store whose other modules hold
 * the keys just below, just above and around the prefix: none of them may show through.
 */
class PrefixKvStoreTest extends KvStoreContractTest {
  private static final byte[] PREFIX = {'s', '/'};
  private static final List<String> NEIGHBOURS = List.of("73", "732eff", "7330", "7330ff", "ff");

  private MemoryKvStore shared;

  @Override
  protected KvStore newStore() {
    shared = new MemoryKvStore();
    for (String key : NEIGHBOURS) {
      shared.put(HexFormat.of().parseHex(key), new byte[] {9});
    }
    return new PrefixKvStore(shared, PREFIX);
  }

  @Test
  void keysAreStoredUnderThePrefix_andTheNeighboursStayUntouched() {
    store.put(hex("01"), hex("11"));
    store.write(new WriteBatch().put(hex("ff"), hex("22")).delete(hex("01")).put(hex(""), hex("33")));
    assertEquals(
        List.of("73=09", "732eff=09", "732f=33", "732fff=22", "7330=09", "7330ff=09", "ff=09"),
        dump(shared));
    assertArrayEquals(hex("33"), store.get(new byte[0]).orElseThrow());
  }

  @Test
  void anEmptyPrefix_isRefused() {
    assertEquals("prefix must not be empty",
        assertThrows(IllegalArgumentException.class, () -> new PrefixKvStore(shared, new byte[0]))
            .getMessage());
  }
}
