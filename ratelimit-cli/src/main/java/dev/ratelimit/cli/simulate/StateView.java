package dev.ratelimit.cli.simulate;

import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.RateLimit;
import java.util.Optional;

/** A read-only look at a running scenario's chain, for {@link StepListener}s. */
public interface StateView {

  /** The rate limit on a path right now (empty when none, or the path is invalid). */
  Optional<RateLimit> rateLimit(String denom, String channelOrClientId);

  Optional<HourEpoch> hourEpoch();

  /** The scenario's chain id. */
  String chainId();

  /** The counterparty chain behind a channel or client of the scenario. */
  Optional<String> counterpartyChainId(String channelOrClientId);
}
