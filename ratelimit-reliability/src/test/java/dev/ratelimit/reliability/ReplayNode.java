package dev.ratelimit.reliability;

import dev.ratelimit.app.chain.AppGenesis;
import dev.ratelimit.app.chain.Block;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.inject.ChainComponent;
import dev.ratelimit.app.relayer.OsmosisStride;
import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.core.store.LevelDbKvStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;

/**
 * A node in a child JVM (launched by {@link CrashSafetyTest} and {@link DeterminismTest} with the
 * test classpath): opens a chain home on LevelDB, applies the {@link Traffic} genesis when the
 * home is empty, and replays a {@link BlockLog} from the block after the home's last committed
 * one, printing one line per step:
 *
 * <pre>
 * OPEN &lt;true|false&gt;        the home is open; whether iq80 memory-maps its files
 * GENESIS &lt;app hash&gt;      after InitChain
 * COMMIT &lt;height&gt;          EndBlock ran; the block's commit starts now
 * DONE &lt;height&gt; &lt;app hash&gt;  the block is committed
 * END                       the log is exhausted
 * </pre>
 *
 * Arguments: {@code <home> <chain-id> <block-log>}.
 */
public final class ReplayNode {
  private ReplayNode() {}

  public static void main(String[] args) {
    // as a node's main should: under ar-SA (DeterminismTest) iq80 would name files ٠٠٠٠٠٣.log
    LevelDbKvStore.useDigitsZeroToNineForFormatting();
    Path home = Path.of(args[0]);
    String chainId = args[1];
    List<Block> log = BlockLog.read(Path.of(args[2]));
    PrintStream out = System.out;
    boolean osmosis = chainId.equals(OsmosisStride.OSMOSIS);
    String authority = osmosis ? OsmosisStride.OSMOSIS_AUTHORITY : OsmosisStride.STRIDE_AUTHORITY;
    AppGenesis genesis = osmosis ? Traffic.osmosisGenesis() : Traffic.strideGenesis();
    try (ChainApp app = ChainComponent.open(home, chainId, authority)) {
      say(out, "OPEN " + LevelDbKvStore.memoryMapped());
      if (!app.isInitialized()) {
        say(out, "GENESIS " + hex(app.initChain(genesis)));
      }
      for (Block b : log) {
        if (b.height() <= app.lastHeight()) {
          continue;
        }
        app.beginBlock(b.height(), b.time());
        for (Msg m : b.msgs()) {
          app.deliverTx(m);
        }
        app.endBlock();
        say(out, "COMMIT " + b.height());
        byte[] hash = app.commit().appHash();
        say(out, "DONE " + b.height() + " " + hex(hash));
      }
    }
    say(out, "END");
  }

  private static void say(PrintStream out, String line) {
    out.println(line);
    out.flush();
  }

  static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }
}
