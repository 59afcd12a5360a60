package dev.ratelimit.app.chain;

import dev.ratelimit.app.ibc.ChannelEnd;
import dev.ratelimit.app.ibc.ClientState;
import dev.ratelimit.app.ibc.v2.ClientCounterparty;
import dev.ratelimit.core.genesis.Genesis;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The genesis of the example chain: time, initial balances (minted), IBC clients and channels,
 * the counterparties registered for IBC v2 (none unless the chain speaks it), the rate-limit
 * module's genesis and the governance voting period.
 */
public record AppGenesis(
    Instant genesisTime,
    List<Balance> balances,
    List<ClientState> clients,
    List<ChannelEnd> channels,
    List<ClientCounterparty> counterparties,
    Genesis rateLimits,
    long votingPeriodBlocks) {

  /** An initial balance. */
  public record Balance(String address, String denom, BigInteger amount) {
    public Balance {
      Objects.requireNonNull(address, "address");
      Objects.requireNonNull(denom, "denom");
      Objects.requireNonNull(amount, "amount");
    }
  }

  public AppGenesis {
    Objects.requireNonNull(genesisTime, "genesisTime");
    balances = List.copyOf(balances);
    clients = List.copyOf(clients);
    channels = List.copyOf(channels);
    counterparties = List.copyOf(counterparties);
    Objects.requireNonNull(rateLimits, "rateLimits");
    if (votingPeriodBlocks < 0) {
      throw new IllegalArgumentException("votingPeriodBlocks must not be negative");
    }
  }

  public static Builder builder(Instant genesisTime) {
    return new Builder(genesisTime);
  }

  /** Collects a genesis step by step. */
  public static final class Builder {
    private final Instant genesisTime;
    private final List<Balance> balances = new ArrayList<>();
    private final List<ClientState> clients = new ArrayList<>();
    private final List<ChannelEnd> channels = new ArrayList<>();
    private final List<ClientCounterparty> counterparties = new ArrayList<>();
    private Genesis rateLimits = Genesis.empty();
    private long votingPeriodBlocks;

    private Builder(Instant genesisTime) {
      this.genesisTime = Objects.requireNonNull(genesisTime, "genesisTime");
    }

    public Builder balance(String address, String denom, BigInteger amount) {
      balances.add(new Balance(address, denom, amount));
      return this;
    }

    public Builder balance(String address, String denom, long amount) {
      return balance(address, denom, BigInteger.valueOf(amount));
    }

    public Builder client(ClientState client) {
      clients.add(client);
      return this;
    }

    public Builder channel(ChannelEnd channel) {
      channels.add(channel);
      return this;
    }

    /** Registers an IBC v2 counterparty for one of the genesis clients. */
    public Builder counterparty(ClientCounterparty counterparty) {
      counterparties.add(counterparty);
      return this;
    }

    public Builder rateLimits(Genesis genesis) {
      this.rateLimits = Objects.requireNonNull(genesis, "genesis");
      return this;
    }

    public Builder votingPeriodBlocks(long blocks) {
      this.votingPeriodBlocks = blocks;
      return this;
    }

    public AppGenesis build() {
      return new AppGenesis(
          genesisTime, balances, clients, channels, counterparties, rateLimits,
          votingPeriodBlocks);
    }
  }
}
