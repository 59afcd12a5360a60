package dev.ratelimit.bench;

import dev.ratelimit.core.host.BlockContext;
import java.util.Objects;

/**
 * The blocks a benchmark's transactions write into, as on a chain: each transaction writes into
 * the current block's branch of the engine, and every {@value #TXS_PER_BLOCK} transactions the
 * block commits to the engine (one write batch) and the next one starts.
 */
final class Blocks {
  static final int TXS_PER_BLOCK = 1000;

  private final BlockContext root;
  private BlockContext current;
  private int txs;

  /** Starts the first block over {@code root}. */
  Blocks(BlockContext root) {
    this.root = Objects.requireNonNull(root, "root");
    this.current = root.branch();
  }

  /** The block in progress. */
  BlockContext current() {
    return current;
  }

  /** Ends a transaction; the {@value #TXS_PER_BLOCK}th commits the block and starts the next. */
  void endTx() {
    if (++txs == TXS_PER_BLOCK) {
      current.commit();
      current = root.branch();
      txs = 0;
    }
  }

  /** Drops the block in progress (a benchmark's tear-down). */
  void discard() {
    current.discard();
  }
}
