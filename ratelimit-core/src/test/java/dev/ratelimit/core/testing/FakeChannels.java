package dev.ratelimit.core.testing;

import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.IbcChannels;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An {@link IbcChannels} over a mutable map of channel or client ids to counterparty chain ids.
 * An id can also exist with an unresolvable chain, or fail when its chain is asked for (a host
 * whose client state is broken).
 */
public final class FakeChannels implements IbcChannels {
  private final Map<String, Optional<String>> chainIds = new HashMap<>();
  private final Set<String> failing = new HashSet<>();

  /** A channel (on port transfer) or client leading to {@code counterpartyChainId}. */
  public FakeChannels add(String channelOrClientId, String counterpartyChainId) {
    chainIds.put(
        Objects.requireNonNull(channelOrClientId, "channelOrClientId"),
        Optional.of(Objects.requireNonNull(counterpartyChainId, "counterpartyChainId")));
    failing.remove(channelOrClientId);
    return this;
  }

  /** An existing channel or client whose counterparty chain cannot be resolved (empty). */
  public FakeChannels addUnresolvable(String channelOrClientId) {
    chainIds.put(Objects.requireNonNull(channelOrClientId, "channelOrClientId"), Optional.empty());
    failing.remove(channelOrClientId);
    return this;
  }

  /** An existing channel or client whose chain lookup throws (e.g. a corrupt client state). */
  public FakeChannels addFailing(String channelOrClientId) {
    chainIds.put(Objects.requireNonNull(channelOrClientId, "channelOrClientId"), Optional.empty());
    failing.add(channelOrClientId);
    return this;
  }

  public FakeChannels remove(String channelOrClientId) {
    chainIds.remove(channelOrClientId);
    failing.remove(channelOrClientId);
    return this;
  }

  @Override
  public boolean channelOrClientExists(BlockContext ctx, String channelOrClientId) {
    return chainIds.containsKey(channelOrClientId);
  }

  @Override
  public Optional<String> counterpartyChainId(BlockContext ctx, String channelOrClientId) {
    if (failing.contains(channelOrClientId)) {
      throw new IllegalStateException("client state of " + channelOrClientId + " is unreadable");
    }
    return chainIds.getOrDefault(channelOrClientId, Optional.empty());
  }
}
