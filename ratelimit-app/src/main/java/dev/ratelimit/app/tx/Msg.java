package dev.ratelimit.app.tx;

/**
 * A message a transaction carries. Messages are immutable records; a block log (a list of blocks,
 * each a list of messages) replays to the same state and app hash on any node.
 *
 * <p>Transactions are not signed in this example: a message's sender field is trusted, as the
 * light clients are (the chain and its counterparty run in one process).
 */
public interface Msg {}
