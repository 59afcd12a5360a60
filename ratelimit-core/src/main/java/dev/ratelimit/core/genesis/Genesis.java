package dev.ratelimit.core.genesis;

import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The module's genesis as plain records (the protobuf JSON form is {@link GenesisCodec}'s job).
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
