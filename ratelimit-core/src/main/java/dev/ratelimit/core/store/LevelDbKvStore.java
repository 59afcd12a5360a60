package dev.ratelimit.core.store;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.iq80.leveldb.DB;
import org.iq80.leveldb.DBIterator;
import org.iq80.leveldb.Options;
import org.iq80.leveldb.WriteOptions;
import org.iq80.leveldb.impl.Iq80DBFactory;

/**
 * A {@link KvStore} on disk, backed by the pure-Java iq80 LevelDB port. Its default bytewise
 * comparator is the same unsigned order as {@link MemoryKvStore}.
 *
 * <p><b>Durability.</b> {@link #put}, {@link #delete} and {@link #write} are not synced: they
 * survive a process crash (the write-ahead log is written before the call returns) but possibly not
 * an operating-system crash or power loss. {@link #writeSync} additionally fsyncs the log before
 * returning; use it for the one write that commits a block.
 *
 * <p>iq80 keeps the arrays passed to it in its memtable, so this class copies keys and values
 * before handing them over. A scan sees the store as it was when the scan started. Closing the
 * store closes the scans still open. Every engine failure (iq80 also throws plain runtime
 * exceptions) is rethrown as a {@link StorageException} naming the directory, which a chain must
 * treat as fatal, never as a failed transaction. Not thread-safe; the caller owns the store and
 * must {@link #close()} it.
 *
 * <p><b>Reads never overlap a background compaction.</b> iq80 0.12 reads through the version that
 * is current when a read starts without pinning it: a compaction that finishes meanwhile deletes
 * table files the read still needs, and the read fails ("Could not open table", seen after about
 * 18,000 blocks of a stress run). On a chain that is a nondeterministic failure: the same block
 * could fail on one node and pass on another. So compactions are suspended while this store is
 * read and resumed when it is written (a write may need a memtable flush, which runs on the
 * compaction thread); a write while scans are open first reads their remaining entries into
 * memory.
 *
 * <p><b>File I/O by JDK.</b> iq80 memory-maps its table and log files and unmaps them through
 * {@code sun.misc.Unsafe::invokeCleaner}, which JDK 24 and later warn about at every start (JEP
 * 498) and a JDK that denies that access refuses: a new database then cannot be created, and an
 * existing one fails on first use (a log switch, a close). So from JDK 24 on this class has iq80
 * read and write its files through file channels instead: the same files, about 20 % fewer
 * transfers per second in the example app (measured on JDK 17). The system property {@value
 * #MMAP_PROPERTY} ({@code true} or {@code false}), when set on the command line, decides instead.
 * The property is JVM-wide (iq80 has no per-database switch), and iq80 reads it once, when its
 * factory class is first used: a host that used iq80 before this class keeps what it chose then.
 * {@link #memoryMapped()} tells what iq80 chose.
 *
 * <p><b>File names and the locale.</b> iq80 names its files with {@code String.format} in the
 * JVM's default format locale, so under a locale that writes other digits than 0-9 (Arabic in
 * Egypt or Saudi Arabia, Persian, Bengali, Nepali, Burmese, Thai with its digits...) a database's
 * files are named {@code ٠٠٠٠٠٣.log}, not {@code 000003.log}. Such a database cannot be opened
 * under a locale with other digits (iq80 looks for the other names), and cannot be created at all
 * where file names are ASCII (a POSIX locale). So {@link #open} refuses such a locale, and a
 * directory holding a file so named, with a {@link StorageException} saying what to do: add
 * {@code nu-latn} to the locale's Unicode extensions ({@code -Duser.extensions=u-nu-latn} when it
 * has none: the same language, digits 0-9) or use another format locale. An application's {@code
 * main} can instead call {@link #useDigitsZeroToNineForFormatting()}. iq80 names new files as it
 * writes, so a write after the default format locale changed to other digits is refused too. Which
 * locales write other digits depends on the JDK's locale data (plain {@code ar} writes Arabic-Indic
 * digits on 17, and 0-9 on 25).
 */
public final class LevelDbKvStore implements KvStore, AutoCloseable {
  /** iq80's switch between memory-mapped and file-channel I/O. */
  public static final String MMAP_PROPERTY = "leveldb.mmap";

