package dev.ratelimit.cli;

import dev.ratelimit.core.model.Texts;
import dev.ratelimit.middleware.transfer.DenomResolver;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code ibc-denom}: the denom a token has on this chain, for the queries' {@code --denom}. */
@Command(
    name = "ibc-denom",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Print the denom a token has on this chain from its full trace: what --denom takes.",
      "",
      "A trace such as transfer/channel-5/uosmo becomes ibc/ and the upper-case hex SHA-256 of"
          + " it, as ICS-20 names vouchers; a denom without a trace (uosmo, or ibc/...) is"
          + " printed as it is. This is the rule a sent packet's denom is counted by (SPEC §3),"
          + " so a native denom that reads as a trace (lp/pool-1/share) prints hashed, as the"
          + " module counts it. A trace without a base denom is code 9 and exits 2.",
      ""
    },
    footer = {
      "",
      "Example:",
      "  ratelimit remaining-capacity channel-5 --home /tmp/rl-demo/stride-1 \\",
      "      --denom \"$(ratelimit ibc-denom transfer/channel-5/uosmo)\""
    })
final class IbcDenomCommand implements Callable<Integer> {
  private final Io io;

  @Parameters(index = "0", paramLabel = "TRACE", description = "e.g. transfer/channel-5/uosmo")
  String trace;

  IbcDenomCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    if (!trace.equals(trace.strip())) { // hashed as given, but no denom has such space: a paste?
      io.warn("TRACE " + Texts.quote(trace) + " starts or ends with white space, hashed as given;"
          + " no denom has any");
    }
    io.out().println(DenomResolver.sendDenom(trace));
    io.out().flush();
    return ExitCode.OK;
  }
}
