package dev.ratelimit.cli.query;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.MessageOrBuilder;
import dev.ratelimit.core.genesis.ProtoJson;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RemainingCapacity;
import dev.ratelimit.proto.v1.RateLimit;
import dev.ratelimit.proto.v1.WhitelistedAddressPair;
import java.math.BigInteger;
import java.util.List;
import java.util.Optional;

/**
 * How query answers print: protobuf JSON of the Go module's query responses (proto field names,
 * every field present, lists as {@code []} when empty), or aligned text tables.
 */
public final class QueryOutput {
  private static final ObjectMapper JSON = new ObjectMapper();

  private QueryOutput() {}

  /**
   * Protobuf JSON of a message, ending with a newline; an empty message prints as {@code {}}.
   * Characters unsafe on a terminal are escaped ({@link TerminalText#json}).
   */
  public static String protoJson(MessageOrBuilder message) {
    return terminalSafeJson(ProtoJson.print(message)) + "\n";
  }

  /**
   * The same JSON with characters unsafe on a terminal (bidi overrides, C1 controls) written as
   * escapes, for JSON printed elsewhere ({@code genesis export}).
   */
  public static String terminalSafeJson(String json) {
    return TerminalText.json(json);
  }

  /**
   * A table of rate limits as the query service answers them, one row each. The numbers print as
   * the answer spells them (decimal strings on the wire), so a node's answer shows as it came.
   */
  public static String rateLimitsTable(List<RateLimit> limits) {
    TextTable t =
        new TextTable(
            "CHANNEL_OR_CLIENT_ID", "DENOM", "SEND_%", "RECV_%", "HOURS", "INFLOW", "OUTFLOW",
            "CHANNEL_VALUE");
    for (RateLimit rl : limits) {
      t.row(
          rl.getPath().getChannelOrClientId(),
          rl.getPath().getDenom(),
          rl.getQuota().getMaxPercentSend(),
          rl.getQuota().getMaxPercentRecv(),
          Long.toUnsignedString(rl.getQuota().getDurationHours()),
          rl.getFlow().getInflow(),
          rl.getFlow().getOutflow(),
          rl.getFlow().getChannelValue());
    }
    return t.render();
  }

  /** A table of denoms. */
  public static String blacklistTable(List<String> denoms) {
    TextTable t = new TextTable("DENOM");
    denoms.forEach(t::row);
    return t.render();
  }

  /** A table of (sender, receiver) pairs. */
  public static String whitelistTable(List<WhitelistedAddressPair> pairs) {
    TextTable t = new TextTable("SENDER", "RECEIVER");
    pairs.forEach(p -> t.row(p.getSender(), p.getReceiver()));
    return t.render();
  }

  /**
   * Remaining capacity as of the block {@code asOf} (the home's last: its height and time): JSON
   * {@code {denom, channel_or_client_id, send: {max_percent, threshold, net_flow, remaining}, recv:
   * {...}, window_resets_at, seconds_until_reset, as_of_height, as_of_time}} with numbers as
   * strings ({@code remaining} may be {@code "unlimited"}), or a table; unsafe characters
   * escaped as in the other answers ({@link TerminalText}).
   */
  public static String remainingCapacity(RemainingCapacity rc, BlockContext asOf, Output output) {
    if (output == Output.json) {
      ObjectNode root = JSON.createObjectNode();
      root.put("denom", rc.path().denom());
      root.put("channel_or_client_id", rc.path().channelOrClientId());
      root.set("send", direction(rc.send()));
      root.set("recv", direction(rc.recv()));
      root.put("window_resets_at", rc.windowResetsAt().toString());
      root.put("seconds_until_reset", Long.toString(rc.secondsUntilReset()));
      root.put("as_of_height", Long.toUnsignedString(asOf.height()));
      root.put("as_of_time", asOf.time().toString());
      DefaultPrettyPrinter pp =
          new DefaultPrettyPrinter(
                  Separators.createDefaultInstance()
                      .withObjectFieldValueSpacing(Separators.Spacing.AFTER))
              .withObjectIndenter(new DefaultIndenter("  ", "\n"));
      try {
        return TerminalText.json(JSON.writer(pp).writeValueAsString(root)) + "\n";
      } catch (JsonProcessingException e) {
        throw new IllegalStateException("cannot print remaining capacity", e);
      }
    }
    TextTable t = new TextTable("DIRECTION", "MAX_%", "THRESHOLD", "NET_FLOW", "REMAINING");
    t.row("send", Integer.toString(rc.send().percent()), rc.send().threshold().toString(),
        rc.send().netFlow().toString(), remaining(rc.send().remaining()));
    t.row("recv", Integer.toString(rc.recv().percent()), rc.recv().threshold().toString(),
        rc.recv().netFlow().toString(), remaining(rc.recv().remaining()));
    return "path: " + TextTable.cell(rc.path().channelOrClientId()) + " "
        + TextTable.cell(rc.path().denom()) + "\n"
        + t.render()
        + "window_resets_at: " + rc.windowResetsAt() + "\n"
        + "seconds_until_reset: " + rc.secondsUntilReset() + "\n"
        + "as_of: height " + Long.toUnsignedString(asOf.height()) + ", " + asOf.time() + "\n";
  }

  private static ObjectNode direction(RemainingCapacity.Direction d) {
    ObjectNode n = JSON.createObjectNode();
    n.put("max_percent", Integer.toString(d.percent()));
    n.put("threshold", d.threshold().toString());
    n.put("net_flow", d.netFlow().toString());
    n.put("remaining", remaining(d.remaining()));
    return n;
  }

  static String remaining(Optional<BigInteger> r) {
    return r.map(BigInteger::toString).orElse("unlimited");
  }
}
