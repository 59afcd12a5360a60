package dev.ratelimit.core.genesis;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.proto.v1.GenesisState;
import dev.ratelimit.proto.v1.Params;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Genesis at the edge: protobuf JSON of the Go module's {@code GenesisState} (snake_case names)
 * plus our {@code pending_recv_packet_sequence_numbers = 7}, validated (SPEC §7, code 12) into
 * plain {@link Genesis} records and written back in canonical order.
 *
 * <p>Pending ids export as {@code {channel}/{sequence}/{denom}}; import also accepts the Go
 * module's {@code {channel}/{sequence}}, which lacks the denom: such ids are checked, then
 * dropped with a warning. A negative inflow or outflow (which the Go module's unclamped undo can
 * export) is clamped to 0 with a warning.
 */
public final class GenesisCodec {
  private static final Instant GO_ZERO_TIME = Instant.parse("0001-01-01T00:00:00Z");
  private static final long EPOCH_SECONDS = 3600;

  private static final int MAX_PARSER_MESSAGE_CHARS = 200;

  private GenesisCodec() {}

  /** A decoded genesis and what was adjusted on the way in. */
  public record Decoded(Genesis genesis, List<String> warnings) {
    public Decoded {
      warnings = List.copyOf(warnings);
    }
  }

  /**
   * Parses protobuf JSON (unknown fields rejected) and validates it.
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_GENESIS} naming the first problem
   */
  public static Decoded fromJson(String json) {
    return fromProto(protoFromJson(json));
  }

  /**
   * Parses protobuf JSON as Go's protojson would (unknown fields rejected, {@link ProtoJson}'s
   * rules), without validating the content.
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_GENESIS} when it is no {@code
   *     GenesisState}
   */
  public static GenesisState protoFromJson(String json) {
    Optional<String> problem = ProtoJson.problem(json, GenesisState.getDescriptor());
    if (problem.isPresent()) {
      throw invalid("not a GenesisState in protobuf JSON: " + problem.get());
    }
    GenesisState.Builder b = GenesisState.newBuilder();
    try {
      JsonFormat.parser().merge(json, b);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      // JsonFormat's messages quote the offending JSON whole: cut, a file may hold megabytes
      throw invalid("not a GenesisState in protobuf JSON: "
          + Texts.quote(String.valueOf(e.getMessage()), MAX_PARSER_MESSAGE_CHARS));
    }
    return b.build();
  }

  /**
   * Protobuf JSON with snake_case names, every list in canonical order, empty lists and zero
   * numbers written out (as the Cosmos SDK's genesis export does): {@link ProtoJson#print}, the
   * text {@code ratelimit genesis export} prints.
   */
  public static String toJson(Genesis genesis) {
    return ProtoJson.print(toProto(genesis));
  }

  /**
   * Validates a wire genesis.
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_GENESIS} naming the first problem
   */
  public static Decoded fromProto(GenesisState state) {
    List<String> warnings = new ArrayList<>();
    List<RateLimit> rateLimits = new ArrayList<>();
    Set<Path> seen = new HashSet<>();
    for (int i = 0; i < state.getRateLimitsCount(); i++) {
      RateLimit rl = rateLimit(state.getRateLimits(i), "rate_limits[" + i + "]", warnings);
      if (!seen.add(rl.path())) {
        throw invalid("rate_limits[" + i + "]: duplicate rate limit for " + rl.path());
      }
      rateLimits.add(rl);
    }
    Set<WhitelistedAddressPair> pairs = new LinkedHashSet<>();
    for (int i = 0; i < state.getWhitelistedAddressPairsCount(); i++) {
      var p = state.getWhitelistedAddressPairs(i);
      try {
        pairs.add(new WhitelistedAddressPair(p.getSender(), p.getReceiver()));
      } catch (IllegalArgumentException e) {
        throw invalid("whitelisted_address_pairs[" + i + "]: " + e.getMessage());
      }
    }
    Set<String> denoms = new LinkedHashSet<>();
    for (int i = 0; i < state.getBlacklistedDenomsCount(); i++) {
      String d = state.getBlacklistedDenoms(i);
      if (d.isEmpty()) {
        throw invalid("blacklisted_denoms[" + i + "]: denom must not be empty");
      }
      try {
        denoms.add(Texts.requireWellFormed(d, "denom"));
      } catch (IllegalArgumentException e) {
        throw invalid("blacklisted_denoms[" + i + "]: " + e.getMessage());
      }
    }
    List<PendingPacket> sends =
        pendingIds(
            state.getPendingSendPacketSequenceNumbersList(),
            "pending_send_packet_sequence_numbers",
            warnings);
    List<PendingPacket> recvs =
        pendingIds(
            state.getPendingRecvPacketSequenceNumbersList(),
            "pending_recv_packet_sequence_numbers",
            warnings);
    Optional<HourEpoch> epoch =
        state.hasHourEpoch() ? hourEpoch(state.getHourEpoch(), warnings) : Optional.empty();
    Genesis g =
        new Genesis(
            rateLimits,
            List.copyOf(pairs),
            List.copyOf(denoms),
            List.copyOf(new LinkedHashSet<>(sends)),
            List.copyOf(new LinkedHashSet<>(recvs)),
            epoch);
    return new Decoded(g, warnings);
  }

