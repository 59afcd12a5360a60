package dev.ratelimit.cli.query;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.ratelimit.app.chain.NodeConfig;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.Texts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * {@code <home>/config/channels.json}: which chain each channel or client id leads to, as a flat
 * JSON object {@code {"channel-5": "osmosis-1", "07-tendermint-0": "cosmoshub-4"}}.
 *
 * <p>A home's database holds the rate-limit module's state, not IBC core's channels, so {@code
 * rate-limits-by-chain} resolves counterparty chain ids from this file. {@code ratelimit simulate
 * --home} and {@code ratelimit demo --home} write it from the scenario's channels and
 * clients; a node may write it too. Without it, no id resolves and the query answers an empty list
 * (ids whose chain cannot be resolved are skipped, SPEC §7).
 */
public final class ChannelsFile {
  private static final ObjectMapper JSON =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS) // one object, nothing after it
          .build();

  private ChannelsFile() {}

  /**
   * The id → chain id map, or empty when the file does not exist.
   *
   * @throws HomeException when the file cannot be read or is not one flat object from channel or
   *     client ids to non-blank chain ids
   */
  public static Optional<Map<String, String>> read(Path home) {
    Path file = NodeConfig.channelsFile(home);
    if (!Files.exists(file)) {
      return Optional.empty();
    }
    JsonNode root;
    try {
      String text = Files.readString(file, StandardCharsets.UTF_8);
      // a byte-order mark, as an editor may write one: taken, as in scenario and genesis files
      root = JSON.readTree(text.startsWith("\uFEFF") ? text.substring(1) : text);
    } catch (JsonProcessingException e) {
      throw new HomeException(file + ": bad JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new HomeException("cannot read " + file + ": " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new HomeException(file + ": expected an object of channel or client id to chain id");
    }
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, JsonNode> e : root.properties()) {
      String id = Texts.quote(e.getKey());
      if (!Identifiers.isChannelOrClientId(e.getKey())) {
        throw new HomeException(file + ": " + id + " is not a channel or client id");
      }
      if (!e.getValue().isTextual() || Texts.isGoBlank(e.getValue().textValue())) {
        throw new HomeException(file + ": " + id + " must map to a chain id (a non-blank string)");
      }
      out.put(e.getKey(), e.getValue().textValue());
    }
    return Optional.of(Collections.unmodifiableMap(out));
  }

  /** Writes the map (sorted by id), creating {@code <home>/config}, as the example app's nodes do. */
  public static void write(Path home, Map<String, String> chainIds) {
    try {
      NodeConfig.writeChannels(home, chainIds);
    } catch (UncheckedIOException e) {
      throw new HomeException(e.getMessage() + ": " + e.getCause().getMessage(), e);
    }
  }

  /**
   * The host port over such a map, asked for on each call (so a caller can read the file only
   * when the keeper first needs it): an id exists iff it is in the map.
   */
  public static IbcChannels asIbcChannels(Supplier<Map<String, String>> chainIds) {
    return new IbcChannels() {
      @Override
      public boolean channelOrClientExists(BlockContext ctx, String channelOrClientId) {
        return chainIds.get().containsKey(channelOrClientId);
      }

      @Override
      public Optional<String> counterpartyChainId(BlockContext ctx, String channelOrClientId) {
        return Optional.ofNullable(chainIds.get().get(channelOrClientId));
      }
    };
  }
}
