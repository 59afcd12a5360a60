package dev.ratelimit.cli;

import dev.ratelimit.app.chain.NodeConfig;
import dev.ratelimit.cli.query.HomeException;
import dev.ratelimit.cli.query.HomeSnapshot;
import dev.ratelimit.cli.query.NodeClient;
import dev.ratelimit.cli.query.Output;
import dev.ratelimit.cli.query.Queries;
import dev.ratelimit.cli.query.QueryOutput;
import dev.ratelimit.cli.query.QuerySource;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.core.query.RateLimitQueryServer;
import dev.ratelimit.middleware.transfer.DenomResolver;
import dev.ratelimit.proto.v1.QueryAllBlacklistedDenomsResponse;
import dev.ratelimit.proto.v1.QueryAllRateLimitsResponse;
import dev.ratelimit.proto.v1.QueryAllWhitelistedAddressesResponse;
import dev.ratelimit.proto.v1.QueryRateLimitResponse;
import dev.ratelimit.proto.v1.QueryRateLimitsByChainIdResponse;
import dev.ratelimit.proto.v1.QueryRateLimitsByChannelOrClientIdResponse;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.BiFunction;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The operator queries (names from the Go module's CLI), answered by the {@code ratelimit.v1.Query}
 * service either over a node home ({@code --home}: a copy of {@code <home>/data} is opened,
 * answered and deleted, so the home's files are never changed) or by a running node ({@code
 * --node}: an {@code abci_query} through its CometBFT RPC). Both print the same answer for the
 * same state.
 */
final class QueryCommands {
  private static final String HOME_HELP =
      "Node home: the LevelDB in <home>/data (opened read-only, as a copy).";

  private QueryCommands() {}

  /** {@code --home} alone, for what only a home answers, and {@code --output}. */
  static final class HomeOptions {
    @Option(
        names = "--home",
        required = true,
        paramLabel = "DIR",
        description = HOME_HELP)
    java.nio.file.Path home;

    @Option(
        names = "--output",
        paramLabel = "json|text",
        defaultValue = "text",
        description = "text (an aligned table, the default) or json (an object of its own).")
    Output output;
  }

  /** {@code --home} or {@code --node} (with {@code --height}), and {@code --output}. */
  static final class SourceOptions {
    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Option(
        names = "--height",
        paramLabel = "H",
        description = "With --node: the block height to answer at (default: the node's latest).")
    Long height;

    @Option(
        names = "--output",
        paramLabel = "json|text",
        defaultValue = "text",
        description =
            "text (an aligned table, the default) or json (the Go module's query response as"
                + " protobuf JSON).")
    Output output;
  }

  /** Exactly one of the two. */
  static final class Source {
    @Option(
        names = "--home",
        paramLabel = "DIR",
        description = HOME_HELP)
    java.nio.file.Path home;

    @Option(
        names = "--node",
        paramLabel = "URL",
        description =
            "A running node's CometBFT RPC address, e.g. http://localhost:26657 or"
                + " tcp://localhost:26657: each query is an abci_query, as with the Go CLI's"
                + " --node.")
    String node;
  }

  /** Asks the home or the node and prints what {@link #answer} returns. */
  abstract static class QueryCommand implements Callable<Integer> {
    final Io io;

    @Mixin SourceOptions options;

    QueryCommand(Io io) {
      this.io = io;
    }

    @Override
    public final Integer call() {
      if (options.source.node != null) {
        io.out().print(answer(new Queries(node()), Optional.empty(), options.output));
        io.out().flush();
        return ExitCode.OK;
      }
      if (options.height != null) {
        throw CliException.usage("--height needs --node (a home answers as of its last block)");
      }
      return fromHome(io, options.source.home, false, (home, ctx) -> {
        RateLimitQueryServer server = new RateLimitQueryServer(home.keeper());
        QuerySource source = QuerySource.of("home " + options.source.home,
            (path, request) -> server.query(ctx, path, request));
        return answer(new Queries(source), Optional.of(home), options.output);
      });
    }

