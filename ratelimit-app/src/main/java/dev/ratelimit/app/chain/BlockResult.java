package dev.ratelimit.app.chain;

import dev.ratelimit.core.host.Event;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * A committed block: its log entry, app hash, transaction results and every event in order
 * (BeginBlock, transactions, EndBlock).
 */
public record BlockResult(Block block, byte[] appHash, List<TxResult> txs, List<Event> events) {
  public BlockResult {
    Objects.requireNonNull(block, "block");
    appHash = appHash.clone();
    txs = List.copyOf(txs);
    events = List.copyOf(events);
  }

  public long height() {
    return block.height();
  }

  public Instant time() {
    return block.time();
  }

  @Override
  public byte[] appHash() {
    return appHash.clone();
  }

  /** The app hash as 64 lower-case hex digits. */
  public String appHashHex() {
    return HexFormat.of().formatHex(appHash);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BlockResult r
        && block.equals(r.block)
        && Arrays.equals(appHash, r.appHash)
        && txs.equals(r.txs)
        && events.equals(r.events);
  }

  @Override
  public int hashCode() {
    return Objects.hash(block, txs, events) * 31 + Arrays.hashCode(appHash);
  }
}
