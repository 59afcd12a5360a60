package dev.ratelimit.core.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.testing.RecordingEventSink;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The host contract every rollback rests on: a branch's writes and events reach its parent only on
 * commit, durable events reach the block at once, and a finished branch refuses further use.
 */
class BlockContextTest {
  private static final Instant T = Instant.parse("2024-01-01T06:30:00Z");
  private static final byte[] K = {1};
  private static final byte[] V = {2};

  private final MemoryKvStore store = new MemoryKvStore();
  private final RecordingEventSink sink = new RecordingEventSink();
  private final BlockContext root = BlockContext.of(7, T, store, sink);

  private static Event event(String type) {
    return Event.of(type, "k", "v");
  }

  private List<String> emitted() {
    return sink.events().stream().map(Event::type).toList();
  }

  @Test
  void root_emitsAtOnce_andCarriesTheHeader() {
    root.emit(event("a"));
    assertEquals(List.of("a"), emitted());
    assertEquals(7, root.height());
    assertEquals(T, root.time());
    assertFalse(root.isBranch());
  }

  @Test
  void branch_passesWritesAndEventsUp_onlyOnCommit_inOrder() {
    BlockContext tx = root.branch();
    BlockContext inner = tx.branch();
    assertTrue(tx.isBranch());
    assertEquals(7, inner.height());
    assertEquals(T, inner.time());
    inner.store().put(K, V);
    inner.emit(event("a"));
    tx.emit(event("b"));
    assertEquals(Optional.empty(), tx.store().get(K));
    assertEquals(List.of(), emitted());

    inner.commit(); // into tx: still not in the block
    assertArrayEquals(V, tx.store().get(K).orElseThrow());
    assertEquals(Optional.empty(), store.get(K));
    assertEquals(List.of(), emitted());

    tx.emit(event("c"));
    tx.commit();
    assertArrayEquals(V, store.get(K).orElseThrow());
    assertEquals(List.of("b", "a", "c"), emitted(), "tx's own, then inner's on its commit, then c");
  }

  @Test
  void discardOrClose_dropsWritesAndEvents_butNotDurableEvents() {
    BlockContext tx = root.branch();
    tx.store().put(K, V);
    tx.emit(event("dropped"));
    tx.emitDurable(event("kept"));
    assertEquals(List.of("kept"), emitted(), "durable: at once, even from a branch");
    tx.discard();
    assertEquals(Optional.empty(), store.get(K));

    try (BlockContext closed = root.branch()) {
      closed.store().put(K, V);
      closed.emit(event("dropped"));
    }
    assertEquals(Optional.empty(), store.get(K));
    assertEquals(List.of("kept"), emitted());
  }

  @Test
  void aFinishedBranch_refusesUse_butDiscardAndCloseAreNoOps() {
    BlockContext tx = root.branch();
    tx.store().put(K, V);
    tx.commit();
    for (Executable use : List.<Executable>of(
        tx::store, tx::commit, tx::branch, () -> tx.emit(event("x")), () -> tx.emitDurable(event("x")))) {
      assertEquals("this branch was already committed or discarded",
          assertThrows(IllegalStateException.class, use).getMessage());
    }
    tx.discard(); // after commit: nothing to drop
    tx.close();
    assertArrayEquals(V, store.get(K).orElseThrow(), "the commit stands");
    assertEquals(List.of(), emitted());

    BlockContext dropped = root.branch();
    dropped.discard();
    assertThrows(IllegalStateException.class, dropped::commit);
  }

  @Test
  void theRoot_isNoBranch_andHeightsAreNotNegative() {
    for (Executable branchOnly : List.<Executable>of(root::commit, root::discard)) {
      assertEquals("commit and discard apply to a branch, not a root context",
          assertThrows(IllegalStateException.class, branchOnly).getMessage());
    }
    root.close(); // a no-op on the root
    root.store().put(K, V);
    assertArrayEquals(V, store.get(K).orElseThrow());

    assertEquals(0, BlockContext.of(0, T, store, sink).height());
    assertEquals("block height must not be negative, got -1",
        assertThrows(IllegalArgumentException.class, () -> BlockContext.of(-1, T, store, sink))
            .getMessage());
  }
}
