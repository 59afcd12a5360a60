package dev.ratelimit.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** A memo never changes a result: only whether the function runs again. */
class PureMemoTest {
  /** A pure function that counts its calls. */
  private static final class Counted implements Function<String, String> {
    final AtomicInteger calls = new AtomicInteger();

    @Override
    public String apply(String s) {
      calls.incrementAndGet();
      return "f(" + s + ")";
    }
  }

  @Test
  void aKeyInItsSlot_isComputedOnce_andItsResultShared() {
    Counted f = new Counted();
    PureMemo<String, String> memo = new PureMemo<>(8, f);
    String first = memo.apply("uatom");
    assertEquals("f(uatom)", first);
    assertSame(first, memo.apply(new String("uatom"))); // equal key, not the same instance
    assertEquals(1, f.calls.get());
  }

  @Test
  void theDefaultMemo_holdsItsSlotsWorthOfKeys() {
    Counted f = new Counted();
    PureMemo<Integer, String> memo = new PureMemo<>(k -> f.apply(String.valueOf(k)));
    for (int round = 0; round < 3; round++) {
      for (int k = 0; k < PureMemo.SLOTS; k++) { // small Integers hash to distinct slots
        assertEquals("f(" + k + ")", memo.apply(k));
      }
    }
    assertEquals(PureMemo.SLOTS, f.calls.get());
  }

  @Test
  void keysSharingASlot_takeItOver_andStillGetTheirOwnResults() {
    Counted f = new Counted();
    PureMemo<String, String> memo = new PureMemo<>(1, f); // one slot: every key collides
    assertEquals("f(a)", memo.apply("a"));
    assertEquals("f(b)", memo.apply("b"));
    assertEquals("f(a)", memo.apply("a"));
    assertEquals(3, f.calls.get());
    assertEquals("f(a)", memo.apply("a"));
    assertEquals(3, f.calls.get());
  }

  @Test
  void seededKeys_alwaysGetTheFunctionsResult() {
    Counted f = new Counted();
    PureMemo<String, String> memo = new PureMemo<>(16, f);
    Random random = new Random(7);
    for (int i = 0; i < 20_000; i++) {
      String key = "k" + random.nextInt(64); // 64 keys over 16 slots: hits, misses, takeovers
      assertEquals("f(" + key + ")", memo.apply(key));
    }
    // at least one hit (fewer calls than lookups), at least one takeover (more calls than keys)
    int calls = f.calls.get();
    assertTrue(calls < 20_000 && calls > 64, "calls: " + calls);
  }

  @Test
  void threadsSharingAMemo_alwaysGetTheFunctionsResult() throws Exception {
    PureMemo<Integer, String> memo = new PureMemo<>(4, k -> "v" + k);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> wrong = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int seed = t;
        wrong.add(
            pool.submit(
                () -> {
                  Random random = new Random(seed);
                  int bad = 0;
                  for (int i = 0; i < 200_000; i++) {
                    int k = random.nextInt(32);
                    if (!memo.apply(k).equals("v" + k)) {
                      bad++;
                    }
                  }
                  return bad;
                }));
      }
      for (Future<Integer> w : wrong) {
        assertEquals(0, w.get());
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void rejects_slotsNotAPowerOfTwo_aNullKey_andANullResult() {
    assertThrows(IllegalArgumentException.class, () -> new PureMemo<String, String>(0, s -> s));
    assertThrows(IllegalArgumentException.class, () -> new PureMemo<String, String>(12, s -> s));
    assertThrows(NullPointerException.class, () -> new PureMemo<String, String>(4, null));
    PureMemo<String, String> memo = new PureMemo<>(4, s -> s.isEmpty() ? null : s);
    assertThrows(NullPointerException.class, () -> memo.apply(null));
    NullPointerException e = assertThrows(NullPointerException.class, () -> memo.apply(""));
    assertEquals("function result", e.getMessage());
  }
}