  static {
    if (!mapsFiles(System.getProperty(MMAP_PROPERTY), Runtime.version().feature())) {
      System.setProperty(MMAP_PROPERTY, "false");
    }
  }

  private static final WriteOptions NO_SYNC = new WriteOptions().sync(false);
  private static final WriteOptions SYNC = new WriteOptions().sync(true);

  private final Path dir;
  private final DB db;
  private final Set<LevelDbScan> openScans = Collections.newSetFromMap(new IdentityHashMap<>());
  private boolean closed;
  private boolean compactionsSuspended;
  /** The default format locale last found to write digits 0-9 (see {@link #beforeWrite}). */
  private Locale checkedFormat;

  private LevelDbKvStore(Path dir, DB db, Locale checkedFormat) {
    this.dir = dir;
    this.db = db;
    this.checkedFormat = checkedFormat;
  }

  /**
   * Opens the database in {@code dir}, creating the directory (and parents) and an empty database
   * if missing.
   *
   * @throws StorageException if the directory cannot be created, or the database cannot be opened
   *     (for example it is corrupt or already open, in this process or another)
   */
  public static LevelDbKvStore open(Path dir) {
    Objects.requireNonNull(dir, "dir");
    Locale format = Locale.getDefault(Locale.Category.FORMAT);
    if (!namesFilesPortably(format)) {
      throw new StorageException(
          "cannot open LevelDB at " + dir + ": iq80 names its files in the default format locale "
              + format.toLanguageTag() + ", which writes the number " + PROBE_NUMBER + " as "
              + iq80FileNumber(format) + ", and a database so named cannot be opened under a"
              + " locale with other digits: add nu-latn to the locale's Unicode extensions (the"
              + " same language, digits 0-9; -Duser.extensions=u-nu-latn when it has none) or use"
              + " another format locale");
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException | RuntimeException e) {
      throw new StorageException("cannot create LevelDB directory " + dir + ": " + e, e);
    }
    requirePortableFileNames(dir);
    Options options = new Options().createIfMissing(true);
    try {
      return new LevelDbKvStore(dir, Iq80DBFactory.factory.open(dir.toFile(), options), format);
    } catch (IOException | RuntimeException e) {
      // iq80 reports a lock held in this JVM as OverlappingFileLockException, and a lock held by
      // another process or corruption as IllegalStateException / DBException.
      throw new StorageException(
          "cannot open LevelDB at " + dir + ": " + e + damageHint(e) + mmapHint(), e);
    }
  }

  /**
   * Names the likely cause when iq80 found a file its {@code CURRENT} names missing, or a file
   * corrupt: an operator reads "damaged" sooner than a bare FileNotFoundException. (A file there
   * but not readable, e.g. owned by another user, is a FileNotFoundException too: not damage.)
   */
  static String damageHint(Exception e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    boolean damaged =
        (e instanceof FileNotFoundException && missing(message)) || message.startsWith("corruption");
    return damaged
        ? " (the database files are damaged or incomplete: restore the directory from a backup"
            + " or a state snapshot)"
        : "";
  }

  /**
   * Whether iq80 memory-maps its files in this JVM (false: file channels). See the class
   * documentation.
   */
  public static boolean memoryMapped() {
    return Iq80DBFactory.USE_MMAP;
  }

  /** A number with every digit: how a locale writes it shows whether its digits are 0-9. */
  private static final long PROBE_NUMBER = 1_234_567_890L;

  /** How iq80 ({@code Filename}: {@code String.format("%06d.log", n)}...) writes a file number. */
  static String iq80FileNumber(Locale formatLocale) {
    return String.format(formatLocale, "%06d", PROBE_NUMBER);
  }

  static boolean namesFilesPortably(Locale formatLocale) {
    return iq80FileNumber(formatLocale).equals(Long.toString(PROBE_NUMBER));
  }

  /**
   * Whether this JVM's default format locale writes numbers with digits 0-9, so iq80's file names
   * are the same under every locale and {@link #open} accepts it. See the class documentation.
   */
  public static boolean namesFilesPortably() {
    return namesFilesPortably(Locale.getDefault(Locale.Category.FORMAT));
  }