  /** The wire form (params always present, every list in the order given). */
  public static GenesisState toProto(Genesis genesis) {
    GenesisState.Builder b = GenesisState.newBuilder().setParams(Params.getDefaultInstance());
    for (RateLimit rl : genesis.rateLimits()) {
      b.addRateLimits(toProto(rl));
    }
    genesis.whitelistedAddressPairs().forEach(p -> b.addWhitelistedAddressPairs(toProto(p)));
    b.addAllBlacklistedDenoms(genesis.blacklistedDenoms());
    genesis.pendingSendPackets().forEach(p -> b.addPendingSendPacketSequenceNumbers(p.genesisId()));
    genesis.pendingRecvPackets().forEach(p -> b.addPendingRecvPacketSequenceNumbers(p.genesisId()));
    genesis.hourEpoch().ifPresent(e -> b.setHourEpoch(toProto(e)));
    return b.build();
  }

  /** One rate limit on the wire (decimal strings). */
  public static dev.ratelimit.proto.v1.RateLimit toProto(RateLimit rl) {
    return dev.ratelimit.proto.v1.RateLimit.newBuilder()
        .setPath(
            dev.ratelimit.proto.v1.Path.newBuilder()
                .setDenom(rl.path().denom())
                .setChannelOrClientId(rl.path().channelOrClientId()))
        .setQuota(
            dev.ratelimit.proto.v1.Quota.newBuilder()
                .setMaxPercentSend(Integer.toString(rl.quota().maxPercentSend()))
                .setMaxPercentRecv(Integer.toString(rl.quota().maxPercentRecv()))
                .setDurationHours(rl.quota().durationHours()))
        .setFlow(
            dev.ratelimit.proto.v1.Flow.newBuilder()
                .setInflow(rl.flow().inflow().toString())
                .setOutflow(rl.flow().outflow().toString())
                .setChannelValue(rl.flow().channelValue().toString()))
        .build();
  }

  /** One whitelisted (sender, receiver) pair on the wire. */
  public static dev.ratelimit.proto.v1.WhitelistedAddressPair toProto(WhitelistedAddressPair p) {
    return dev.ratelimit.proto.v1.WhitelistedAddressPair.newBuilder()
        .setSender(p.sender())
        .setReceiver(p.receiver())
        .build();
  }

  /** The hour epoch on the wire (duration always 3600s). */
  public static dev.ratelimit.proto.v1.HourEpoch toProto(HourEpoch e) {
    return dev.ratelimit.proto.v1.HourEpoch.newBuilder()
        .setEpochNumber(e.epochNumber())
        .setDuration(com.google.protobuf.Duration.newBuilder().setSeconds(EPOCH_SECONDS))
        .setEpochStartTime(
            Timestamp.newBuilder()
                .setSeconds(e.epochStartTime().getEpochSecond())
                .setNanos(e.epochStartTime().getNano()))
        .setEpochStartHeight(e.epochStartHeight())
        .build();
  }

  private static RateLimit rateLimit(
      dev.ratelimit.proto.v1.RateLimit p, String where, List<String> warnings) {
    if (!p.hasPath()) {
      throw invalid(where + ": path is missing");
    }
    if (!p.hasQuota()) {
      throw invalid(where + ": quota is missing");
    }
    if (!p.hasFlow()) {
      throw invalid(where + ": flow is missing");
    }
    String denom = p.getPath().getDenom();
    String id = p.getPath().getChannelOrClientId();
    if (denom.isEmpty()) {
      throw invalid(where + ": denom must not be empty");
    }
    if (!Identifiers.isChannelOrClientId(id)) {
      throw invalid(where + ": invalid channel or client id " + Texts.quote(id));
    }
    Path path;
    try {
      path = new Path(denom, id);
    } catch (IllegalArgumentException e) {
      throw invalid(where + ": " + e.getMessage());
    }
    int send = percent(p.getQuota().getMaxPercentSend(), where + ".quota.max_percent_send");
    int recv = percent(p.getQuota().getMaxPercentRecv(), where + ".quota.max_percent_recv");
    if (send == 0 && recv == 0) {
      throw invalid(where + ": max_percent_send and max_percent_recv are both 0");
    }
    long duration = p.getQuota().getDurationHours();
    if (duration == 0) { // a uint64: any other value, up to 2^64 - 1, is a window length
      throw invalid(where + ": duration_hours must be positive");
    }
    BigInteger inflow = flowAmount(p.getFlow().getInflow(), where + ".flow.inflow", warnings, true);
    BigInteger outflow =
        flowAmount(p.getFlow().getOutflow(), where + ".flow.outflow", warnings, true);
    BigInteger cv =
        flowAmount(p.getFlow().getChannelValue(), where + ".flow.channel_value", warnings, false);
    return new RateLimit(path, new Quota(send, recv, duration), new Flow(inflow, outflow, cv));
  }

