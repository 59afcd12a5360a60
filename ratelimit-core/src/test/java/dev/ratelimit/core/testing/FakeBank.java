package dev.ratelimit.core.testing;

import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.BankSupply;
import java.math.BigInteger;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/** A {@link BankSupply} over a mutable map: unknown denoms have supply 0. */
public final class FakeBank implements BankSupply {
  private final Map<String, BigInteger> supplies = new HashMap<>();

  /** Sets the total supply of {@code denom} (0 is allowed: all vouchers went home). */
  public FakeBank set(String denom, BigInteger amount) {
    supplies.put(Objects.requireNonNull(denom, "denom"), Objects.requireNonNull(amount, "amount"));
    return this;
  }

  public FakeBank set(String denom, long amount) {
    return set(denom, BigInteger.valueOf(amount));
  }

  @Override
  public BigInteger totalSupply(BlockContext ctx, String denom) {
    return supplies.getOrDefault(denom, BigInteger.ZERO);
  }
}
