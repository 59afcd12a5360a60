package dev.ratelimit.cli.simulate;

import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One scenario of a file, as parsed (defaults applied, every value checked).
 *
 * @param file the file it came from, as named on the command line
 * @param genesisJson the scenario's {@code genesis} as compact JSON, merged onto the default
 *     genesis when the scenario runs (a genesis that does not parse is rejected by InitGenesis
 *     with code 12, like any invalid genesis)
 * @param expectGenesis what InitGenesis must do
 */
public record Scenario(
    String file,
    String name,
    String chainId,
    String authority,
    Instant startTime,
    long startHeight,
    List<ChannelSpec> channels,
    List<ClientSpec> clients,
    Map<String, BigInteger> supply,
    Optional<String> genesisJson,
    Outcome expectGenesis,
    List<Step> steps) {

  public Scenario {
    channels = List.copyOf(channels);
    clients = List.copyOf(clients);
    supply = Map.copyOf(supply);
    steps = List.copyOf(steps);
  }

  Where where() {
    return Where.file(file).scenario(name);
  }

  /** A channel open on this chain. */
  public record ChannelSpec(
      String channelId,
      String portId,
      String counterpartyChannelId,
      String counterpartyPortId,
      String counterpartyChainId) {}

  /** A light client of another chain. */
  public record ClientSpec(String clientId, String counterpartyChainId) {}
}
