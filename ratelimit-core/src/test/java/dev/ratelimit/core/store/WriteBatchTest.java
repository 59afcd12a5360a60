package dev.ratelimit.core.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class WriteBatchTest {

  private static List<String> ops(WriteBatch batch) {
    List<String> out = new ArrayList<>();
    batch.forEach((k, v) -> out.add(Bytes.hex(k) + (v == null ? " delete" : "=" + Bytes.hex(v))));
    return out;
  }

  private static byte[] hex(String hex) {
    return Bytes.fromHex(hex);
  }

  @Test
  void empty() {
    WriteBatch batch = new WriteBatch();
    assertTrue(batch.isEmpty());
    assertEquals(0, batch.size());
    assertEquals(List.of(), ops(batch));
  }

  @Test
  void forEach_visitsKeysInUnsignedOrder() {
    WriteBatch batch =
        new WriteBatch()
            .put(hex("ff"), hex("01"))
            .delete(hex("80"))
            .put(hex("7f"), new byte[0])
            .put(hex("00"), hex("02"));
    assertFalse(batch.isEmpty());
    assertEquals(4, batch.size());
    assertEquals(List.of("00=02", "7f=", "80 delete", "ff=01"), ops(batch));
  }

  @Test
  void laterOpOnSameKeyReplacesEarlier() {
    WriteBatch batch =
        new WriteBatch()
            .put(hex("01"), hex("11"))
            .delete(hex("01"))
            .delete(hex("02"))
            .put(hex("02"), hex("22"))
            .put(hex("03"), hex("31"))
            .put(hex("03"), hex("32"));
    assertEquals(3, batch.size());
    assertEquals(List.of("01 delete", "02=22", "03=32"), ops(batch));
  }

  @Test
  void arraysAreCopiedInAndOut() {
    byte[] key = hex("01");
    byte[] value = hex("11");
    WriteBatch batch = new WriteBatch().put(key, value);
    key[0] = 9;
    value[0] = 9;
    batch.forEach(
        (k, v) -> {
          k[0] = 7;
          v[0] = 7;
        });
    assertEquals(List.of("01=11"), ops(batch));
  }

  @Test
  void nulls_areRejected() {
    WriteBatch batch = new WriteBatch();
    NullPointerException e =
        assertThrows(NullPointerException.class, () -> batch.put(hex("01"), null));
    assertTrue(e.getMessage().contains("delete"), e.getMessage());
    assertThrows(NullPointerException.class, () -> batch.put(null, hex("01")));
    assertThrows(NullPointerException.class, () -> batch.delete(null));
    assertTrue(batch.isEmpty());
  }
}
