package dev.ratelimit.cli;

import dev.ratelimit.app.chain.NodeConfig;
import dev.ratelimit.cli.query.HomeException;
import dev.ratelimit.cli.query.HomeSnapshot;
import dev.ratelimit.cli.query.Output;
import dev.ratelimit.cli.query.QueryOutput;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.GenesisCodec;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.keeper.RemainingCapacity;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.core.query.RateLimitQueryServer;
import dev.ratelimit.proto.v1.QueryAllBlacklistedDenomsRequest;
import dev.ratelimit.proto.v1.QueryAllRateLimitsRequest;
import dev.ratelimit.proto.v1.QueryAllWhitelistedAddressesRequest;
import dev.ratelimit.proto.v1.QueryRateLimitResponse;
import dev.ratelimit.proto.v1.QueryRateLimitsByChainIdRequest;
import dev.ratelimit.proto.v1.QueryRateLimitsByChannelOrClientIdResponse;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The operator queries over a node home (names from the Go module's CLI). Each opens a copy of
 * {@code <home>/data} (the home's files are never changed), answers and deletes the copy.
 */
final class QueryCommands {
  private QueryCommands() {}

  /** {@code --home} and {@code --output}, shared by every query. */
  static final class HomeOptions {
    @Option(
        names = "--home",
        required = true,
        paramLabel = "DIR",
        description = "Node home: the LevelDB in <home>/data (opened read-only, as a copy).")
    java.nio.file.Path home;

    @Option(
        names = "--output",
        paramLabel = "json|text",
        defaultValue = "text",
        description =
            "text (an aligned table, the default) or json (the Go module's query response as"
                + " protobuf JSON; remaining-capacity prints its own object).")
    Output output;
  }

  /** Runs {@code body} over a snapshot of the home and prints what it returns. */
  abstract static class QueryCommand implements Callable<Integer> {
    final Io io;

    @Mixin HomeOptions options;

    QueryCommand(Io io) {
      this.io = io;
    }

    @Override
    public final Integer call() {
      try (HomeSnapshot home = HomeSnapshot.open(options.home)) {
        home.warnings().forEach(io::warn);
        if (home.lastBlock().isEmpty() && needsTime()) {
          io.warn(options.home + " records no last block; measuring from the current time");
        }
        BlockContext ctx = home.context(Instant.now());
        io.out().print(answer(home, home.keeper(), ctx, options.output));
        io.out().flush();
      }
      return ExitCode.OK;
    }

    boolean needsTime() {
      return false;
    }

    /**
     * A typo'd id is a valid client id that names nothing (an empty answer, not code 8): when the
     * home lists its transfer channels and clients and {@code id} is not among them, say so.
     */
    void noteUnknownId(HomeSnapshot home, String id) {
      boolean unknown;
      try {
        unknown = home.chainIds().filter(ids -> !ids.containsKey(id)).isPresent();
      } catch (HomeException malformed) { // only a note: the answer stands without the file
        io.warn(malformed.getMessage());
        return;
      }
      if (unknown) {
        io.err().println("ratelimit: note: " + id + " is not a transfer channel or client of this"
            + " home (" + NodeConfig.channelsFile(home.home()) + ")");
      }
    }

    abstract String answer(HomeSnapshot home, RateLimitKeeper keeper, BlockContext ctx, Output output);
  }

  static void requireId(String id) {
    if (!Identifiers.isChannelOrClientId(id)) {
      throw new RateLimitException(
          ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID,
          "not a channel or client id: \"" + id + "\" (expected channel-N or a client id)");
    }
  }

  static Path path(String denom, String id) {
    requireId(id);
    if (denom.isEmpty()) {
      throw CliException.usage("--denom must not be empty");
    }
    try {
      return new Path(denom, id);
    } catch (IllegalArgumentException e) {
      throw CliException.usage(e.getMessage());
    }
  }

  /** The query service over the home's keeper: JSON output is its responses, as Go's CLI prints. */
  static RateLimitQueryServer queries(RateLimitKeeper keeper) {
    return new RateLimitQueryServer(keeper);
  }

  @Command(
      name = "list-rate-limits",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "List every rate limit (by channel or client id, then denom).",
      footer = {"", "Example:", "  ratelimit list-rate-limits --home /tmp/rl-home --output json"})
  static final class ListRateLimits extends QueryCommand {
    ListRateLimits(Io io) {
      super(io);
    }

    @Override
    String answer(HomeSnapshot home, RateLimitKeeper keeper, BlockContext ctx, Output output) {
      return output == Output.json
          ? QueryOutput.protoJson(
              queries(keeper).allRateLimits(ctx, QueryAllRateLimitsRequest.getDefaultInstance()))
          : QueryOutput.rateLimitsTable(keeper.getAllRateLimits(ctx));
    }
  }

  @Command(
      name = "rate-limit",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Show the rate limit of a channel or client and denom (or all of that channel's).",
        "",
        "Without --denom, lists every rate limit of the channel or client. A path with no rate"
            + " limit is code 2 and exits 1 (with --output json after printing the service's"
            + " empty response, {}); an invalid id is code 8 and exits 2.",
        ""
      },
      footer = {
        "",
        "Examples:",
        "  ratelimit rate-limit channel-5 --home /tmp/rl-home",
        "  ratelimit rate-limit channel-5 --denom ibc/D24B... --home /tmp/rl-home --output json"
      })
  static final class RateLimitQuery extends QueryCommand {
    @Parameters(index = "0", paramLabel = "CHANNEL_OR_CLIENT_ID", description = "e.g. channel-5")
    String id;

    @Option(names = "--denom", paramLabel = "D", description = "The denom as it exists on this chain.")
    String denom;

    RateLimitQuery(Io io) {
      super(io);
    }

    @Override
    String answer(HomeSnapshot home, RateLimitKeeper keeper, BlockContext ctx, Output output) {
      if (denom == null) {
        requireId(id); // the same message with or without --denom
        List<RateLimit> limits = keeper.getRateLimitsByChannelOrClient(ctx, id);
        if (limits.isEmpty()) {
          noteUnknownId(home, id);
        }
        return output == Output.json // read once: the service's response, built from the limits
            ? QueryOutput.protoJson(QueryRateLimitsByChannelOrClientIdResponse.newBuilder()
                .addAllRateLimits(limits.stream().map(GenesisCodec::toProto).toList()))
            : QueryOutput.rateLimitsTable(limits);
      }
      Path path = path(denom, id);
      Optional<RateLimit> rl = keeper.getRateLimit(ctx, path);
      if (rl.isEmpty()) { // the service's empty response for scripts, and the exit status
        noteUnknownId(home, id);
        if (output == Output.json) {
          io.out().print(QueryOutput.protoJson(QueryRateLimitResponse.getDefaultInstance()));
        }
        throw new RateLimitException(ErrorCode.RATE_LIMIT_NOT_FOUND, "no rate limit on " + path);
      }
      return output == Output.json // the limit read once: the service's response, built from it
          ? QueryOutput.protoJson(
              QueryRateLimitResponse.newBuilder().setRateLimit(GenesisCodec.toProto(rl.get())))
          : QueryOutput.rateLimitsTable(List.of(rl.get()));
    }
  }

  @Command(
      name = "rate-limits-by-chain",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "List the rate limits whose channel or client leads to a chain.",
        "",
        "Counterparty chain ids come from <home>/config/channels.json (written by 'simulate"
            + " --home' and 'demo --home'); ids it does not resolve are skipped, so without it"
            + " the list is empty.",
        ""
      },
      footer = {"", "Example:", "  ratelimit rate-limits-by-chain osmosis-1 --home /tmp/rl-home"})
  static final class RateLimitsByChain extends QueryCommand {
    @Parameters(index = "0", paramLabel = "CHAIN_ID", description = "e.g. osmosis-1")
    String chainId;

    RateLimitsByChain(Io io) {
      super(io);
    }

    @Override
    String answer(HomeSnapshot home, RateLimitKeeper keeper, BlockContext ctx, Output output) {
      if (Texts.isGoBlank(chainId)) { // Go's whitespace, as the query service decides
        // no chain has a blank id: an empty list would read as "no limits lead there"
        throw CliException.usage("CHAIN_ID must not be blank");
      }
      if (home.chainIds().isEmpty()) {
        io.err().println(
            "ratelimit: note: " + NodeConfig.channelsFile(home.home())
                + " does not exist, so no channel resolves to a chain");
      }
      return output == Output.json
          ? QueryOutput.protoJson(queries(keeper).rateLimitsByChainId(ctx,
              QueryRateLimitsByChainIdRequest.newBuilder().setChainId(chainId).build()))
          : QueryOutput.rateLimitsTable(keeper.getRateLimitsByChainId(ctx, chainId));
    }
  }

  @Command(
      name = "list-blacklisted-denoms",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "List the denoms whose IBC transfers are halted.",
      footer = {"", "Example:", "  ratelimit list-blacklisted-denoms --home /tmp/rl-home"})
  static final class ListBlacklistedDenoms extends QueryCommand {
    ListBlacklistedDenoms(Io io) {
      super(io);
    }

    @Override
    String answer(HomeSnapshot home, RateLimitKeeper keeper, BlockContext ctx, Output output) {
      return output == Output.json
          ? QueryOutput.protoJson(queries(keeper).allBlacklistedDenoms(
              ctx, QueryAllBlacklistedDenomsRequest.getDefaultInstance()))
          : QueryOutput.blacklistTable(keeper.getAllBlacklistedDenoms(ctx));
    }
  }

  @Command(
      name = "list-whitelisted-addresses",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = "List the (sender, receiver) pairs whose transfers skip the quota.",
      footer = {"", "Example:", "  ratelimit list-whitelisted-addresses --home /tmp/rl-home --output json"})
  static final class ListWhitelistedAddresses extends QueryCommand {
    ListWhitelistedAddresses(Io io) {
      super(io);
    }

    @Override
    String answer(HomeSnapshot home, RateLimitKeeper keeper, BlockContext ctx, Output output) {
      return output == Output.json
          ? QueryOutput.protoJson(queries(keeper).allWhitelistedAddresses(
              ctx, QueryAllWhitelistedAddressesRequest.getDefaultInstance()))
          : QueryOutput.whitelistTable(keeper.getAllWhitelistedAddressPairs(ctx));
    }
  }

  @Command(
      name = "remaining-capacity",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "How much more may move on a path in the current window, and when it resets.",
        "",
        "Per direction: threshold, net flow, remaining (or 'unlimited' when the channel value is"
            + " 0); then window_resets_at and seconds_until_reset, measured from the home's last"
            + " block time. A path with no rate limit is code 2 and exits 1.",
        ""
      },
      footer = {
        "",
        "Example:",
        "  ratelimit remaining-capacity channel-5 --denom ibc/D24B... --home /tmp/rl-home"
      })
  static final class RemainingCapacityQuery extends QueryCommand {
    @Parameters(index = "0", paramLabel = "CHANNEL_OR_CLIENT_ID", description = "e.g. channel-5")
    String id;

    @Option(
        names = "--denom",
        required = true,
        paramLabel = "D",
        description = "The denom as it exists on this chain.")
    String denom;

    RemainingCapacityQuery(Io io) {
      super(io);
    }

    @Override
    boolean needsTime() {
      return true;
    }

    @Override
    String answer(HomeSnapshot home, RateLimitKeeper keeper, BlockContext ctx, Output output) {
      RemainingCapacity rc = keeper.remainingCapacity(ctx, path(denom, id));
      return QueryOutput.remainingCapacity(rc, ctx, output);
    }
  }
}
