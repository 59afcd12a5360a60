/**
 * Pure rules of the module: the quota check with its flow arithmetic and the hour-epoch / window
 * arithmetic. No state, no I/O; table-tested exhaustively.
 */
package dev.ratelimit.core.rules;