  /**
   * For an application's {@code main}, before it opens a database: when the default format locale
   * writes other digits than 0-9, makes it the same locale with digits 0-9 (the Unicode extension
   * {@code nu-latn}); otherwise does nothing. This changes the JVM's default locale for
   * formatting, which is the application's to decide: a library should leave it to its host.
   */
  public static void useDigitsZeroToNineForFormatting() {
    Locale format = Locale.getDefault(Locale.Category.FORMAT);
    if (!namesFilesPortably(format)) {
      Locale.setDefault(
          Locale.Category.FORMAT,
          // through the language tag: setLocale refuses old-style variants (WIN, TRADITIONAL)
          new Locale.Builder()
              .setLanguageTag(format.toLanguageTag())
              .setUnicodeLocaleKeyword("nu", "latn")
              .build());
    }
  }

  /**
   * Refuses a directory holding a numbered iq80 file whose number is not in digits 0-9: iq80 named
   * it under a locale with other digits, and would look for the 0-9 name instead.
   */
  private static void requirePortableFileNames(Path dir) {
    List<String> names;
    try (Stream<Path> files = Files.list(dir)) {
      names = files.map(f -> f.getFileName().toString()).sorted().collect(Collectors.toList());
    } catch (IOException | RuntimeException e) {
      throw new StorageException("cannot list LevelDB directory " + dir + ": " + e, e);
    }
    String fileNameEncoding = System.getProperty("sun.jnu.encoding");
    for (String name : names) {
      Optional<String> why = unportableFileName(name, fileNameEncoding);
      if (why.isPresent()) {
        throw new StorageException("cannot open LevelDB at " + dir + ": " + why.get());
      }
    }
  }

  /**
   * Why iq80 could not open a database holding a file of this name, or empty. Only iq80's own
   * numbered names count ({@code MANIFEST-n}, {@code n.log}, {@code n.sst}, {@code n.dbtmp}, as its
   * {@code Filename.parseFileName} reads them); their number must be in digits 0-9. {@code
   * fileNameEncoding} is how this JVM decodes file names ({@code sun.jnu.encoding}, from the OS
   * locale): one that cannot hold Arabic digits reads them as U+FFFD or as other letters.
   */
  static Optional<String> unportableFileName(String name, String fileNameEncoding) {
    String number = iq80FileNumberPart(name);
    if (number == null || isZeroToNineNumber(number)) {
      return Optional.empty();
    }
    String advice = "rename each such file to its 0-9 name, and likewise the manifest name inside"
        + " CURRENT";
    if (isZeroToNineNumber(withDigitsZeroToNine(number))) {
      return Optional.of("its file " + name + " was named under a locale that writes other digits"
          + " than 0-9, and iq80 would look for " + withDigitsZeroToNine(name) + ": " + advice);
    }
    return Optional.of("iq80 cannot read the number in its file " + name + " (this JVM decodes"
        + " file names as " + fileNameEncoding + ", from the OS locale), as when iq80 named it"
        + " under a locale that writes other digits than 0-9 and an encoding that cannot hold them"
        + " reads the name: under a UTF-8 OS locale, " + advice);
  }

  private static boolean isZeroToNineNumber(String s) {
    return !s.isEmpty() && s.chars().allMatch(c -> c >= '0' && c <= '9');
  }

  /** The number part of one of iq80's numbered file names, or null for any other name. */
  private static String iq80FileNumberPart(String name) {
    if (name.startsWith("MANIFEST-")) {
      return name.substring("MANIFEST-".length());
    }
    for (String suffix : List.of(".log", ".sst", ".dbtmp")) {
      if (name.endsWith(suffix)) {
        return name.substring(0, name.length() - suffix.length());
      }
    }
    return null;
  }

  /** {@code name} with every decimal digit (of any script) written 0-9. */
  static String withDigitsZeroToNine(String name) {
    StringBuilder sb = new StringBuilder(name.length());
    name.codePoints().forEach(c -> {
      if (Character.getType(c) == Character.DECIMAL_DIGIT_NUMBER) {
        sb.append((char) ('0' + Character.digit(c, 10)));
      } else {
        sb.appendCodePoint(c);
      }
    });
    return sb.toString();
  }

