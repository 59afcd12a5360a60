package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.PureMemo;
import dev.ratelimit.core.model.Sha256;
import dev.ratelimit.core.model.Texts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A denom with the trace of hops it travelled ({@code transfer/channel-1/transfer/channel-2/ujuno}
 * = hops {@code transfer/channel-1}, {@code transfer/channel-2} and base {@code ujuno}), as
 * ibc-go's {@code Denom}. Obtain one from a packet's denom with {@link #parse}.
 *
 * @param trace the hops, most recent first
 * @param baseDenom the denom on its native chain; may contain {@code /}
 */
public record DenomTrace(List<Hop> trace, String baseDenom) {
  private static final byte[] IBC_PREFIX = "ibc/".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] UPPER_HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

  /**
   * {@link #ibcDenom} runs on every packet the transfer app reads; the few traces of a chain's
   * traffic are hashed once each (the resolver memoizes its own results and hashes directly).
   */
  private static final PureMemo<String, String> HASHED = new PureMemo<>(DenomTrace::hash);

  /**
   * @throws NullPointerException if {@code trace}, a hop or {@code baseDenom} is {@code null}
   * @throws IllegalArgumentException if {@code baseDenom} is blank (Go's {@code strings.TrimSpace})
   */
  public DenomTrace {
    trace = List.copyOf(trace);
    Objects.requireNonNull(baseDenom, "baseDenom");
    if (Texts.isGoBlank(baseDenom)) {
      throw new IllegalArgumentException(
          "base denom must not be blank, got " + Texts.quote(baseDenom));
    }
  }

  /**
   * Parses a full denom path exactly like ibc-go's {@code ExtractDenomFromPath}: split on {@code
   * /}; without a {@code /} the whole text is the base denom; otherwise, for i = 0, 2, 4, ...: if i
   * is not the last part, there are more than two parts and part i+1 is a valid hop id ({@link
   * Identifiers#isChannelOrClientId}), (part i, part i+1) is a hop; else the base denom is parts
   * i.. joined with {@code /}, and parsing stops.
   *
   * <p>So {@code transfer/channel-1} (two parts) is a base denom; {@code abc/xyz-5/token} has the
   * hop {@code abc/xyz-5} ({@code xyz-5} is a valid client id); {@code transfer/channelToA/uatom}
   * is a base denom; {@code transfer/channel-1/transfer/channel-2} has no base denom at all.
   *
   * @throws NullPointerException if {@code fullPath} is {@code null}
   * @throws RateLimitException code {@link ErrorCode#INVALID_PACKET_DATA} (9) when the base denom
   *     is empty or blank
   */
  public static DenomTrace parse(String fullPath) {
    Objects.requireNonNull(fullPath, "fullPath");
    List<Hop> hops = new ArrayList<>(2);
    int base = walk(fullPath, hops);
    return new DenomTrace(hops, fullPath.substring(base));
  }

  /**
   * Whether {@code fullPath} has at least one hop, by the rules of {@link #parse} and with its
   * errors, without building the trace (a send only needs to know whether to hash).
   *
   * @throws RateLimitException as {@link #parse}
   */
  static boolean hasTrace(String fullPath) {
    Objects.requireNonNull(fullPath, "fullPath");
    return walk(fullPath, null) > 0;
  }

  /**
   * The one reading of a full path: adds its hops to {@code hops} (unless null) and returns where
   * its base denom starts. Walks the parts in place (no split): part i starts at {@code start},
   * part i+1 lies between the next two slashes (or runs to the end).
   *
   * @throws RateLimitException when the base denom is empty or blank
   */
  private static int walk(String fullPath, List<Hop> hops) {
    int slash = fullPath.indexOf('/');
    if (slash < 0 || fullPath.indexOf('/', slash + 1) < 0) { // one or two parts: a base denom
      return requireBase(fullPath, 0);
    }
    int start = 0;
    while (true) {
      int s1 = fullPath.indexOf('/', start);
      if (s1 < 0) { // part i is the last: the base denom
        return requireBase(fullPath, start);
      }
      int s2 = fullPath.indexOf('/', s1 + 1);
      String id = s2 < 0 ? fullPath.substring(s1 + 1) : fullPath.substring(s1 + 1, s2);
      if (!Identifiers.isChannelOrClientId(id)) {
        return requireBase(fullPath, start); // parts i.. joined with '/'
      }
      if (hops != null) {
        hops.add(new Hop(fullPath.substring(start, s1), id));
      }
      if (s2 < 0) { // the trace ends with a hop: no base denom
        return requireBase(fullPath, fullPath.length());
      }
      start = s2 + 1;
    }
  }

  /** {@code base} (where the base denom starts) if the base denom is not blank. */
  private static int requireBase(String fullPath, int base) {
    if (Texts.isGoBlank(fullPath, base)) {
      throw new RateLimitException(
          ErrorCode.INVALID_PACKET_DATA,
          "denom " + Texts.quote(fullPath) + " has an empty or blank base denom");
    }
    return base;
  }

  /** True when the denom has travelled at least one hop. */
  public boolean hasTrace() {
    return !trace.isEmpty();
  }

  /** The hops and the base joined with {@code /}: {@code port/id/.../base}. */
  public String fullPath() {
    if (trace.isEmpty()) {
      return baseDenom;
    }
    StringBuilder sb = new StringBuilder();
    for (Hop hop : trace) {
      sb.append(hop.portId()).append('/').append(hop.channelOrClientId()).append('/');
    }
    return sb.append(baseDenom).toString();
  }

  /**
   * The denom as the bank module holds it: with a trace, {@code ibc/} + the UPPER-case hex SHA-256
   * of {@link #fullPath()}; without, the base denom.
   */
  public String ibcDenom() {
    return hasTrace() ? hashed(fullPath()) : baseDenom;
  }

  /** {@code ibc/} + UPPER-case hex SHA-256 of the UTF-8 of {@code path}. */
  static String hashed(String path) {
    return path.length() <= PureMemo.MAX_KEY_CHARS ? HASHED.apply(path) : hash(path);
  }

  /** {@link #hashed}, computed. */
  static String hash(String path) {
    byte[] hash = Sha256.hash(path.getBytes(StandardCharsets.UTF_8));
    byte[] text = new byte[IBC_PREFIX.length + 2 * hash.length]; // written at once: no builder
    System.arraycopy(IBC_PREFIX, 0, text, 0, IBC_PREFIX.length);
    for (int i = 0, at = IBC_PREFIX.length; i < hash.length; i++) {
      text[at++] = UPPER_HEX[(hash[i] >> 4) & 0xF];
      text[at++] = UPPER_HEX[hash[i] & 0xF];
    }
    return new String(text, StandardCharsets.US_ASCII);
  }
}
