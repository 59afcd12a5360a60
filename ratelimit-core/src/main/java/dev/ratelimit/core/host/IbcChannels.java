package dev.ratelimit.core.host;

import java.util.Optional;

/**
 * Host port: what the rate limiter needs to know of IBC core's channels and light clients, as the
 * given context sees them.
 */
public interface IbcChannels {

  /** True iff a channel with this id exists on port {@code transfer}, or a client with this id. */
  boolean channelOrClientExists(BlockContext ctx, String channelOrClientId);

  /**
   * The chain id of the counterparty behind this channel (through its connection and client) or
   * client; empty when it cannot be resolved.
   */
  Optional<String> counterpartyChainId(BlockContext ctx, String channelOrClientId);
}
