package dev.ratelimit.reliability;

import dev.ratelimit.app.chain.Block;
import dev.ratelimit.app.chain.ChainApp;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A {@link Traffic} run's block logs and app hashes per chain: {@code hashes.get(h)} is the app
 * hash after height {@code h} (0: genesis). What a replay must reproduce.
 */
record RecordedTraffic(
    List<Block> osmosisLog, List<String> osmosisHashes,
    List<Block> strideLog, List<String> strideHashes,
    String stats) {

  /** Runs {@code ticks} ticks of seeded traffic on fresh chains under {@code root}. */
  static RecordedTraffic record(java.nio.file.Path root, long seed, int ticks, int maxTransfers) {
    try (TwoChains n = Traffic.start(root)) {
      List<String> osmosisHashes = new ArrayList<>(List.of(hex(n.osmosis.lastAppHash())));
      List<String> strideHashes = new ArrayList<>(List.of(hex(n.stride.lastAppHash())));
      n.net.onCommit((chain, block) -> {
        List<String> hashes = chain == n.osmosis ? osmosisHashes : strideHashes;
        if (block.height() != hashes.size()) {
          throw new AssertionError(chain.chainId() + " skipped to height " + block.height());
        }
        hashes.add(block.appHashHex());
      });
      Traffic traffic = new Traffic(seed, n);
      for (int i = 0; i < ticks; i++) {
        traffic.step(maxTransfers);
      }
      return new RecordedTraffic(n.net.log(n.osmosis), List.copyOf(osmosisHashes),
          n.net.log(n.stride), List.copyOf(strideHashes), traffic.stats());
    }
  }

  List<Block> log(String chainId) {
    return chainId.equals(dev.ratelimit.app.relayer.OsmosisStride.OSMOSIS) ? osmosisLog : strideLog;
  }

  List<String> hashes(String chainId) {
    return chainId.equals(dev.ratelimit.app.relayer.OsmosisStride.OSMOSIS)
        ? osmosisHashes : strideHashes;
  }

  static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }

  /** Replays {@code log} on {@code app} (at genesis) and returns the hashes by height. */
  static List<String> replay(ChainApp app, List<Block> log) {
    List<String> hashes = new ArrayList<>(List.of(hex(app.lastAppHash())));
    for (Block b : log) {
      hashes.add(app.executeBlock(b).appHashHex());
    }
    return hashes;
  }
}
