package dev.ratelimit.cli.simulate;

import com.google.protobuf.Duration;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import dev.ratelimit.proto.v1.Flow;
import dev.ratelimit.proto.v1.GenesisState;
import dev.ratelimit.proto.v1.HourEpoch;
import dev.ratelimit.proto.v1.Quota;
import dev.ratelimit.proto.v1.RateLimit;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * {@code check_export}: an exported genesis against the expected one, both parsed. Absent fields
 * are their defaults (an absent {@code hour_epoch.duration} is 3600s, as genesis import reads it),
 * decimal strings compare numerically and lists compare as sets. One line per differing field,
 * with the entries missing and unexpected when the sets share some.
 */
final class ExportComparison {
  private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");
  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().preservingProtoFieldNames().omittingInsignificantWhitespace();

  private ExportComparison() {}

  static List<String> compare(GenesisState expected, GenesisState actual) {
    List<String> out = new ArrayList<>();
    field(out, "rate_limits", expected.getRateLimitsList(), actual.getRateLimitsList(),
        ExportComparison::rateLimit);
    field(out, "whitelisted_address_pairs", expected.getWhitelistedAddressPairsList(),
        actual.getWhitelistedAddressPairsList(), ExportComparison::json);
    field(out, "blacklisted_denoms", expected.getBlacklistedDenomsList(),
        actual.getBlacklistedDenomsList(), s -> s);
    field(out, "pending_send_packet_sequence_numbers",
        expected.getPendingSendPacketSequenceNumbersList(),
        actual.getPendingSendPacketSequenceNumbersList(), s -> s);
    field(out, "pending_recv_packet_sequence_numbers",
        expected.getPendingRecvPacketSequenceNumbersList(),
        actual.getPendingRecvPacketSequenceNumbersList(), s -> s);
    String e = json(epoch(expected));
    String a = json(epoch(actual));
    if (!e.equals(a)) {
      out.add("expected export hour_epoch " + e + " got " + a);
    }
    return out;
  }

  private static <T> void field(
      List<String> out, String name, List<T> expected, List<T> actual, Function<T, String> key) {
    Set<String> e = set(expected, key);
    Set<String> a = set(actual, key);
    if (!e.equals(a)) {
      out.add("expected export " + name + " " + e + " got " + a + difference(e, a));
    }
  }

  /**
   * When the two sets share entries, which entries differ: in a long export the whole sets alone
   * hide the one that is wrong.
   */
  private static String difference(Set<String> expected, Set<String> actual) {
    Set<String> missing = new TreeSet<>(expected);
    missing.removeAll(actual);
    Set<String> unexpected = new TreeSet<>(actual);
    unexpected.removeAll(expected);
    if (missing.size() == expected.size() && unexpected.size() == actual.size()) {
      return ""; // nothing shared: the sets say it all
    }
    List<String> parts = new ArrayList<>();
    if (!missing.isEmpty()) {
      parts.add("missing " + missing);
    }
    if (!unexpected.isEmpty()) {
      parts.add("unexpected " + unexpected);
    }
    return " (" + String.join(", ", parts) + ")";
  }

  private static <T> Set<String> set(Collection<T> items, Function<T, String> key) {
    return items.stream().map(key).collect(Collectors.toCollection(TreeSet::new));
  }

  private static String rateLimit(RateLimit rl) {
    Quota q = rl.getQuota();
    Flow f = rl.getFlow();
    return json(
        RateLimit.newBuilder()
            .setPath(rl.getPath())
            .setQuota(
                q.toBuilder()
                    .setMaxPercentSend(number(q.getMaxPercentSend()))
                    .setMaxPercentRecv(number(q.getMaxPercentRecv())))
            .setFlow(
                f.toBuilder()
                    .setInflow(number(f.getInflow()))
                    .setOutflow(number(f.getOutflow()))
                    .setChannelValue(number(f.getChannelValue())))
            .build());
  }

  private static HourEpoch epoch(GenesisState g) {
    HourEpoch e = g.getHourEpoch();
    HourEpoch.Builder b = e.toBuilder().setEpochStartTime(e.getEpochStartTime());
    b.setDuration(e.hasDuration() ? e.getDuration() : Duration.newBuilder().setSeconds(3600).build());
    return b.build();
  }

  /** An Int field: absent ({@code ""}) is its default, 0 (FORMAT: absent fields are defaults). */
  private static String number(String s) {
    if (s.isEmpty()) {
      return "0";
    }
    return INTEGER.matcher(s).matches() && s.length() < 100 ? new BigInteger(s).toString() : s;
  }

  private static String json(Message m) {
    try {
      return PRINTER.print(m);
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("cannot print " + m.getDescriptorForType().getName(), e);
    }
  }
}
