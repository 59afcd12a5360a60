package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.Sha256;
import dev.ratelimit.core.model.Texts;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
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
  private static final HexFormat UPPER_HEX = HexFormat.of().withUpperCase();

  /**
   * @throws NullPointerException if {@code trace}, a hop or {@code baseDenom} is {@code null}
   * @throws IllegalArgumentException if {@code baseDenom} is blank (Go's {@code strings.TrimSpace})
   */
  public DenomTrace {
    trace = List.copyOf(trace);
    Objects.requireNonNull(baseDenom, "baseDenom");
    if (GoText.isBlank(baseDenom)) {
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
    if (fullPath.indexOf('/') < 0) { // a base denom (most received denoms): nothing to split
      return new DenomTrace(List.of(), requireBase(fullPath, fullPath));
    }
    String[] parts = fullPath.split("/", -1);
    List<Hop> hops = new ArrayList<>();
    String base = "";
    if (parts.length == 1) {
      base = fullPath;
    } else {
      int offset = 0; // where part i starts in fullPath
      for (int i = 0; i < parts.length; i += 2) {
        if (i < parts.length - 1
            && parts.length > 2
            && Identifiers.isChannelOrClientId(parts[i + 1])) {
          hops.add(new Hop(parts[i], parts[i + 1]));
          offset += parts[i].length() + parts[i + 1].length() + 2;
        } else {
          base = fullPath.substring(offset); // parts i.. joined with '/'
          break;
        }
      }
    }
    return new DenomTrace(hops, requireBase(base, fullPath));
  }

  private static String requireBase(String base, String fullPath) {
    if (GoText.isBlank(base)) {
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
    return "ibc/" + UPPER_HEX.formatHex(Sha256.hash(path.getBytes(StandardCharsets.UTF_8)));
  }
}
