package dev.ratelimit.core.model;

import java.math.BigInteger;

/**
 * The traffic of the current window: what came in, what went out, and the channel value (the
 * denom's total supply when the window started) that the quota's percentages apply to. Each is an
 * integer in [0, 2^256).
 */
public record Flow(BigInteger inflow, BigInteger outflow, BigInteger channelValue) {
  public Flow {
    Amounts.require(inflow, "inflow");
    Amounts.require(outflow, "outflow");
    Amounts.require(channelValue, "channel_value");
  }

  /** A fresh window: no traffic yet. */
  public static Flow fresh(BigInteger channelValue) {
    return new Flow(BigInteger.ZERO, BigInteger.ZERO, channelValue);
  }

  public Flow withInflow(BigInteger value) {
    return new Flow(value, outflow, channelValue);
  }

  public Flow withOutflow(BigInteger value) {
    return new Flow(inflow, value, channelValue);
  }
}
