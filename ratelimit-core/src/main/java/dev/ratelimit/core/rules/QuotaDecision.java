package dev.ratelimit.core.rules;

import dev.ratelimit.core.model.Flow;
import java.math.BigInteger;

/**
 * The outcome of a quota check.
 *
 * @param allowed whether the amount fits
 * @param flow the updated flow when allowed, the unchanged flow otherwise
 * @param netFlowAfter the net flow of the checked direction including the amount
 * @param threshold {@code floor(channel_value * percent / 100)}
 * @param percent the quota percentage of the checked direction
 */
public record QuotaDecision(
    boolean allowed, Flow flow, BigInteger netFlowAfter, BigInteger threshold, int percent) {}
