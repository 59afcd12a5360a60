package dev.ratelimit.core.rules;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.Quota;
import java.math.BigInteger;
import java.util.Objects;

/**
 * The quota check and flow arithmetic, exactly (SPEC §2). Pure functions of their arguments,
 * in exact integer math: intermediate values are unbounded, stored values stay below 2^256.
 */
public final class QuotaRules {
  private static final BigInteger HUNDRED = BigInteger.valueOf(100);

  private QuotaRules() {}

  /** {@code floor(channelValue * percent / 100)}. */
  public static BigInteger threshold(BigInteger channelValue, int percent) {
    return channelValue.multiply(BigInteger.valueOf(percent)).divide(HUNDRED);
  }

  /** The percentage that applies to a direction. */
  public static int percent(Quota quota, PacketDirection direction) {
    return direction == PacketDirection.SEND ? quota.maxPercentSend() : quota.maxPercentRecv();
  }

  /** Net flow in a direction: outflow − inflow for a send, inflow − outflow for a receive. */
  public static BigInteger netFlow(Flow flow, PacketDirection direction) {
    return direction == PacketDirection.SEND
        ? flow.outflow().subtract(flow.inflow())
        : flow.inflow().subtract(flow.outflow());
  }

  /**
   * Decides whether {@code amount} may move in {@code direction}: it exceeds iff the channel
   * value is not zero and {@code net + amount > threshold} (landing exactly on the threshold is
   * accepted). When accepted, the returned decision carries the updated flow.
   *
   * @throws RateLimitException {@link ErrorCode#FLOW_OVERFLOW} when an accepted amount would take
   *     the inflow or outflow to 2^256 or beyond
   * @throws IllegalArgumentException when {@code amount} is not in [0, 2^256)
   */
  public static QuotaDecision check(
      PacketDirection direction, Flow flow, Quota quota, BigInteger amount) {
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(flow, "flow");
    Objects.requireNonNull(quota, "quota");
    Amounts.require(amount, "amount");
    int pct = percent(quota, direction);
    BigInteger channelValue = flow.channelValue();
    BigInteger netAfter = netFlow(flow, direction).add(amount);
    if (channelValue.signum() != 0 && exceeds(netAfter, channelValue, pct)) {
      return new QuotaDecision(false, flow, netAfter, pct);
    }
    return new QuotaDecision(true, add(direction, flow, amount), netAfter, pct);
  }

  /**
   * {@code net > floor(cv * pct / 100)}, which for an integer net is {@code 100 * net > cv * pct}:
   * the threshold's division is left to whoever shows it. Two exact shortcuts spare the
   * multiplications in the usual case, a net flow far below the channel value: a net of at most 0
   * never exceeds, and for {@code pct >= 1} neither does a net 8 bits shorter than {@code cv}
   * ({@code 100 * net < 2^(bits(net) + 7) <= 2^(bits(cv) - 1) <= cv <= cv * pct}).
   */
  static boolean exceeds(BigInteger net, BigInteger channelValue, int pct) {
    if (net.signum() <= 0 || (pct > 0 && net.bitLength() + 8 <= channelValue.bitLength())) {
      return false;
    }
    return net.multiply(HUNDRED).compareTo(channelValue.multiply(BigInteger.valueOf(pct))) > 0;
  }

  /** Flows and amounts below this take {@link #addIfWithin}'s {@code long} shortcut. */
  public static final long SHORTCUT_LIMIT = 1L << 62;

  /**
   * {@link #check} for the usual packet, in {@code long} arithmetic and without a decision object:
   * the new inflow (receive) or outflow (send) when {@link #check} accepts the amount, or -1 when
   * it must decide itself (it would reject, or the channel value is 64 to 70 bits wide). Exact:
   * with {@code inflow}, {@code outflow} and {@code amount} below {@link #SHORTCUT_LIMIT}, {@code
   * 100 * net} and {@code channelValue * pct} are compared as 128-bit products.
   *
   * @param channelValueBits the channel value's bit length (0 for 0)
   * @param channelValue the channel value when {@code channelValueBits <= 63}, else ignored
   * @throws IllegalArgumentException if a flow or the amount is negative or not below {@link
   *     #SHORTCUT_LIMIT}, or the percent is not in [0, 100]
   */
  public static long addIfWithin(
      PacketDirection direction,
      long inflow,
      long outflow,
      long amount,
      int channelValueBits,
      long channelValue,
      int pct) {
    if ((inflow | outflow | amount) < 0
        || inflow >= SHORTCUT_LIMIT
        || outflow >= SHORTCUT_LIMIT
        || amount >= SHORTCUT_LIMIT
        || pct < 0
        || pct > 100) {
      throw new IllegalArgumentException("outside the shortcut's range");
    }
    boolean send = direction == PacketDirection.SEND;
    long updated = (send ? outflow : inflow) + amount; // below 2^63
    long net = updated - (send ? inflow : outflow);
    if (channelValueBits == 0 || net <= 0 || (pct > 0 && channelValueBits >= 71)) {
      return updated; // 100 * net < 2^70 <= channel value: never exceeds
    }
    if (channelValueBits > 63) {
      return -1;
    }
    // net > floor(cv * pct / 100) iff 100 * net > cv * pct, each below 2^127
    long netHigh = Math.multiplyHigh(net, 100);
    long cvHigh = Math.multiplyHigh(channelValue, pct);
    boolean exceeds =
        netHigh != cvHigh ? netHigh > cvHigh : Long.compareUnsigned(net * 100, channelValue * pct) > 0;
    return exceeds ? -1 : updated;
  }

  /**
   * Takes back a counted amount (a failed send, an error ack of a receive): the flow of that
   * direction minus {@code amount}, clamped at zero.
   */
  public static Flow undo(PacketDirection direction, Flow flow, BigInteger amount) {
    Amounts.require(amount, "amount");
    if (direction == PacketDirection.SEND) {
      return flow.withOutflow(flow.outflow().subtract(amount).max(BigInteger.ZERO));
    }
    return flow.withInflow(flow.inflow().subtract(amount).max(BigInteger.ZERO));
  }

  private static Flow add(PacketDirection direction, Flow flow, BigInteger amount) {
    BigInteger current = direction == PacketDirection.SEND ? flow.outflow() : flow.inflow();
    BigInteger updated = current.add(amount);
    if (updated.compareTo(Amounts.LIMIT) >= 0) {
      throw new RateLimitException(
          ErrorCode.FLOW_OVERFLOW,
          (direction == PacketDirection.SEND ? "outflow " : "inflow ")
              + current
              + " + "
              + amount
              + " reaches 2^256");
    }
    return direction == PacketDirection.SEND ? flow.withOutflow(updated) : flow.withInflow(updated);
  }
}
