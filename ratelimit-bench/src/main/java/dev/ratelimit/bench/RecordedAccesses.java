package dev.ratelimit.bench;

import dev.ratelimit.core.store.KvStore;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The store accesses of a benchmark's operations, recorded from real packets, for a floor to
 * replay: the same keys and values, and nothing else. Each operation is recorded twice; the keys
 * that differ between the two carry the packet sequence (a send's pending marker), and a replay
 * writes its own sequence into them, cycling through the same window of sequences as the
 * operation's packets, so a floor touches as many distinct keys as the operation.
 */
final class RecordedAccesses {
  private final List<List<RecordingKvStore.Op>> ops;
  private final List<boolean[]> sequenced;
  private final int sequenceWindow;
  private long sequence;

  private RecordedAccesses(
      List<List<RecordingKvStore.Op>> ops, List<boolean[]> sequenced, int sequenceWindow) {
    this.ops = ops;
    this.sequenced = sequenced;
    this.sequenceWindow = sequenceWindow;
  }

  /**
   * Records operations {@code 0..count-1}: {@code operation.accept(i)} runs operation {@code i}
   * once on a chain over {@code recording}; it runs twice per operation and must use a different
   * packet sequence the second time. Replays cycle through sequences 1 to {@code sequenceWindow}.
   *
   * @throws IllegalStateException if the two runs of an operation access different kinds of keys
   */
  static RecordedAccesses record(
      RecordingKvStore recording, int count, int sequenceWindow, IntConsumer operation) {
    List<List<RecordingKvStore.Op>> ops = new ArrayList<>(count);
    List<boolean[]> sequenced = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      recording.clear();
      operation.accept(i);
      List<RecordingKvStore.Op> first = recording.ops();
      recording.clear();
      operation.accept(i);
      List<RecordingKvStore.Op> second = recording.ops();
      if (first.size() != second.size()) {
        throw new IllegalStateException(
            "operation " + i + " made " + first.size() + " then " + second.size() + " accesses");
      }
      boolean[] differs = new boolean[first.size()];
      for (int k = 0; k < differs.length; k++) {
        if (first.get(k).kind() != second.get(k).kind()) {
          throw new IllegalStateException("operation " + i + " access " + k + " changed kind");
        }
        differs[k] = !Arrays.equals(first.get(k).key(), second.get(k).key());
      }
      ops.add(first);
      sequenced.add(differs);
    }
    return new RecordedAccesses(ops, sequenced, sequenceWindow);
  }

  /** The accesses of operation {@code i}. */
  List<RecordingKvStore.Op> of(int i) {
    return ops.get(i);
  }

  /**
   * Replays operation {@code i}'s accesses on {@code store}, with the next sequence of the window
   * in its sequenced keys.
   */
  void replayNext(int i, KvStore store, Blackhole bh) {
    sequence = sequence >= sequenceWindow ? 1 : sequence + 1;
    List<RecordingKvStore.Op> accesses = ops.get(i);
    boolean[] withSequence = sequenced.get(i);
    for (int k = 0; k < accesses.size(); k++) {
      RecordingKvStore.Op op = accesses.get(k);
      bh.consume((withSequence[k] ? op.withSequence(sequence) : op).replay(store));
    }
  }
}
