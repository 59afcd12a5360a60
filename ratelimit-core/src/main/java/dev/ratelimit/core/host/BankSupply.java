package dev.ratelimit.core.host;

import java.math.BigInteger;

/** Host port: the bank module's total supply, read when a rate limit window starts. */
@FunctionalInterface
public interface BankSupply {
  /**
   * The total supply of {@code denom} on this chain as {@code ctx} sees it (zero when the denom is
   * unknown): read it from {@code ctx.store()}, so a branch's uncommitted writes count. Must be
   * deterministic for the block being executed.
   */
  BigInteger totalSupply(BlockContext ctx, String denom);
}
