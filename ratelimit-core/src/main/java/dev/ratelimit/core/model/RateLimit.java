package dev.ratelimit.core.model;

import java.util.Objects;

/** One rate limit: at most one per (channel or client, denom). */
public record RateLimit(Path path, Quota quota, Flow flow) {
  public RateLimit {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(quota, "quota");
    Objects.requireNonNull(flow, "flow");
  }

  /** This limit with {@code newFlow} in place of its flow. */
  public RateLimit withFlow(Flow newFlow) {
    return new RateLimit(path, quota, newFlow);
  }
}
