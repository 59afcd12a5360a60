package dev.ratelimit.bench.gas;

import java.util.Objects;

/**
 * A KV gas schedule: what each store access costs. {@link #COSMOS_KV} is the Cosmos SDK's {@code
 * storetypes.KVGasConfig()} as charged by its {@code gaskv} store (SDK v0.47 and later, which
 * charge key bytes as well as value bytes):
 *
 * <ul>
 *   <li>get: {@code ReadCostFlat} 1000 + {@code ReadCostPerByte} 3 × (key + value bytes);
 *   <li>set: {@code WriteCostFlat} 2000 + {@code WriteCostPerByte} 30 × (key + value bytes);
 *   <li>has: {@code HasCost} 1000; delete: {@code DeleteCost} 1000;
 *   <li>iterator: {@code IterNextCostFlat} 30 per step + 3 × (key + value bytes) of each entry.
 *       We charge one flat 30 for opening a scan ({@link StoreAccess.Kind#SEEK}) and 30 + bytes
 *       for each entry it returns ({@link StoreAccess.Kind#STEP}); the SDK's iterator also charges
 *       the first entry's bytes at creation, so this slightly under-counts iteration. No packet
 *       operation iterates, in either module.
 * </ul>
 */
public record GasSchedule(
    long hasCost,
    long deleteCost,
    long readCostFlat,
    long readCostPerByte,
    long writeCostFlat,
    long writeCostPerByte,
    long iterNextCostFlat) {

  /** The Cosmos SDK's KV store gas configuration. */
  public static final GasSchedule COSMOS_KV = new GasSchedule(1000, 1000, 1000, 3, 2000, 30, 30);

  /** The gas of one access. */
  public long gas(StoreAccess a) {
    Objects.requireNonNull(a, "a");
    return switch (a.kind()) {
      case GET -> readCostFlat + readCostPerByte * a.bytes();
      case HAS -> hasCost;
      case PUT -> writeCostFlat + writeCostPerByte * a.bytes();
      case DELETE -> deleteCost;
      case SEEK -> iterNextCostFlat;
      case STEP -> iterNextCostFlat + readCostPerByte * a.bytes();
    };
  }

  /** The gas of a sequence of accesses. */
  public long gas(Iterable<StoreAccess> accesses) {
    long total = 0;
    for (StoreAccess a : accesses) {
      total += gas(a);
    }
    return total;
  }
}
