/**
 * Ports a host chain implements for the module ({@link dev.ratelimit.core.host.BankSupply},
 * {@link dev.ratelimit.core.host.IbcChannels}) and the per-block context it passes in ({@link
 * dev.ratelimit.core.host.BlockContext}: height, header time, store, events).
 */
package dev.ratelimit.core.host;
