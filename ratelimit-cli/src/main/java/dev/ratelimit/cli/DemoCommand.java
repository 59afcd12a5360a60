package dev.ratelimit.cli;

import dev.ratelimit.app.demo.Demo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ratelimit demo}: the original module README's walk-through with real transfers between
 * two in-process chains of the example application ({@link Demo}): an Osmosis-like and a
 * Stride-like chain, a relayer, a 24 h 10 % limit on ibc/uosmo over channel-5.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Run the module README's walk-through on two in-process chains and print its table.",
      "",
      "An Osmosis-like and a Stride-like chain of the example application, joined by a relayer;"
          + " governance adds a 24h, 10%% limit on ibc/uosmo over channel-5; then the README's"
          + " transfers run for real: the table shows the step, description, transfer status,"
          + " inflow, outflow, net flow as a %% of the channel value and the channel value, and"
          + " each rejected transfer's refund. The chains' homes are left in DIR/osmosis-1 and"
          + " DIR/stride-1 (DIR: --home, or a new temporary directory) for the queries.",
      ""
    },
    footer = {
      "",
      "Examples:",
      "  ratelimit demo",
      "  ratelimit demo --home /tmp/rl-demo && "
          + "ratelimit list-rate-limits --home /tmp/rl-demo/stride-1"
    })
final class DemoCommand implements Callable<Integer> {
  private final Io io;

  @Option(
      names = "--home",
      paramLabel = "DIR",
      description = "Leave the two chains' homes under this (new or empty) directory.")
  Path home;

  DemoCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    if (home != null) {
      requireNewOrEmpty(home);
    }
    String[] args = home == null ? new String[0] : new String[] {"--home", home.toString()};
    int code = Demo.run(args, io.out());
    if (code != 0) {
      io.err().println("ratelimit demo: the walk-through did not complete as the README says"
          + " (exit " + code + "; see above)");
    }
    return code;
  }

  /**
   * The walk-through writes two fresh chain homes: refuse a place it cannot use, up front (a
   * directory that cannot be created would otherwise fail the walk-through itself, exit 1, as if
   * a number had not matched).
   */
  private static void requireNewOrEmpty(Path home) {
    CliException.requireNewHomeNamed(home);
    if (!Files.exists(home)) {
      try {
        Files.createDirectories(home);
      } catch (IOException | SecurityException e) {
        throw CliException.usage("--home " + home + ": cannot create the directory ("
            + e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage())
            + ")");
      }
      return;
    }
    if (!Files.isDirectory(home)) {
      throw CliException.usage("--home " + home + " is not a directory");
    }
    try (Stream<Path> entries = Files.list(home)) {
      if (entries.findAny().isPresent()) {
        throw CliException.usage("--home " + home + " is not empty: give a new or empty directory");
      }
    } catch (IOException e) {
      throw CliException.usage("--home " + home + ": cannot list the directory: " + e.getMessage());
    }
  }
}
