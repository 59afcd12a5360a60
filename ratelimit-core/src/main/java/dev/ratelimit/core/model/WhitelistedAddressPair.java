package dev.ratelimit.core.model;

import java.util.Objects;

/**
 * A (sender, receiver) pair whose transfers skip the quota, in the direction given: exact string
 * match on both addresses. On a receive the sender is counterparty-supplied text, which a
 * compromised counterparty can forge.
 */
public record WhitelistedAddressPair(String sender, String receiver) {
  public WhitelistedAddressPair {
    Objects.requireNonNull(sender, "sender");
    Objects.requireNonNull(receiver, "receiver");
    if (sender.isEmpty()) {
      throw new IllegalArgumentException("sender must not be empty");
    }
    if (receiver.isEmpty()) {
      throw new IllegalArgumentException("receiver must not be empty");
    }
    Texts.requireWellFormed(sender, "sender");
    Texts.requireWellFormed(receiver, "receiver");
  }
}
