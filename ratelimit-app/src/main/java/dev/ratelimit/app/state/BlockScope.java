package dev.ratelimit.app.state;

import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.store.KvStore;
import java.util.Objects;
import javax.inject.Inject;
import javax.inject.Named;
import javax.inject.Singleton;

/**
 * The store of the block in progress, for the host ports whose methods take no context ({@link
 * dev.ratelimit.core.host.BankSupply#totalSupply}, {@link dev.ratelimit.core.host.IbcChannels}).
 *
 * <p>Between {@code beginBlock} and {@code commit} it is the block's branch: every transaction
 * committed so far in the block is visible, but not the writes of a branch still open (the rate
 * limiter reads supply at BeginBlock and in governance proposals at EndBlock, where nothing else is
 * open). Between blocks it is the committed database.
 */
@Singleton
public final class BlockScope {
  /** Name of the committed database binding. */
  public static final String COMMITTED = "app.committed_store";

  private final KvStore committed;
  private BlockContext block;

  @Inject
  public BlockScope(@Named(COMMITTED) KvStore committed) {
    this.committed = Objects.requireNonNull(committed, "committed");
  }

  /** The block's root context until {@link #exit()}. */
  public void enter(BlockContext blockContext) {
    if (block != null) {
      throw new IllegalStateException("a block is already in progress");
    }
    this.block = Objects.requireNonNull(blockContext, "blockContext");
  }

  public void exit() {
    block = null;
  }

  /** The block branch while a block is in progress, else the committed database. */
  public KvStore store() {
    return block != null ? block.store() : committed;
  }
}
