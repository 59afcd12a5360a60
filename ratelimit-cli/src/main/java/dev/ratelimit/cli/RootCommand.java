package dev.ratelimit.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/** {@code ratelimit}: the command groups. */
@Command(
    name = "ratelimit",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "IBC ICS-20 transfer rate limits for Java chains: replay scenarios against the real"
          + " module, query a node's rate limits, check genesis files, run the README"
          + " walk-through.",
      ""
    },
    subcommands = {
      SimulateCommand.class,
      QueryCommands.ListRateLimits.class,
      QueryCommands.RateLimitQuery.class,
      QueryCommands.RateLimitsByChain.class,
      QueryCommands.ListBlacklistedDenoms.class,
      QueryCommands.ListWhitelistedAddresses.class,
      QueryCommands.RemainingCapacityQuery.class,
      GenesisCommand.class,
      IbcDenomCommand.class,
      DemoCommand.class,
      HelpCommand.class
    },
    footer = {
      "",
      "Examples:",
      "  ratelimit simulate scenarios/*.json",
      "  ratelimit demo --home /tmp/rl-demo",
      "  ratelimit list-rate-limits --home /tmp/rl-demo/stride-1 --output json",
      "  ratelimit list-rate-limits --node http://localhost:26657",
      "  ratelimit remaining-capacity channel-5 --denom ibc/D24B... --home /tmp/rl-demo/stride-1",
      "  ratelimit ibc-denom transfer/channel-5/uosmo",
      "",
      "bin/ratelimit bench-gas [--detail] prints the store gas per packet beside the Go",
      "module's; bin/ratelimit bench-floor [JMH options] times send and recv beside their",
      "store floors (ratelimit-bench; see docs/PERFORMANCE.md).",
      "",
      "Exit codes: 0 ok; 1 a scenario failed, the path has no rate limit (code 2) or a",
      "demo number did not match; 2 usage or input error; 3 internal error, or a --node",
      "that cannot be reached or gives no usable answer. Errors print one line on stderr;",
      "add --debug for a stack trace."
    })
final class RootCommand implements Callable<Integer> {
  @Option(
      names = "--debug",
      scope = ScopeType.INHERIT,
      description = "Print a stack trace with errors.")
  boolean debug;

  @Override
  public Integer call() {
    throw CliException.usage("missing command (see 'ratelimit --help')");
  }
}
