package dev.ratelimit.cli;

import dev.ratelimit.cli.query.HomeSnapshot;
import dev.ratelimit.cli.query.QueryOutput;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.GenesisCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code ratelimit genesis export|validate}. */
@Command(
    name = "genesis",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = "Export a node's rate-limit genesis, or validate a genesis file.",
    subcommands = {GenesisCommand.Export.class, GenesisCommand.Validate.class},
    footer = {
      "",
      "Examples:",
      "  ratelimit genesis export --home /tmp/rl-home > genesis.json",
      "  ratelimit genesis validate genesis.json"
    })
final class GenesisCommand implements Callable<Integer> {
  GenesisCommand() {}

  @Override
  public Integer call() {
    throw CliException.usage("missing subcommand: export or validate (see 'ratelimit genesis --help')");
  }

  @Command(
      name = "export",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Print the module's state as its genesis (protobuf JSON of GenesisState).",
        "",
        "Proto field names, every field present, lists in canonical order, pending ids as"
            + " channel/sequence/denom.",
        ""
      },
      footer = {"", "Example:", "  ratelimit genesis export --home /tmp/rl-home > genesis.json"})
  static final class Export implements Callable<Integer> {
    private final Io io;

    @Option(names = "--home", required = true, paramLabel = "DIR", description = "Node home.")
    Path home;

    Export(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      try (HomeSnapshot snapshot = HomeSnapshot.open(home)) {
        snapshot.warnings().forEach(io::warn);
        var genesis = snapshot.keeper().exportGenesis(snapshot.context(Instant.EPOCH));
        io.out().print(QueryOutput.terminalSafeJson(GenesisCodec.toJson(genesis)) + "\n");
        io.out().flush();
      }
      return ExitCode.OK;
    }
  }

  @Command(
      name = "validate",
      mixinStandardHelpOptions = true,
      versionProvider = VersionProvider.class,
      description = {
        "Check a genesis file (protobuf JSON of GenesisState) as InitGenesis would.",
        "",
        "Prints 'valid' (and any warnings on stderr, e.g. dropped Go-form pending ids) and exits"
            + " 0, or prints the first problem (code 12) and exits 2.",
        ""
      },
      footer = {
        "",
        "Examples:",
        "  ratelimit genesis validate genesis.json",
        "  ratelimit genesis export --home /tmp/rl-home | ratelimit genesis validate -"
      })
  static final class Validate implements Callable<Integer> {
    private final Io io;

    @Parameters(
        index = "0",
        paramLabel = "FILE",
        description = "The genesis JSON file, or - for standard input.")
    String file;

    Validate(Io io) {
      this.io = io;
    }

    @Override
    public Integer call() {
      boolean stdin = file.equals("-");
      String name = stdin ? "<stdin>" : file;
      byte[] content;
      try {
        content = stdin ? io.in().readAllBytes() : Files.readAllBytes(Path.of(file));
      } catch (NoSuchFileException e) {
        throw CliException.usage(file + ": no such file");
      } catch (IOException | InvalidPathException e) {
        throw CliException.usage(name + ": cannot read: " + e.getMessage());
      }
      GenesisCodec.Decoded decoded;
      try {
        String json;
        try {
          json = StrictJson.utf8(content);
        } catch (StrictJson.Malformed e) {
          throw new RateLimitException(ErrorCode.INVALID_GENESIS, e.getMessage());
        }
        decoded = GenesisCodec.fromJson(json); // strict JSON, as a chain reads it
      } catch (RateLimitException e) {
        throw new CliException(
            ExitCode.USAGE,
            name + ": " + Main.oneLine(e.getMessage()) + " (code " + e.code().label() + ")"
                + wholeGenesisHint(content));
      }
      decoded.warnings().forEach(io::warn);
      io.out().println("valid");
      return ExitCode.OK;
    }

    /** A chain's whole genesis file holds the module's section under app_state: say so. */
    private static String wholeGenesisHint(byte[] content) {
      try {
        return StrictJson.parse(StrictJson.utf8(content)).has("app_state")
            ? "; this is a chain's whole genesis: pass its app_state.ratelimit"
                + " (jq .app_state.ratelimit FILE | ratelimit genesis validate -)"
            : "";
      } catch (StrictJson.Malformed e) {
        return "";
      }
    }
  }
}
