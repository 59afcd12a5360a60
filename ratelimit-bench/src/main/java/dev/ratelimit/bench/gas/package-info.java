/**
 * Store cost per packet in Cosmos SDK KV gas: a metering store wrapper ({@link
 * dev.ratelimit.bench.gas.MeteredKvStore}), the SDK's gas schedule ({@link
 * dev.ratelimit.bench.gas.GasSchedule}), the Go module's access pattern for the same packet
 * ({@link dev.ratelimit.bench.gas.GoModuleModel}), layouts priced from first principles ({@link
 * dev.ratelimit.bench.gas.SchemaModel}) and the report ({@link
 * dev.ratelimit.bench.gas.GasReport}, runnable: {@code java -cp ratelimit-bench-*-all.jar
 * dev.ratelimit.bench.gas.GasReport}).
 */
package dev.ratelimit.bench.gas;
