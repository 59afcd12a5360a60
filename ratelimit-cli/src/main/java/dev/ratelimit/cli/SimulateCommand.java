package dev.ratelimit.cli;

import dev.ratelimit.cli.simulate.MalformedScenarioException;
import dev.ratelimit.cli.simulate.Scenario;
import dev.ratelimit.cli.simulate.ScenarioParser;
import dev.ratelimit.cli.simulate.ScenarioRunner;
import dev.ratelimit.cli.simulate.SimulationStore;
import dev.ratelimit.core.store.NodeHome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ratelimit simulate FILE...}: the scenario runner. */
@Command(
    name = "simulate",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Run scenario files through the real module, with the host faked from each scenario.",
      "",
      "Scenarios follow docs/SCENARIOS.md. Prints one line per failed expectation, 'file:"
          + " scenario name: step N (op): expected ... got ...' (steps numbered from 1), then"
          + " 'N passed, M failed' (scenarios); a scenario goes on after a failed expectation. Exit 0 when"
          + " all pass, 1 when any fails, 2 when a file is malformed (bad JSON, unknown op or key,"
          + " a value of the wrong type, time or height going backwards): one line on stderr per"
          + " malformed scenario naming the file, scenario and step; the well-formed scenarios"
          + " still run, and the closing line counts it as failed (with --home nothing runs; a"
          + " file that cannot be read stops the run). A governance message's field values are"
          + " the chain's to judge: one no chain could receive (a percent as a JSON number) fails"
          + " its step as invalid_request. A step without 'expect' passes whatever its outcome:"
          + " --verbose prints every step's.",
      ""
    },
    footer = {
      "",
      "With --store leveldb (implied by --home) the state is kept in <home>/data as in a node's"
          + " home, with the last block record and <home>/config/channels.json, so the queries"
          + " can read it afterwards. That needs exactly one scenario in total and a home"
          + " without a database. A scenario that stops at its genesis commits no block: the"
          + " database it opened is removed, so the home can be used again.",
      "",
      "Examples:",
      "  ratelimit simulate walkthrough.json edges.json",
      "  ratelimit simulate --verbose scenarios/",
      "  ratelimit simulate --home /tmp/rl-home walkthrough.json",
      "  ratelimit list-rate-limits --home /tmp/rl-home"
    })
final class SimulateCommand implements Callable<Integer> {
  enum StoreKind {
    memory,
    leveldb
  }

  private final Io io;

  @Parameters(
      arity = "1..*",
      paramLabel = "FILE",
      description = "Scenario files; a directory stands for its *.json files, sorted by name.")
  List<Path> files;

  @Option(names = "--verbose", description = "Print every step's outcome and events.")
  boolean verbose;

  @Option(
      names = "--store",
      paramLabel = "memory|leveldb",
      description = "Where the state lives: memory (default) or the LevelDB under --home.")
  StoreKind store;

  @Option(names = "--home", paramLabel = "DIR", description = "Node home for --store leveldb.")
  Path home;

  private boolean homeExisted;
  private boolean dataExisted;

  SimulateCommand(Io io) {
    this.io = io;
  }