  /**
   * Whether iq80 should memory-map: as {@code property} says when it is set (iq80's own reading:
   * only {@code "true"} maps), otherwise only before JDK 24.
   */
  static boolean mapsFiles(String property, int jdkFeature) {
    return property != null ? Boolean.parseBoolean(property) : jdkFeature < 24;
  }

  /** Why memory maps may be the cause, when iq80 uses them on a JDK that may refuse them. */
  private static String mmapHint() {
    return memoryMapped() && Runtime.version().feature() >= 24
        ? " (iq80 memory-maps its files in this JVM, which needs sun.misc.Unsafe on this JDK: run"
            + " with -D" + MMAP_PROPERTY + "=false)"
        : "";
  }

  /** Whether the file a FileNotFoundException names ({@code "PATH (reason)"}) is not there. */
  private static boolean missing(String fileNotFoundMessage) {
    int reason = fileNotFoundMessage.lastIndexOf(" (");
    String file = reason < 0 ? fileNotFoundMessage : fileNotFoundMessage.substring(0, reason);
    try {
      return !file.isEmpty() && !Files.exists(Path.of(file));
    } catch (RuntimeException notAPath) {
      return false;
    }
  }

  /** The directory holding the database files. */
  public Path directory() {
    return dir;
  }

  @Override
  public Optional<byte[]> get(byte[] key) {
    checkOpen();
    Bytes.requireKey(key);
    beforeRead();
    try {
      return Optional.ofNullable(db.get(key));
    } catch (RuntimeException e) {
      throw failure("get", e);
    }
  }

  @Override
  public void put(byte[] key, byte[] value) {
    checkOpen();
    Bytes.requireKey(key);
    Bytes.requireValue(value);
    beforeWrite();
    try {
      // iq80 keeps the caller's arrays in its memtable without copying them
      db.put(key.clone(), value.clone(), NO_SYNC);
    } catch (RuntimeException e) {
      throw failure("put", e);
    }
  }

  @Override
  public void delete(byte[] key) {
    checkOpen();
    Bytes.requireKey(key);
    beforeWrite();
    try {
      db.delete(key.clone(), NO_SYNC); // iq80 keeps the array, see put
    } catch (RuntimeException e) {
      throw failure("delete", e);
    }
  }

  @Override
  public KvScan scan(byte[] fromInclusive, byte[] toExclusive) {
    checkOpen();
    Bytes.checkRange(fromInclusive, toExclusive);
    beforeRead();
    DBIterator it;
    try {
      it = db.iterator();
    } catch (RuntimeException e) {
      throw failure("scan", e);
    }
    try {
      if (fromInclusive == null) {
        it.seekToFirst();
      } else {
        it.seek(fromInclusive);
      }
    } catch (RuntimeException e) {
      closeQuietly(it);
      throw failure("scan", e);
    }
    LevelDbScan scan = new LevelDbScan(it, toExclusive == null ? null : toExclusive.clone());
    openScans.add(scan);
    return scan;
  }

  /** Applies {@code batch} atomically as one LevelDB write batch, without fsync. */
  @Override
  public void write(WriteBatch batch) {
    write(batch, NO_SYNC);
  }

  /**
   * Applies {@code batch} atomically as one LevelDB write batch and fsyncs the write-ahead log
   * before returning, so the batch survives a power loss once this returns.
   */
  public void writeSync(WriteBatch batch) {
    write(batch, SYNC);
  }

  private void write(WriteBatch batch, WriteOptions options) {
    checkOpen();
    Objects.requireNonNull(batch, "batch");
    beforeWrite();
    try (org.iq80.leveldb.WriteBatch engineBatch = db.createWriteBatch()) {
      // forEach hands out fresh copies, which iq80 may keep
      batch.forEach(
          (key, value) -> {
            if (value == null) {
              engineBatch.delete(key);
            } else {
              engineBatch.put(key, value);
            }
          });
      db.write(engineBatch, options);
    } catch (IOException | RuntimeException e) {
      throw failure("write", e);
    }
  }

