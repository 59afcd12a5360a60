package dev.ratelimit.cli;

import dev.ratelimit.cli.query.HomeException;
import dev.ratelimit.cli.query.HomeSnapshot;
import dev.ratelimit.cli.query.NodeException;
import dev.ratelimit.cli.simulate.MalformedScenarioException;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.store.LevelDbKvStore;
import dev.ratelimit.core.store.StorageException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import picocli.CommandLine;

/**
 * The {@code ratelimit} command line. {@link #run} is the whole program without {@code
 * System.exit}: tests call it with their own streams.
 *
 * <p>Errors print one line on stderr ({@code ratelimit: ...}) and exit non-zero (see {@link
 * ExitCode}); a stack trace only with {@code --debug}.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) {
    // the node homes this opens (demo, queries) must be named in digits 0-9 whatever the locale
    LevelDbKvStore.useDigitsZeroToNineForFormatting();
    System.exit(
        run(
            args,
            System.in,
            new PrintStream(System.out, true, StandardCharsets.UTF_8),
            new PrintStream(System.err, true, StandardCharsets.UTF_8)));
  }

  /**
   * Runs the command line.
   *
   * @return the exit code ({@link ExitCode})
   */
  public static int run(String[] args, InputStream in, PrintStream out, PrintStream err) {
    Objects.requireNonNull(args, "args");
    boolean debug = Arrays.asList(args).contains("--debug");
    Io io = new Io(in, out, err);
    CommandLine cl = commandLine(io);
    cl.setParameterExceptionHandler(
        (ex, badArgs) -> {
          CommandLine where = ex.getCommandLine();
          err.println(
              "ratelimit: " + parameterProblem(ex) + " (see '"
                  + where.getCommandSpec().qualifiedName() + " --help')");
          if (debug) {
            ex.printStackTrace(err);
          }
          return ExitCode.USAGE;
        });
    cl.setExecutionExceptionHandler(
        (ex, where, parseResult) -> {
          int code = exitCode(ex);
          if (HomeSnapshot.stopped()) {
            return code; // stopped by a signal: the failure is of the stop (the JVM's code wins)
          }
          err.println("ratelimit: " + message(ex));
          if (debug) {
            ex.printStackTrace(err);
          }
          return code;
        });
    try {
      return cl.execute(args);
    } catch (OutOfMemoryError e) { // an Error: picocli's handler above sees only Exceptions
      err.println("ratelimit: out of memory (give the JVM more: RATELIMIT_JAVA_OPTS=-Xmx2g)");
      return ExitCode.INTERNAL;
    } finally {
      out.flush();
      err.flush();
    }
  }

  static CommandLine commandLine(Io io) {
    CommandLine cl = new CommandLine(new RootCommand(), new Factory(io));
    // picocli's help and usage go through these: UTF-8 like the streams main() opens, never the
    // platform charset (US-ASCII under a POSIX locale on Java 17)
    cl.setOut(new PrintWriter(new OutputStreamWriter(io.out(), StandardCharsets.UTF_8), true));
    cl.setErr(new PrintWriter(new OutputStreamWriter(io.err(), StandardCharsets.UTF_8), true));
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setUsageHelpAutoWidth(false);
    cl.setUsageHelpWidth(100);
    return cl;
  }

  static int exitCode(Exception ex) {
    if (ex instanceof CliException c) {
      return c.exitCode();
    }
    if (ex instanceof MalformedScenarioException || ex instanceof HomeException
        || ex instanceof StorageException) {
      return ExitCode.USAGE;
    }
    if (ex instanceof RateLimitException r) {
      return exitCode(r.code());
    }
    if (ex instanceof NodeException n) {
      if (n.moduleCode().isPresent()) {
        return exitCode(n.moduleCode().get()); // as the same error from a home
      }
      return n.refused() ? ExitCode.USAGE : ExitCode.INTERNAL; // else the node failed
    }
    return ExitCode.INTERNAL;
  }

  private static int exitCode(ErrorCode code) {
    return code == ErrorCode.RATE_LIMIT_NOT_FOUND ? ExitCode.FAILED : ExitCode.USAGE;
  }

  static String message(Exception ex) {
    if (ex instanceof CliException || ex instanceof MalformedScenarioException
        || ex instanceof HomeException || ex instanceof NodeException) {
      return oneLine(ex.getMessage());
    }
    if (ex instanceof RateLimitException r) {
      return oneLine(r.getMessage()) + " (code " + r.code().label() + ")";
    }
    if (ex instanceof StorageException) {
      return "storage: " + oneLine(ex.getMessage());
    }
    return "internal error: " + ex.getClass().getName() + ": " + oneLine(ex.getMessage())
        + " (run with --debug for the stack trace)";
  }

  /**
   * picocli's text, except for a stray word: "Unmatched argument at index 0" does not say what
   * the word was taken for, so say "unknown command" or "unexpected argument".
   */
  static String parameterProblem(CommandLine.ParameterException ex) {
    if (ex instanceof CommandLine.UnmatchedArgumentException u && !u.isUnknownOption()
        && !u.getUnmatched().isEmpty()) {
      String word = u.getUnmatched().get(0);
      if (ex.getCommandLine().getSubcommands().isEmpty()) {
        return "unexpected argument '" + oneLine(word) + "'";
      }
      // no "did you mean": picocli's nearest name for 'frobnicate' is 'simulate'
      return "unknown command '" + oneLine(word) + "'";
    }
    return oneLine(ex.getMessage());
  }

  static String oneLine(String s) {
    return s == null ? "" : s.replace("\r\n", " ").replace('\n', ' ').replace('\r', ' ');
  }

  /** Builds commands, handing {@link Io} to those that take it. */
  private static final class Factory implements CommandLine.IFactory {
    private final Io io;
    private final CommandLine.IFactory fallback = CommandLine.defaultFactory();

    Factory(Io io) {
      this.io = io;
    }

    @Override
    public <K> K create(Class<K> cls) throws Exception {
      try {
        var ctor = cls.getDeclaredConstructor(Io.class);
        ctor.setAccessible(true);
        return ctor.newInstance(io);
      } catch (NoSuchMethodException e) {
        return fallback.create(cls);
      }
    }
  }
}
