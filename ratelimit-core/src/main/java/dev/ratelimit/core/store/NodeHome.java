package dev.ratelimit.core.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;

/**
 * The on-disk layout of a node's home directory that the example chain writes and the {@code
 * ratelimit} CLI reads: one LevelDB under {@code <home>/data}, the rate-limit module's keys under
 * {@link #ratelimitPrefix()}, and the last committed block's height and time under {@link
 * #lastBlockKey()} (queries measure "seconds until reset" from it).
 *
 * <p>The keys are handed out as copies: a caller that changed a shared array would move every
 * later read and write of the process to another key.
 */
public final class NodeHome {
  /** The LevelDB directory inside a home. */
  public static final String DATA_DIR = "data";

  /** {@link #ratelimitPrefix()} as text, for messages. */
  public static final String PREFIX_TEXT = "s/ratelimit/";

  private static final byte[] RATELIMIT_PREFIX = PREFIX_TEXT.getBytes(StandardCharsets.US_ASCII);

  private static final byte[] LAST_BLOCK_KEY = "m/last_block".getBytes(StandardCharsets.US_ASCII);

  private NodeHome() {}

  /**
   * Every key of the rate-limit module starts with this: {@code s/ratelimit/} (a new array on each
   * call).
   */
  public static byte[] ratelimitPrefix() {
    return RATELIMIT_PREFIX.clone();
  }

  /**
   * The key of the last committed block's height (8 bytes) and time (seconds 8 bytes, nanos 4
   * bytes): {@code m/last_block} (a new array on each call).
   */
  public static byte[] lastBlockKey() {
    return LAST_BLOCK_KEY.clone();
  }

  /** A committed block's header facts. */
  public record LastBlock(long height, Instant time) {}

  /** {@code <home>/data}. */
  public static java.nio.file.Path dataDir(java.nio.file.Path home) {
    return home.resolve(DATA_DIR);
  }

  /**
   * The rate-limit module's keys of the node's store, for tools that read them directly. A keeper
   * built with {@link #ratelimitPrefix()} adds the prefix itself: give it (and the query service)
   * the whole store, not this view.
   */
  public static KvStore rateLimitStore(KvStore db) {
    return new PrefixKvStore(db, RATELIMIT_PREFIX);
  }

  public static void writeLastBlock(KvStore db, LastBlock block) {
    ByteBuffer b = ByteBuffer.allocate(20);
    b.putLong(block.height()).putLong(block.time().getEpochSecond()).putInt(block.time().getNano());
    db.put(LAST_BLOCK_KEY, b.array());
  }

  public static Optional<LastBlock> readLastBlock(KvStore db) {
    return db.get(LAST_BLOCK_KEY)
        .map(
            raw -> {
              if (raw.length != 20) {
                throw new StorageException("corrupt last block record: " + raw.length + " bytes");
              }
              ByteBuffer b = ByteBuffer.wrap(raw);
              long height = b.getLong();
              return new LastBlock(height, Instant.ofEpochSecond(b.getLong(), b.getInt()));
            });
  }
}
