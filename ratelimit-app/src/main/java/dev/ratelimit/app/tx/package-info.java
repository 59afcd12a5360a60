/**
 * Transactions of the example chain: the {@link dev.ratelimit.app.tx.Msg} marker every message
 * implements and the coded {@link dev.ratelimit.app.tx.TxException} a failing message throws (its
 * transaction is then rolled back whole).
 */
package dev.ratelimit.app.tx;
