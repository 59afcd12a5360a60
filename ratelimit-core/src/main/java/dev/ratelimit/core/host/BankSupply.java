package dev.ratelimit.core.host;

import java.math.BigInteger;

/** Host port: the bank module's total supply, read when a rate limit window starts. */
@FunctionalInterface
public interface BankSupply {
  /**
   * The total supply of {@code denom} on this chain (zero when the denom is unknown). Must be
   * deterministic for the block being executed.
   */
  BigInteger totalSupply(String denom);
}
