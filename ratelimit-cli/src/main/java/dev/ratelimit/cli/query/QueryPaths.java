package dev.ratelimit.cli.query;

import dev.ratelimit.core.query.RateLimitQueryServer;
import java.util.ArrayList;
import java.util.List;

/**
 * The paths one query may have on a node. The rate-limit module's lineage serves the same query
 * messages (same field numbers and types, so the same bytes) under three services, and has renamed
 * two methods on the way:
 *
 * <ul>
 *   <li>{@code ratelimit.v1}: this library and cosmos/ibc-apps; ibc-apps up to v9 has {@code
 *       RateLimitsByChannelId} where v10 has {@code RateLimitsByChannelOrClientId};
 *   <li>{@code ibc.applications.rate_limiting.v1}: ibc-go, which spells {@code ...ChainID} and
 *       {@code ...ChannelOrClientID};
 *   <li>{@code stride.ratelimit}: Stride's {@code x/ratelimit}, with {@code RateLimitsByChannelId}
 *       in older releases.
 * </ul>
 *
 * <p>A node answers "unknown query path" for the ones it does not serve, so they are tried in
 * this order, this library's own first.
 */
final class QueryPaths {
  private static final String OURS = "/" + RateLimitQueryServer.SERVICE + "/";
  private static final String IBC_GO = "/ibc.applications.rate_limiting.v1.Query/";
  private static final String STRIDE = "/stride.ratelimit.Query/";

  private QueryPaths() {}

  /**
   * Every path {@code path} may have, itself first.
   *
   * @param path a method of this library's service, {@code /ratelimit.v1.Query/<Rpc>}; any other
   *     path is the only one tried
   */
  static List<String> candidates(String path) {
    if (!path.startsWith(OURS)) {
      return List.of(path);
    }
    String rpc = path.substring(OURS.length());
    List<String> paths = new ArrayList<>();
    paths.add(path);
    switch (rpc) {
      case "RateLimitsByChannelOrClientId" -> {
        paths.add(OURS + "RateLimitsByChannelId");
        paths.add(IBC_GO + "RateLimitsByChannelOrClientID");
        paths.add(STRIDE + rpc);
        paths.add(STRIDE + "RateLimitsByChannelId");
      }
      case "RateLimitsByChainId" -> {
        paths.add(IBC_GO + "RateLimitsByChainID");
        paths.add(STRIDE + rpc);
      }
      default -> {
        paths.add(IBC_GO + rpc);
        paths.add(STRIDE + rpc);
      }
    }
    return List.copyOf(paths);
  }
}
