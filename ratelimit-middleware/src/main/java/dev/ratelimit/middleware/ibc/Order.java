package dev.ratelimit.middleware.ibc;

/** Channel ordering ({@code ibc.core.channel.v1.Order}); ICS-20 channels are unordered. */
public enum Order {
  UNORDERED,
  ORDERED
}