    private NodeClient node() {
      if (options.height != null && options.height < 0) {
        throw CliException.usage("--height must not be negative: " + options.height);
      }
      URI endpoint;
      try {
        endpoint = NodeClient.endpoint(options.source.node);
      } catch (IllegalArgumentException e) {
        throw CliException.usage(e.getMessage());
      }
      return new NodeClient(
          endpoint, options.height == null ? 0 : options.height, NodeClient.DEFAULT_TIMEOUT);
    }

    /**
     * The text to print.
     *
     * @param home the home asked, for notes only it can give; empty when a node is asked
     */
    abstract String answer(Queries queries, Optional<HomeSnapshot> home, Output output);

    /**
     * A typo'd id is a valid client id that names nothing (an empty answer, not code 8): when the
     * home lists its transfer channels and clients and {@code id} is not among them, say so.
     */
    void noteUnknownId(Optional<HomeSnapshot> asked, String id) {
      if (asked.isEmpty()) {
        return; // a node's channels are its IBC state, which this command does not read
      }
      HomeSnapshot home = asked.get();
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
  }

  /**
   * Opens a copy of the home, reports its warnings, prints what {@code answer} makes of it as of
   * its last block, and deletes the copy.
   *
   * @param needsTime whether the answer counts time from the last block (warned when the home
   *     records none, and the current time stands in)
   */
  static int fromHome(Io io, java.nio.file.Path dir, boolean needsTime,
      BiFunction<HomeSnapshot, BlockContext, String> answer) {
    try (HomeSnapshot home = HomeSnapshot.open(dir)) {
      home.warnings().forEach(io::warn);
      if (home.lastBlock().isEmpty() && needsTime) {
        io.warn(dir + " records no last block; measuring from the current time");
      }
      // the fallback time to the second, as block times usually are: no nanoseconds of the clock
      io.out().print(answer.apply(home,
          home.context(Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS))));
      io.out().flush();
    }
    return ExitCode.OK;
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

  /**
   * A denom no limit has, in a form that is not how the chain holds it: a full trace (the chain
   * holds {@code ibc/} and its hash) or an {@code ibc/} hash in lower case. Says what to give.
   */
  static void noteDenomForm(Io io, String denom) {
    String onChain;
    try {
      onChain = DenomResolver.sendDenom(denom); // a trace becomes ibc/HASH; a base denom stays
    } catch (RuntimeException notADenom) {
      return;
    }
    if (onChain.equals(denom) && denom.startsWith("ibc/")) {
      onChain = "ibc/" + denom.substring(4).toUpperCase(java.util.Locale.ROOT);
    }
    if (!onChain.equals(denom)) {
      io.err().println("ratelimit: note: " + Texts.quote(denom) + " is not a denom as this chain"
          + " holds it; did you mean " + onChain + "? (ratelimit ibc-denom TRACE prints it)");
    }
  }

  @Command(
      name = "list-rate-limits",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "List every rate limit.",
        "",
        "From a home (and a node of this library) by channel or client id, then denom; a Go node"
            + " answers in its own order.",
        ""
      },
      footer = {
        "",
        "Examples:",
        "  ratelimit list-rate-limits --home /tmp/rl-home --output json",
        "  ratelimit list-rate-limits --node http://localhost:26657"
      })
  static final class ListRateLimits extends QueryCommand {
    ListRateLimits(Io io) {
      super(io);
    }

    @Override
    String answer(Queries queries, Optional<HomeSnapshot> home, Output output) {
      QueryAllRateLimitsResponse response = queries.allRateLimits();
      return output == Output.json
          ? QueryOutput.protoJson(response)
          : QueryOutput.rateLimitsTable(response.getRateLimitsList());
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
        "  ratelimit rate-limit channel-5 --denom ibc/D24B... --home /tmp/rl-home --output json",
        "  ratelimit rate-limit channel-5 --node tcp://localhost:26657 --height 1200"
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
    String answer(Queries queries, Optional<HomeSnapshot> home, Output output) {
      if (denom == null) {
        requireId(id); // the same message with or without --denom
        QueryRateLimitsByChannelOrClientIdResponse response =
            queries.rateLimitsByChannelOrClientId(id);
        if (response.getRateLimitsCount() == 0) {
          noteUnknownId(home, id);
        }
        return output == Output.json
            ? QueryOutput.protoJson(response)
            : QueryOutput.rateLimitsTable(response.getRateLimitsList());
      }
      Path path = path(denom, id);
      QueryRateLimitResponse response = queries.rateLimit(denom, id);
      if (!response.hasRateLimit()) { // the service's empty response for scripts, and the exit status
        noteUnknownId(home, id);
        noteDenomForm(io, denom);
        if (output == Output.json) {
          io.out().print(QueryOutput.protoJson(response));
        }
        throw new RateLimitException(ErrorCode.RATE_LIMIT_NOT_FOUND, "no rate limit on " + path);
      }
      return output == Output.json
          ? QueryOutput.protoJson(response)
          : QueryOutput.rateLimitsTable(List.of(response.getRateLimit()));
    }
  }

