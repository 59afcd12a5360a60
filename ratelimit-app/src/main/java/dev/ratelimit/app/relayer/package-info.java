/**
 * Two chains and a relayer in one process: {@link dev.ratelimit.app.relayer.Coordinator} produces
 * blocks on both chains on one deterministic clock, {@link dev.ratelimit.app.relayer.Relayer}
 * carries packets, acknowledgements and timeouts between them as transactions, and {@link
 * dev.ratelimit.app.relayer.OsmosisStride} sets up the original README's pair (Osmosis {@code
 * channel-326} ↔ Stride {@code channel-5}).
 */
package dev.ratelimit.app.relayer;
