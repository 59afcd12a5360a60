package dev.ratelimit.core.genesis;

import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The module's genesis as plain records (the protobuf JSON form is {@link GenesisCodec}'s job).
 * Each record validates itself; this one refuses two rate limits on one path. Duplicate list
 * entries (blacklist, whitelist, pending markers) are merged by InitGenesis.
 *
 * @param hourEpoch the epoch to keep, or empty to initialise it from the genesis block (SPEC §4)
 */
public record Genesis(
    List<RateLimit> rateLimits,
    List<WhitelistedAddressPair> whitelistedAddressPairs,
    List<String> blacklistedDenoms,
    List<PendingPacket> pendingSendPackets,
    List<PendingPacket> pendingRecvPackets,
    Optional<HourEpoch> hourEpoch) {
  public Genesis {
    rateLimits = List.copyOf(rateLimits);
    Set<Path> paths = new HashSet<>();
    for (RateLimit rl : rateLimits) {
      if (!paths.add(rl.path())) { // InitGenesis would keep only the last one
        throw new IllegalArgumentException("duplicate rate limit for " + rl.path());
      }
    }
    whitelistedAddressPairs = List.copyOf(whitelistedAddressPairs);
    blacklistedDenoms = List.copyOf(blacklistedDenoms);
    pendingSendPackets = List.copyOf(pendingSendPackets);
    pendingRecvPackets = List.copyOf(pendingRecvPackets);
    Objects.requireNonNull(hourEpoch, "hourEpoch");
  }

  /** No limits, no lists, an epoch to initialise. */
  public static Genesis empty() {
    return new Genesis(List.of(), List.of(), List.of(), List.of(), List.of(), Optional.empty());
  }
}
