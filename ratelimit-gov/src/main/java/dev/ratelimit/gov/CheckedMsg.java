package dev.ratelimit.gov;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import java.util.Objects;

/**
 * A governance message that passed the stateless checks of {@link RateLimitMsgHandler} (rules 1-8:
 * signer address, fields, signer is the authority), reduced to what its stateful step needs. The
 * split lets a host check a proposal when it is submitted ({@link MsgRouter#validate}) with the
 * very rules execution applies, and execute it later ({@link #apply}) against the state of then.
 */
sealed interface CheckedMsg {

  /**
   * Rule 9 (the stateful checks) and the write, in {@code ctx}; emits the message's event there.
   *
   * @throws RateLimitException the stateful error (codes 1, 2, 3 or 6); the caller discards {@code
   *     ctx}, which it branched for this message
   */
  void apply(RateLimitKeeper keeper, BlockContext ctx);

  /** A checked {@code MsgAddRateLimit}. */
  record Add(Path path, Quota quota) implements CheckedMsg {
    public Add {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(quota, "quota");
    }

    @Override
    public void apply(RateLimitKeeper keeper, BlockContext ctx) {
      ctx.emit(GovEvents.added(keeper.addRateLimit(ctx, path, quota)));
    }
  }

  /** A checked {@code MsgUpdateRateLimit}. */
  record Update(Path path, Quota quota) implements CheckedMsg {
    public Update {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(quota, "quota");
    }

    @Override
    public void apply(RateLimitKeeper keeper, BlockContext ctx) {
      ctx.emit(GovEvents.updated(keeper.updateRateLimit(ctx, path, quota)));
    }
  }

  /** A checked {@code MsgRemoveRateLimit}. */
  record Remove(Path path) implements CheckedMsg {
    public Remove {
      Objects.requireNonNull(path, "path");
    }

    @Override
    public void apply(RateLimitKeeper keeper, BlockContext ctx) {
      // The keeper's remove is a no-op on an absent path; the message must fail instead.
      if (!keeper.hasRateLimit(ctx, path)) {
        throw new RateLimitException(ErrorCode.RATE_LIMIT_NOT_FOUND, "no rate limit on " + path);
      }
      keeper.removeRateLimit(ctx, path);
      ctx.emit(GovEvents.removed(path));
    }
  }

  /** A checked {@code MsgResetRateLimit}. */
  record Reset(Path path) implements CheckedMsg {
    public Reset {
      Objects.requireNonNull(path, "path");
    }

    @Override
    public void apply(RateLimitKeeper keeper, BlockContext ctx) {
      ctx.emit(GovEvents.reset(keeper.resetRateLimit(ctx, path)));
    }
  }
}