  private static int percent(String text, String where) {
    if (!Amounts.isCanonicalDecimal(text) || text.length() > 3 || Integer.parseInt(text) > 100) {
      throw invalid(where + " must be a canonical integer in [0, 100], got " + Texts.quote(text));
    }
    return Integer.parseInt(text);
  }

  private static BigInteger flowAmount(
      String text, String where, List<String> warnings, boolean clampNegative) {
    if (clampNegative
        && text.startsWith("-")
        && Amounts.isCanonicalDecimal(text.substring(1))
        && !text.equals("-0")) {
      warnings.add(where + " was negative (" + text + "); clamped to 0");
      return BigInteger.ZERO;
    }
    try {
      return Amounts.parse(text, where);
    } catch (IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
  }

  private static List<PendingPacket> pendingIds(
      List<String> ids, String field, List<String> warnings) {
    List<PendingPacket> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      String id = ids.get(i);
      String where = field + "[" + i + "]";
      String[] parts = id.split("/", 3);
      if (parts.length < 2) {
        throw invalid(where + ": expected {channel}/{sequence}/{denom}, got " + Texts.quote(id));
      }
      if (!Identifiers.isChannelOrClientId(parts[0])) {
        throw invalid(where + ": invalid channel or client id " + Texts.quote(parts[0]));
      }
      long sequence = sequence(parts[1], where);
      if (parts.length == 2) {
        warnings.add(
            where + ": " + Texts.quote(id) + " has no denom (Go module form); dropped");
        continue;
      }
      if (parts[2].isEmpty()) {
        throw invalid(where + ": denom must not be empty in " + Texts.quote(id));
      }
      try {
        out.add(new PendingPacket(parts[0], parts[2], sequence));
      } catch (IllegalArgumentException e) {
        throw invalid(where + ": " + e.getMessage());
      }
    }
    return out;
  }

  private static long sequence(String text, String where) {
    if (!Amounts.isCanonicalDecimal(text) || text.equals("0") || text.length() > 20) {
      throw invalid(where + ": sequence must be a canonical integer >= 1, got " + Texts.quote(text));
    }
    BigInteger v = new BigInteger(text);
    if (v.bitLength() > 64) {
      throw invalid(where + ": sequence " + text + " does not fit 64 bits");
    }
    return v.longValue();
  }

  /** A century of hours: an epoch number closer than this to 2^64 − 1 cannot be a real chain's. */
  private static final long EPOCH_HEADROOM_HOURS = 100L * 8_766;

  private static Optional<HourEpoch> hourEpoch(
      dev.ratelimit.proto.v1.HourEpoch e, List<String> warnings) {
    if (e.hasDuration()
        && !(e.getDuration().getSeconds() == EPOCH_SECONDS && e.getDuration().getNanos() == 0)) {
      throw invalid("hour_epoch.duration must be 3600s, got " + seconds(e.getDuration()));
    }
    if (e.getEpochNumber() == 0) {
      return Optional.empty(); // initialised from the genesis block
    }
    Instant start =
        Instant.ofEpochSecond(e.getEpochStartTime().getSeconds(), e.getEpochStartTime().getNanos());
    if (!e.hasEpochStartTime() || start.equals(GO_ZERO_TIME)) {
      throw invalid("hour_epoch.epoch_start_time must be set when epoch_number > 0");
    }
    if (e.getEpochStartHeight() <= 0) {
      throw invalid("hour_epoch.epoch_start_height must be positive when epoch_number > 0");
    }
    long left = -1L - e.getEpochNumber(); // hours before 2^64 − 1, unsigned
    if (Long.compareUnsigned(left, EPOCH_HEADROOM_HOURS) < 0) {
      // valid (A's and G's rules), but the epoch cannot advance past 2^64 − 1: say so before
      // the chain starts, not at the block where it halts
      warnings.add("hour_epoch.epoch_number " + Long.toUnsignedString(e.getEpochNumber())
          + " is " + left + " hours from 2^64 - 1: the first block that would advance the epoch"
          + " past it fails with code 13, and the chain halts");
    }
    return Optional.of(new HourEpoch(e.getEpochNumber(), start, e.getEpochStartHeight()));
  }

  /** A duration as protobuf JSON writes it ({@code 3600.5s}), whatever its fields hold. */
  private static String seconds(com.google.protobuf.Duration d) {
    if (d.getNanos() == 0) {
      return d.getSeconds() + "s";
    }
    BigDecimal exact =
        BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNanos(), 9));
    return exact.stripTrailingZeros().toPlainString() + "s";
  }

  private static RateLimitException invalid(String message) {
    return new RateLimitException(ErrorCode.INVALID_GENESIS, message);
  }
}
