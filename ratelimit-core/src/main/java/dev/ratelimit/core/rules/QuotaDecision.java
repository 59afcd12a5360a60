package dev.ratelimit.core.rules;

import dev.ratelimit.core.model.Flow;
import java.math.BigInteger;

/**
 * The outcome of a quota check.
 *
 * @param allowed whether the amount fits
 * @param flow the updated flow when allowed, the unchanged flow otherwise
 * @param netFlowAfter the net flow of the checked direction including the amount
 * @param percent the quota percentage of the checked direction
 */
public record QuotaDecision(boolean allowed, Flow flow, BigInteger netFlowAfter, int percent) {

  /**
   * {@code floor(channel_value * percent / 100)}: derived when asked (an error message, a query),
   * not on every packet.
   */
  public BigInteger threshold() {
    return QuotaRules.threshold(flow.channelValue(), percent);
  }
}
