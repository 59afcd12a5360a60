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
 * process is stopped first (Ctrl-C, SIGTERM). The copy is taken file by file; run queries against
 * a stopped node, or accept that a block being committed meanwhile may be seen half-copied
 * (LevelDB then recovers what its log holds).
 */
public final class HomeSnapshot implements AutoCloseable {
  private final Path home;
  private final Path copy;
  private final Thread deleteOnExit;
  private final LevelDbKvStore db;
  private final Optional<NodeHome.LastBlock> lastBlock;
  private final List<String> damage;
  private Optional<Map<String, String>> chainIds; // read when first asked for

  private HomeSnapshot(
      Path home,
      Path copy,
      Thread deleteOnExit,
      LevelDbKvStore db,
      Optional<NodeHome.LastBlock> lastBlock,
      List<String> damage) {
    this.home = home;
    this.copy = copy;
    this.deleteOnExit = deleteOnExit;
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
      throw new HomeException("home " + home + " does not exist");
    }
    if (!Files.isDirectory(home)) {
      throw new HomeException("home " + home + " is not a directory");
    }
    Path data = NodeHome.dataDir(home);
    if (!Files.isRegularFile(data.resolve("CURRENT"))) {
      throw new HomeException(
          "no database in " + home + " (expected a LevelDB in " + data
              + "; create one with 'ratelimit demo --home DIR' or a node)" + homeHint(home));
    }
    Path copy;
    try {
      copy = Files.createTempDirectory("ratelimit-query-");
    } catch (IOException e) {
      throw new HomeException("cannot copy " + data + " for reading: " + e.getMessage(), e);
    }
    Thread deleteOnExit = new Thread(() -> deleteTree(copy), "ratelimit-query-cleanup");
    Runtime.getRuntime().addShutdownHook(deleteOnExit);
    try {
      copyTree(data, copy);
    } catch (IOException | UncheckedIOException e) {
      discard(copy, deleteOnExit);
      throw new HomeException("cannot copy " + data + " for reading: " + e.getMessage(), e);
    }
    LevelDbKvStore db;
    List<String> damage = new ArrayList<>();
    try {
      db = openReportingDamage(copy, damage);
    } catch (StorageException e) {
      discard(copy, deleteOnExit);
      throw new HomeException( // name the home's files, not the temporary copy's
          "cannot open the database of " + home + ": "
              + e.getMessage().replace(copy.toString(), data.toString()),
          e);
    }
    try {
      HomeSnapshot snapshot =
          new HomeSnapshot(home, copy, deleteOnExit, db, NodeHome.readLastBlock(db), damage);
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
      db.close();
      discard(copy, deleteOnExit);
      throw new HomeException("cannot read the database of " + home + ": " + e.getMessage(), e);
    }
  }

  private static void discard(Path copy, Thread deleteOnExit) {
    try {
      Runtime.getRuntime().removeShutdownHook(deleteOnExit);
    } catch (IllegalStateException shuttingDown) {
      // the hook is running or about to: it deletes the copy too
    }
    deleteTree(copy);
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
    try {
      db.close();
    } finally {
      discard(copy, deleteOnExit);
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    Files.walkFileTree(
        from,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs)
              throws IOException {
            Files.createDirectories(to.resolve(from.relativize(dir).toString()));
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            Files.copy(
                file, to.resolve(from.relativize(file).toString()),
                StandardCopyOption.REPLACE_EXISTING);
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