  @Command(
      name = "rate-limits-by-chain",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "List the rate limits whose channel or client leads to a chain.",
        "",
        "With --home, counterparty chain ids come from <home>/config/channels.json (written by"
            + " 'simulate --home' and 'demo --home'); ids it does not resolve are skipped, so"
            + " without it the list is empty. A node (--node) resolves them from its IBC state.",
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
    String answer(Queries queries, Optional<HomeSnapshot> home, Output output) {
      if (Texts.isGoBlank(chainId)) { // Go's whitespace, as the query service decides
        // no chain has a blank id: an empty list would read as "no limits lead there"
        throw CliException.usage("CHAIN_ID must not be blank");
      }
      if (home.isPresent() && home.get().chainIds().isEmpty()) {
        io.err().println(
            "ratelimit: note: " + NodeConfig.channelsFile(home.get().home())
                + " does not exist, so no channel resolves to a chain");
      } else if (home.isPresent() && !home.get().chainIds().get().containsValue(chainId)) {
        // a typo'd chain id answers an empty list, as a chain without limits would
        io.err().println("ratelimit: note: no channel or client in "
            + NodeConfig.channelsFile(home.get().home()) + " leads to "
            + Texts.quote(chainId));
      }
      QueryRateLimitsByChainIdResponse response = queries.rateLimitsByChainId(chainId);
      return output == Output.json
          ? QueryOutput.protoJson(response)
          : QueryOutput.rateLimitsTable(response.getRateLimitsList());
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
    String answer(Queries queries, Optional<HomeSnapshot> home, Output output) {
      QueryAllBlacklistedDenomsResponse response = queries.allBlacklistedDenoms();
      return output == Output.json
          ? QueryOutput.protoJson(response)
          : QueryOutput.blacklistTable(response.getDenomsList());
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
    String answer(Queries queries, Optional<HomeSnapshot> home, Output output) {
      QueryAllWhitelistedAddressesResponse response = queries.allWhitelistedAddresses();
      return output == Output.json
          ? QueryOutput.protoJson(response)
          : QueryOutput.whitelistTable(response.getAddressPairsList());
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
        "",
        "Only a home answers it: the query service has no such method, and the window's reset"
            + " time comes from the module's hour epoch, which only the store holds.",
        ""
      },
      footer = {
        "",
        "Example:",
        "  ratelimit remaining-capacity channel-5 --denom ibc/D24B... --home /tmp/rl-home"
      })
  static final class RemainingCapacityQuery implements Callable<Integer> {
    private final Io io;

    @Mixin HomeOptions options;

    @Parameters(index = "0", paramLabel = "CHANNEL_OR_CLIENT_ID", description = "e.g. channel-5")
    String id;

    @Option(
        names = "--denom",
        required = true,
        paramLabel = "D",
        description = "The denom as it exists on this chain.")
    String denom;

    RemainingCapacityQuery(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      return fromHome(io, options.home, true, (home, ctx) -> {
        try {
          return QueryOutput.remainingCapacity(
              home.keeper().remainingCapacity(ctx, path(denom, id)), ctx, options.output);
        } catch (RateLimitException e) {
          if (e.code() == ErrorCode.RATE_LIMIT_NOT_FOUND) {
            noteDenomForm(io, denom);
          }
          throw e;
        }
      });
    }
  }
}
