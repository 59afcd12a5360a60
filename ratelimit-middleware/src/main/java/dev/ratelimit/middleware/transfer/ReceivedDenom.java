package dev.ratelimit.middleware.transfer;

import java.util.Objects;

/**
 * How a received packet's denom reads on this chain ({@link DenomResolver#recvDenom}).
 *
 * @param source true when this chain is the token's source (the token is coming back and the
 *     sender's hop was stripped), false when it is a sink (this chain's hop was prepended)
 * @param localDenom the denom the bank module holds and a rate limit names: {@code
 *     trace.ibcDenom()}
 * @param trace the local denom trace
 */
public record ReceivedDenom(boolean source, String localDenom, DenomTrace trace) {

  /**
   * @throws NullPointerException if {@code localDenom} or {@code trace} is {@code null}
   */
  public ReceivedDenom {
    Objects.requireNonNull(localDenom, "localDenom");
    Objects.requireNonNull(trace, "trace");
  }
}
