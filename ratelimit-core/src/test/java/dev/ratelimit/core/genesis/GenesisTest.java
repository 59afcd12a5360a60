package dev.ratelimit.core.genesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A genesis built in Java holds what the codec would let through: one limit per path. */
class GenesisTest {
  private static RateLimit limit(String denom, String channel, int pct) {
    return new RateLimit(
        new Path(denom, channel),
        new Quota(pct, pct, 24),
        new Flow(BigInteger.ZERO, BigInteger.ZERO, BigInteger.TEN));
  }

  private static Genesis of(RateLimit... limits) {
    return new Genesis(List.of(limits), List.of(), List.of(), List.of(), List.of(), Optional.empty());
  }

  @Test
  void twoLimitsOnOnePath_areRefused_evenWithDifferentQuotas() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> of(limit("uatom", "channel-1", 10), limit("uatom", "channel-1", 20)));
    assertEquals("duplicate rate limit for " + new Path("uatom", "channel-1"), e.getMessage());
  }

  @Test
  void limitsOnPathsThatShareADenomOrAChannel_areKeptInTheirOrder() {
    List<RateLimit> limits =
        List.of(
            limit("uatom", "channel-1", 10),
            limit("uatom", "channel-11", 10),
            limit("ustrd", "channel-1", 10));
    assertEquals(limits, of(limits.toArray(RateLimit[]::new)).rateLimits());
  }
}
