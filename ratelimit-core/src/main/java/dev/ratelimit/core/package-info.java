/**
 * The rate-limit module's core: error codes shared by every layer. Sub-packages hold the value
 * types ({@code model}), the storage port and engines ({@code store}), the ports a host chain
 * implements ({@code host}), state and rules ({@code keeper}), the exact quota and window rules
 * ({@code rules}), genesis ({@code genesis}), the query service ({@code query}) and the Dagger
 * wiring ({@code inject}).
 */
package dev.ratelimit.core;
