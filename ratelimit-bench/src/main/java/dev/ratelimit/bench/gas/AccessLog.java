package dev.ratelimit.bench.gas;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The accesses a {@link MeteredKvStore} (and every branch made from it) saw, in order, plus how
 * many branches were committed. Not thread-safe.
 */
public final class AccessLog {
  private final List<StoreAccess> accesses = new ArrayList<>();
  private int commits;

  /** An empty log. */
  public AccessLog() {}

  void record(StoreAccess access) {
    accesses.add(Objects.requireNonNull(access, "access"));
  }

  void recordCommit() {
    commits++;
  }

  /** Forgets everything recorded so far. */
  public void clear() {
    accesses.clear();
    commits = 0;
  }

  /** The accesses so far, in order (a copy). */
  public List<StoreAccess> accesses() {
    return List.copyOf(accesses);
  }

  /** How many accesses of {@code kind}. */
  public int count(StoreAccess.Kind kind) {
    Objects.requireNonNull(kind, "kind");
    return (int) accesses.stream().filter(a -> a.kind() == kind).count();
  }

  /** Access counts by kind, every kind present (0 when none), in declaration order. */
  public Map<StoreAccess.Kind, Integer> counts() {
    Map<StoreAccess.Kind, Integer> out = new EnumMap<>(StoreAccess.Kind.class);
    for (StoreAccess.Kind k : StoreAccess.Kind.values()) {
      out.put(k, count(k));
    }
    return out;
  }

  /** Key plus value bytes of every access. */
  public long bytes() {
    return accesses.stream().mapToLong(StoreAccess::bytes).sum();
  }

  /** Key plus value bytes of the accesses of {@code kind}. */
  public long bytes(StoreAccess.Kind kind) {
    return accesses.stream().filter(a -> a.kind() == kind).mapToLong(StoreAccess::bytes).sum();
  }

  /** Branch commits (not charged: the SDK charges at the access, not when a cache is written). */
  public int commits() {
    return commits;
  }

  /** The gas of everything recorded. */
  public long gas(GasSchedule schedule) {
    return Objects.requireNonNull(schedule, "schedule").gas(accesses);
  }

  /** The accesses as {@code "has 70 miss, get 80+10, ..."} (see {@link StoreAccess#toString}). */
  public String trace() {
    return accesses.stream().map(StoreAccess::toString).collect(Collectors.joining(", "));
  }

  @Override
  public String toString() {
    return "AccessLog[" + trace() + "; commits=" + commits + "]";
  }
}