  @Override
  public Integer call() {
    StoreKind kind = store != null ? store : (home != null ? StoreKind.leveldb : StoreKind.memory);
    if (kind == StoreKind.leveldb && home == null) {
      throw CliException.usage("--store leveldb needs --home DIR");
    }
    if (kind == StoreKind.memory && home != null) {
      throw CliException.usage("--home needs --store leveldb (or leave --store out)");
    }
    List<Scenario> scenarios = new ArrayList<>();
    List<MalformedScenarioException> malformed = new ArrayList<>();
    for (Path file : expand(files)) {
      ScenarioParser.Parsed parsed = ScenarioParser.parseFile(file, file.toString());
      scenarios.addAll(parsed.scenarios());
      malformed.addAll(parsed.malformed());
    }
    SimulationStore.StoreProvider stores = SimulationStore.memory();
    if (kind == StoreKind.leveldb) {
      if (!malformed.isEmpty()) { // a home takes one scenario's state: none half-given
        malformed.forEach(m -> io.err().println("ratelimit: " + m.getMessage()));
        return ExitCode.USAGE;
      }
      if (scenarios.size() != 1) {
        throw CliException.usage(
            "--store leveldb keeps one chain's state: give exactly one scenario (found "
                + scenarios.size() + ")");
      }
      requireFreshHome(home);
      homeExisted = Files.exists(home);
      dataExisted = Files.exists(NodeHome.dataDir(home));
      stores = SimulationStore.leveldb(home);
    }
    // a malformed scenario is reported and does not stop the others (one generated vector's
    // mistake would otherwise cost every scenario beside it); the exit code still says 2
    for (MalformedScenarioException m : malformed) {
      io.err().println("ratelimit: " + m.getMessage());
    }
    io.err().flush();
    ScenarioRunner.Summary summary =
        new ScenarioRunner(io.out(), verbose, stores).run(scenarios, malformed.size());
    if (kind == StoreKind.leveldb && summary.results().get(0).stoppedAtGenesis()) {
      removeUncommittedDatabase();
    }
    return malformed.isEmpty() ? summary.exitCode() : ExitCode.USAGE;
  }

  /**
   * A home whose scenario stopped at its genesis got no block: rather than leave a database that
   * every query refuses (no hour epoch) and that keeps the home from being used again, remove
   * what this run made (the directory was empty or absent before it).
   */
  private void removeUncommittedDatabase() {
    Path data = NodeHome.dataDir(home);
    try {
      try (Stream<Path> files = Files.list(data)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          Files.delete(f); // LevelDB keeps flat files only
        }
      }
      if (!dataExisted) {
        Files.delete(data);
      }
      if (!homeExisted) {
        try (Stream<Path> left = Files.list(home)) {
          if (left.findAny().isEmpty()) {
            Files.delete(home);
          }
        }
      }
      io.err().println("ratelimit: note: the scenario stopped at its genesis, so no block was"
          + " committed: the database it opened in " + data + " is removed, and " + home
          + " can be given to simulate again");
    } catch (IOException e) {
      io.warn("the scenario stopped at its genesis, so " + data + " holds no committed block,"
          + " and it could not be removed (" + e.getMessage() + "): queries refuse it; remove it"
          + " before giving " + home + " to simulate again");
    }
  }

  static List<Path> expand(List<Path> files) {
    List<Path> out = new ArrayList<>();
    for (Path f : files) {
      if (Files.isDirectory(f)) {
        try (Stream<Path> s = Files.list(f)) {
          List<Path> json =
              s.filter(p -> p.getFileName().toString().endsWith(".json") && Files.isRegularFile(p))
                  .sorted()
                  .collect(Collectors.toList());
          if (json.isEmpty()) {
            throw CliException.usage(f + ": no *.json scenario files in this directory");
          }
          out.addAll(json);
        } catch (IOException e) {
          throw CliException.usage(f + ": cannot list the directory: " + e.getMessage());
        }
      } else {
        out.add(f);
      }
    }
    return out;
  }

  /** A home whose {@code data} directory does not exist or is empty. */
  static void requireFreshHome(Path home) {
    CliException.requireNewHomeNamed(home);
    if (Files.exists(home) && !Files.isDirectory(home)) {
      throw CliException.usage("home " + home + " is not a directory");
    }
    Path data = NodeHome.dataDir(home);
    if (Files.isDirectory(data)) {
      try (Stream<Path> s = Files.list(data)) {
        if (s.findAny().isPresent()) {
          throw CliException.usage(
              "home " + home + " already has a database in " + data
                  + "; use an empty or new directory");
        }
      } catch (IOException e) {
        throw CliException.usage("cannot read " + data + ": " + e.getMessage());
      }
    } else if (Files.exists(data)) {
      throw CliException.usage(data + " is not a directory");
    }
  }
}
