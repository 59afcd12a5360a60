package dev.ratelimit.cli.simulate;

import dev.ratelimit.cli.query.ChannelsFile;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.LevelDbKvStore;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.store.NodeHome;
import java.nio.file.Path;
import java.util.Map;

/**
 * The database a scenario runs over: the module's keys go under {@link NodeHome#ratelimitPrefix()}
 * and each committed block writes {@link NodeHome#writeLastBlock}, exactly as in a node's home.
 */
public interface SimulationStore extends AutoCloseable {

  /** The whole database (the runner takes the module's prefix view of it). */
  KvStore db();

  /**
   * Called once the scenario's last block is committed, with the channel and client ids it ended
   * with and their counterparty chain ids.
   */
  default void finished(Map<String, String> counterpartyChainIds) {}

  @Override
  void close();

  /** A fresh in-memory database per scenario. */
  static StoreProvider memory() {
    return scenario -> {
      MemoryKvStore db = new MemoryKvStore();
      return new SimulationStore() {
        @Override
        public KvStore db() {
          return db;
        }

        @Override
        public void close() {}
      };
    };
  }

  /**
   * The LevelDB of a node home ({@code <home>/data}), which the caller made sure is empty; when
   * the scenario finishes, {@code <home>/config/channels.json} records its channels and clients
   * so that {@code rate-limits-by-chain} can resolve chain ids.
   */
  static StoreProvider leveldb(Path home) {
    return scenario -> {
      LevelDbKvStore db = LevelDbKvStore.open(NodeHome.dataDir(home));
      return new SimulationStore() {
        @Override
        public KvStore db() {
          return db;
        }

        @Override
        public void finished(Map<String, String> counterpartyChainIds) {
          ChannelsFile.write(home, counterpartyChainIds);
        }

        @Override
        public void close() {
          db.close();
        }
      };
    };
  }

  /** Opens the database of one scenario. */
  @FunctionalInterface
  interface StoreProvider {
    SimulationStore open(Scenario scenario);
  }
}
