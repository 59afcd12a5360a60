package dev.ratelimit.cli.query;

import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.EventSink;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.LevelDbKvStore;
import dev.ratelimit.core.store.NodeHome;
import dev.ratelimit.core.store.StorageException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A read-only look at a node home: {@code <home>/data} is copied to a temporary directory and the
 * copy is opened, so a query never changes the home's files (opening a LevelDB writes to it:
 * lock, log, manifest). {@link #close()} deletes the copy, and so does a shutdown hook if the
 * process is stopped first (Ctrl-C, SIGTERM): the hook waits for the file being copied or the
 * database being opened, then closes the database and deletes the copy, and no file is written
 * into it after that. The copy is taken file by file; run queries against
 * a stopped node, or accept that a block being committed meanwhile may be seen half-copied
 * (LevelDB then recovers what its log holds).
 */
public final class HomeSnapshot implements AutoCloseable {
  /** Set when a copy's shutdown hook runs: the process is being stopped. */
  private static volatile boolean stopped;

  private final Path home;
  private final TempCopy copy;
  private final LevelDbKvStore db;
  private final Optional<NodeHome.LastBlock> lastBlock;
  private final List<String> damage;
  private Optional<Map<String, String>> chainIds; // read when first asked for

  private HomeSnapshot(
      Path home,
      TempCopy copy,
      LevelDbKvStore db,
      Optional<NodeHome.LastBlock> lastBlock,
      List<String> damage) {
    this.home = home;
    this.copy = copy;
    this.db = db;
    this.lastBlock = lastBlock;
    this.damage = List.copyOf(damage);
  }

  /**
   * Opens the copy. iq80 LevelDB reports a damaged write-ahead log record on System.out while it
   * recovers and skips it (a node reopening the home would do the same); caught here, so a query's
   * output stays clean, and kept (as LevelDB words it) for a warning on stderr.
   */
  private static LevelDbKvStore openReportingDamage(Path copy, List<String> damage) {
    PrintStream stdout = System.out;
    ByteArrayOutputStream reported = new ByteArrayOutputStream();
    LevelDbKvStore db;
    try {
      System.setOut(new PrintStream(reported, true, StandardCharsets.UTF_8));
      db = LevelDbKvStore.open(copy);
    } finally {
      System.setOut(stdout);
    }
    reported
        .toString(StandardCharsets.UTF_8)
        .lines()
        .filter(line -> !line.isBlank())
        .forEach(line -> damage.add(line.strip()));
    return db;
  }

  /**
   * Where the mistaken {@code --home} points next to a home: the database itself (its parent is
   * the home), or a directory of homes (as {@code demo --home} leaves); else nothing.
   */
  private static String homeHint(Path dir) {
    if (Files.isRegularFile(dir.resolve("CURRENT"))) {
      Path parent = dir.toAbsolutePath().getParent();
      return parent == null ? "" : "; " + dir + " is a database itself: its home is " + parent;
    }
    try (Stream<Path> children = Files.list(dir)) {
      List<String> homes = children
          .filter(c -> Files.isRegularFile(NodeHome.dataDir(c).resolve("CURRENT")))
          .map(c -> c.getFileName().toString())
          .sorted()
          .toList();
      return homes.isEmpty() ? "" : "; homes in it: " + String.join(", ", homes);
    } catch (IOException e) {
      return "";
    }
  }

  /**
   * Copies and opens the home's database.
   *
   * @throws HomeException when {@code home} is not a directory or holds no LevelDB in {@code data}
   *     (a {@code CURRENT} file), the copy cannot be opened, or its rate-limit store is of another
   *     layout or holds no hour epoch (InitGenesis never ran on it, or a damaged log lost it: read
   *     as is, it would answer "no limits" and export an empty genesis)
   */
  public static HomeSnapshot open(Path home) {
    if (home.toString().isEmpty()) { // Path.of("") would be the working directory
      throw new HomeException("--home is empty: give the node home's directory");
    }
    if (!Files.exists(home)) {
      requireReadable(home, home);
      throw new HomeException("home " + home + " does not exist");
    }
    if (!Files.isDirectory(home)) {
      throw new HomeException("home " + home + " is not a directory");
    }
    Path data = NodeHome.dataDir(home);
    if (!Files.isRegularFile(data.resolve("CURRENT"))) {
      requireReadable(home, data.resolve("CURRENT"));
      throw new HomeException(
          "no database in " + home + " (expected a LevelDB in " + data
              + "; create one with 'ratelimit demo --home DIR' or a node)" + homeHint(home));
    }
    TempCopy copy;
    try {
      copy = new TempCopy(Files.createTempDirectory("ratelimit-query-"));
    } catch (IOException e) {
      throw new HomeException("cannot copy " + data + " for reading: " + e.getMessage(), e);
    }
    try {
      copyTree(data, copy);
    } catch (AccessDeniedException e) {
      copy.discard();
      throw permissionDenied(home, e);
    } catch (IOException | UncheckedIOException e) {
      copy.discard();
      throw new HomeException("cannot copy " + data + " for reading: " + e.getMessage(), e);
    }
    LevelDbKvStore db;
    List<String> damage = new ArrayList<>();
    try {
      db = copy.open(damage);
    } catch (StorageException e) {
      copy.discard();
      throw new HomeException( // name the home's files, not the temporary copy's
          "cannot open the database of " + home + ": "
              + e.getMessage().replace(copy.dir.toString(), data.toString()),
          e);
    }
    try {
      HomeSnapshot snapshot =
          new HomeSnapshot(home, copy, db, NodeHome.readLastBlock(db), damage);
      BlockContext ctx = snapshot.context(Instant.EPOCH);
      RateLimitKeeper keeper = snapshot.keeper();
      keeper.requireCurrentLayout(ctx);
      if (keeper.getHourEpoch(ctx).isEmpty()) {
        throw new HomeException(
            "its rate-limit store (keys under " + NodeHome.PREFIX_TEXT + ") holds no hour epoch:"
                + " InitGenesis never ran on it"
                + (damage.isEmpty()
                    ? ", or the chain keeps the module under another store prefix"
                    : ", or its damaged write-ahead log lost it (LevelDB: " + damage.get(0) + ")"));
      }
      return snapshot;
    } catch (RuntimeException e) {
      copy.discard();
      throw new HomeException("cannot read the database of " + home + ": " + e.getMessage(), e);
    }
  }

  /**
   * Throws when {@code path}, which {@link Files#exists} or {@link Files#isRegularFile} did not
   * find, may be there but this user may not look (a home of the node's own user, mode 700):
   * "no database" or "does not exist" would send the operator looking for the wrong thing.
   */
  private static void requireReadable(Path home, Path path) {
    try {
      Files.readAttributes(path, BasicFileAttributes.class);
    } catch (AccessDeniedException e) {
      throw permissionDenied(home, e);
    } catch (IOException absentOrOther) {
      // absent (or of another kind): the caller's message says so
    }
  }

  private static HomeException permissionDenied(Path home, AccessDeniedException e) {
    return new HomeException("cannot read the database of " + home + ": permission denied"
        + (e.getFile() == null ? "" : " on " + e.getFile())
        + " (run the query as a user who may read the home, such as the node's)", e);
  }

  /**
   * Whether a copy's shutdown hook has run (Ctrl-C, SIGTERM): a query still running then fails on
   * the closed database or the deleted copy, an error that is not the home's, not worth printing.
   */
  public static boolean stopped() {
    return stopped;
  }

  /**
   * The temporary copy, deleted once: by {@link #discard} or by its shutdown hook. Every write into
   * it (a copied file, LevelDB's open) runs under this lock and only while the copy stands, so the
   * hook, taking the lock, deletes a copy nothing writes into any more.
   */
  static final class TempCopy {
    final Path dir;
    private final Thread hook;
    private LevelDbKvStore db;
    private boolean deleted;

    TempCopy(Path dir) {
      this.dir = dir;
      this.hook = new Thread(() -> {
        stopped = true; // first: what the query meets from now on is of the stop, not the home
        delete();
      }, "ratelimit-query-cleanup");
      Runtime.getRuntime().addShutdownHook(hook);
    }

    synchronized void createDirectories(Path d) throws IOException {
      requireStanding();
      Files.createDirectories(d);
    }

    synchronized void copy(Path file, Path to) throws IOException {
      requireStanding();
      Files.copy(file, to, StandardCopyOption.REPLACE_EXISTING);
    }

    synchronized LevelDbKvStore open(List<String> damage) {
      requireStanding();
      db = openReportingDamage(dir, damage);
      return db;
    }

    private void requireStanding() throws UncheckedIOException {
      if (deleted) {
        throw new UncheckedIOException(new IOException("the query is being stopped"));
      }
    }

    /** Closes the database and deletes the copy, once. */
    synchronized void delete() {
      if (deleted) {
        return;
      }
      deleted = true;
      try {
        if (db != null) {
          db.close(); // waits for LevelDB's own writes (a compaction) to end
        }
      } finally {
        deleteTree(dir);
      }
    }

    /** Deletes the copy now; the hook is no longer needed. */
    void discard() {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException shuttingDown) {
        // the hook is running or about to: delete() below waits for it or does it
      }
      delete();
    }
  }

  public Path home() {
    return home;
  }

  /** The node's whole store (a copy). */
  public KvStore db() {
    return db;
  }

  /** What opening the home reported (a damaged write-ahead log), for stderr. */
  public List<String> warnings() {
    return damage.stream()
        .map(line -> "the database's write-ahead log is damaged (LevelDB: " + line
            + "); what it lost is not read, as a node reopening the home would not read it")
        .toList();
  }

  /** The last committed block, if the home records one. */
  public Optional<NodeHome.LastBlock> lastBlock() {
    return lastBlock;
  }

  /**
   * {@code config/channels.json}, if present; read when first asked for, so only what needs it
   * fails on a damaged one.
   *
   * @throws HomeException when the file cannot be read or is malformed
   */
  public Optional<Map<String, String>> chainIds() {
    if (chainIds == null) {
      chainIds = ChannelsFile.read(home);
    }
    return chainIds;
  }

  /**
   * A keeper over this home: no bank (queries read no supply), channels and clients from {@code
   * config/channels.json}, read only if the keeper asks about one.
   */
  public RateLimitKeeper keeper() {
    return new RateLimitKeeper(
        (ctx, denom) -> BigInteger.ZERO,
        ChannelsFile.asIbcChannels(() -> chainIds().orElse(Map.of())));
  }

  /**
   * A context at the last committed block (its height and time; without a record, height 0 and
   * {@code fallbackTime}) over the module's keys. Nothing written through it reaches the home.
   */
  public BlockContext context(Instant fallbackTime) {
    long height = lastBlock.map(NodeHome.LastBlock::height).orElse(0L);
    Instant time = lastBlock.map(NodeHome.LastBlock::time).orElse(fallbackTime);
    return BlockContext.of(height, time, NodeHome.rateLimitStore(db), EventSink.discarding());
  }

  /** Closes the copy and deletes it. */
  @Override
  public void close() {
    copy.discard();
  }

  static void copyTree(Path from, TempCopy copy) throws IOException {
    Path to = copy.dir;
    Files.walkFileTree(
        from,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            copy.createDirectories(to.resolve(from.relativize(dir).toString()));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            copy.copy(file, to.resolve(from.relativize(file).toString()));
            return FileVisitResult.CONTINUE;
          }
        });
  }

  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.deleteIfExists(p);
        } catch (IOException ignored) {
          // best effort: a temporary directory
        }
      });
    } catch (IOException ignored) {
      // best effort
    }
  }
}