  /** Closes open scans, then the database. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    for (LevelDbScan scan : new ArrayList<>(openScans)) {
      scan.close();
    }
    try {
      if (compactionsSuspended) {
        compactionsSuspended = false;
        db.resumeCompactions(); // else close waits for the suspension to time out
      }
      db.close();
    } catch (IOException | RuntimeException e) {
      throw failure("close", e);
    }
  }

  @Override
  public String toString() {
    return "LevelDbKvStore[" + dir + (closed ? ", closed]" : "]");
  }

  /** Pauses background compactions (waiting for a running one to finish) before a read. */
  private void beforeRead() {
    if (compactionsSuspended) {
      return;
    }
    try {
      db.suspendCompactions();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while pausing compactions of LevelDB at " + dir, e);
    } catch (RuntimeException e) {
      throw failure("pausing compactions", e);
    }
    compactionsSuspended = true;
  }

  /**
   * Lets compactions run again before a write. Open scans first read the rest of their range,
   * since a compaction may delete the files under their iterators.
   */
  private void beforeWrite() {
    // iq80 names the files a write leads to (a new log, tables) in the default format locale:
    // refuse the write if that locale changed to one with other digits since it was checked
    Locale format = Locale.getDefault(Locale.Category.FORMAT);
    // identity on purpose: the usual write sees the very object checked last; another one, even
    // an equal one, is checked again (a format with a number, once)
    if (format != checkedFormat) {
      if (!namesFilesPortably(format)) {
        throw new StorageException(
            "LevelDB at " + dir + ": the default format locale changed to "
                + format.toLanguageTag() + " while the database is open, which writes the number "
                + PROBE_NUMBER + " as " + iq80FileNumber(format) + ", and iq80 would give the"
                + " files it writes names no other locale finds: keep a format locale with digits"
                + " 0-9 while a database is open");
      }
      checkedFormat = format;
    }
    if (!compactionsSuspended) {
      return;
    }
    for (LevelDbScan scan : openScans) {
      scan.readRemaining();
    }
    compactionsSuspended = false;
    db.resumeCompactions();
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("LevelDB store at " + dir + " is closed");
    }
  }

  private StorageException failure(String operation, Exception e) {
    return new StorageException("LevelDB " + operation + " failed at " + dir + ": " + e, e);
  }

  private static void closeQuietly(DBIterator it) {
    try {
      it.close();
    } catch (IOException | RuntimeException ignored) {
      // already failing; the first error is the one reported
    }
  }

  /** A scan over a LevelDB iterator, stopping before {@code toExclusive}. */
  private final class LevelDbScan implements KvScan {
    private final DBIterator it;
    private final byte[] toExclusive;
    private boolean closed;
    private boolean exhausted;
    /** The rest of the range, once read ahead of a write (see beforeWrite); else null. */
    private ArrayDeque<KvEntry> remaining;

    LevelDbScan(DBIterator it, byte[] toExclusive) {
      this.it = it;
      this.toExclusive = toExclusive;
    }

    @Override
    public boolean hasNext() {
      if (closed) {
        throw new IllegalStateException("scan is closed");
      }
      if (remaining != null) {
        return !remaining.isEmpty();
      }
      if (exhausted) {
        return false;
      }
      try {
        if (!it.hasNext()) {
          exhausted = true;
        } else if (toExclusive != null && Bytes.compare(it.peekNext().getKey(), toExclusive) >= 0) {
          exhausted = true;
        }
      } catch (RuntimeException e) {
        throw failure("scan", e);
      }
      return !exhausted;
    }

    void readRemaining() {
      if (remaining != null) {
        return;
      }
      ArrayDeque<KvEntry> rest = new ArrayDeque<>();
      while (hasNext()) {
        rest.add(next());
      }
      remaining = rest;
      closeQuietly(it); // its files may go once compactions resume
    }

    @Override
    public KvEntry next() {
      if (!hasNext()) {
        throw new NoSuchElementException("scan exhausted");
      }
      if (remaining != null) {
        return remaining.removeFirst();
      }
      try {
        Map.Entry<byte[], byte[]> e = it.next();
        return new KvEntry(e.getKey(), e.getValue());
      } catch (RuntimeException e) {
        throw failure("scan", e);
      }
    }

    @Override
    public void close() {
      if (closed) {
        return;
      }
      closed = true;
      openScans.remove(this);
      if (remaining != null) {
        return; // its iterator is closed already
      }
      try {
        it.close();
      } catch (IOException | RuntimeException e) {
        throw failure("closing a scan", e);
      }
    }
  }
}
