/**
 * Key-value storage: the port the keeper codes against, two engines behind it, and branches.
 *
 * <ul>
 *   <li>{@link dev.ratelimit.core.store.KvStore} is the port: point reads and writes, ordered range
 *       and prefix scans ({@link dev.ratelimit.core.store.KvScan}, which must be closed), and
 *       atomic {@link dev.ratelimit.core.store.WriteBatch} writes.
 *   <li>{@link dev.ratelimit.core.store.MemoryKvStore} (tests, embedding) and {@link
 *       dev.ratelimit.core.store.LevelDbKvStore} (on disk, iq80 LevelDB) order keys identically:
 *       unsigned bytewise, see {@link dev.ratelimit.core.store.Bytes#compare}. Both pass the same
 *       contract tests, so code tested in memory iterates the same way on disk. A host's own
 *       engine runs them too: {@code KvStoreContractTest}, in this module's test jar.
 *   <li>{@link dev.ratelimit.core.store.KvStore#branch()} gives a {@link
 *       dev.ratelimit.core.store.KvBranch}: writes stay in the branch until {@code commit()}
 *       applies them to the parent in one atomic write, or {@code discard()}/{@code close()} drops
 *       them. A transaction runs in a branch so a rejected message leaves no trace; branches nest.
 *   <li>{@link dev.ratelimit.core.store.StoreDigest} fingerprints a store's content (tests, app
 *       hash).
 * </ul>
 *
 * <p>Engine failures surface as the unchecked {@link dev.ratelimit.core.store.StorageException};
 * caller mistakes (null keys or values, inverted scan ranges, use of a finished branch) as {@code
 * NullPointerException}, {@code IllegalArgumentException} or {@code IllegalStateException}.
 */
package dev.ratelimit.core.store;
