package dev.ratelimit.app.chain;

import dev.ratelimit.app.ibc.ChannelEnd;
import dev.ratelimit.app.ibc.ClientState;
import dev.ratelimit.app.ibc.IbcCore;
import dev.ratelimit.app.ibc.v2.ClientCounterparty;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Files of a node home next to its database, for tools that do not run the chain: {@code
 * <home>/config/channels.json} maps each transfer channel and its client to the chain id they
 * lead to, a flat JSON object sorted by id, e.g. {@code {"07-tendermint-0": "osmosis-1",
 * "channel-5": "osmosis-1"}} (the CLI answers {@code rate-limits-by-chain} from it: a rate limit
 * names a channel, or a client in IBC v2).
 */
public final class NodeConfig {
  /** {@code config} inside a home. */
  public static final String CONFIG_DIR = "config";
  /** The channel map's file name inside {@link #CONFIG_DIR}. */
  public static final String CHANNELS_FILE = "channels.json";

  private NodeConfig() {}

  /** {@code <home>/config/channels.json}. */
  public static Path channelsFile(Path home) {
    return home.resolve(CONFIG_DIR).resolve(CHANNELS_FILE);
  }

  /**
   * Writes {@code <home>/config/channels.json} from the chain's committed IBC state: one entry per
   * channel on port {@code transfer} and per client such a channel runs over or with an IBC v2
   * counterparty, valued with the client's chain id, sorted by id.
   *
   * @throws UncheckedIOException if the file cannot be written
   */
  public static Path writeChannels(Path home, ChainApp app) {
    Map<String, String> channels =
        app.query(
            ctx -> {
              Map<String, String> out = new TreeMap<>();
              for (ChannelEnd ch : app.ibc().channels(ctx)) {
                app.ibc()
                    .client(ctx, ch.clientId())
                    .ifPresent(c -> out.put(c.clientId(), c.chainId()));
                if (ch.portId().equals(IbcCore.TRANSFER_PORT)) {
                  app.ibc()
                      .client(ctx, ch.clientId())
                      .map(ClientState::chainId)
                      .ifPresent(chainId -> out.put(ch.channelId(), chainId));
                }
              }
              for (ClientCounterparty c : app.ibcV2().counterparties(ctx)) { // IBC v2's clients
                app.ibc()
                    .client(ctx, c.clientId())
                    .ifPresent(client -> out.put(client.clientId(), client.chainId()));
              }
              return out;
            });
    return writeChannels(home, channels);
  }

  /**
   * Writes {@code <home>/config/channels.json} from an id → chain id map, sorted by id, one entry
   * per line; the one writer of the file (the CLI's scenario runner uses it too).
   *
   * @throws UncheckedIOException if the file cannot be written
   */
  public static Path writeChannels(Path home, Map<String, String> chainIds) {
    Map<String, String> channels = new TreeMap<>(chainIds);
    StringBuilder json = new StringBuilder("{");
    String sep = "\n";
    for (Map.Entry<String, String> e : channels.entrySet()) {
      json.append(sep).append("  ").append(quote(e.getKey())).append(": ").append(quote(e.getValue()));
      sep = ",\n";
    }
    json.append(channels.isEmpty() ? "}\n" : "\n}\n");
    Path file = channelsFile(home);
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, json, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
    return file;
  }

  private static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format(java.util.Locale.ROOT, "\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }
}
