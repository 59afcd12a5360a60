package dev.ratelimit.core.keeper;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.RateLimitedPacket;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.rules.EpochRules;
import dev.ratelimit.core.rules.QuotaDecision;
import dev.ratelimit.core.rules.QuotaRules;
import dev.ratelimit.core.store.KvEntry;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.PrefixKvStore;
import dev.ratelimit.core.store.StorageException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The rate-limit module's state and business logic: rate limits, pending packet markers, the
 * denom blacklist, the address-pair whitelist, the hour epoch and window resets, genesis and
 * queries. Every method takes the {@link BlockContext} it runs in (its store, time and events).
 *
 * <p>Methods that can fail validate everything before they write, so a thrown exception leaves
 * the store unchanged; callers that combine several calls run them in {@link BlockContext#branch()}
 * and commit on success. {@link IllegalArgumentException} means a caller mistake; {@link
 * RateLimitException} is a rejection with a stable code.
 *
 * <p>Stateless and thread-confined like the chain that drives it.
 */
public final class RateLimitKeeper {
  private final BankSupply bank;
  private final IbcChannels channels;
  private final byte[] storePrefix;

  /** A keeper that owns the whole store of the contexts it is given. */
  public RateLimitKeeper(BankSupply bank, IbcChannels channels) {
    this(bank, channels, new byte[0]);
  }

  /**
   * A keeper whose keys live under {@code storePrefix} in a store shared with other modules (like
   * a Cosmos store key): contexts carry the chain's whole store, so one branch covers the module
   * and the app it wraps.
   */
  public RateLimitKeeper(BankSupply bank, IbcChannels channels, byte[] storePrefix) {
    this.bank = Objects.requireNonNull(bank, "bank");
    this.channels = Objects.requireNonNull(channels, "channels");
    this.storePrefix = Objects.requireNonNull(storePrefix, "storePrefix").clone();
  }

  /** The module's view of the context's store. */
  private KvStore store(BlockContext ctx) {
    KvStore root = ctx.store();
    return storePrefix.length == 0 ? root : new PrefixKvStore(root, storePrefix);
  }

  // ---------------------------------------------------------------- rate limits

  /** The rate limit of a path, if any (exact: the canonical index decides, not the hash). */
  public Optional<RateLimit> getRateLimit(BlockContext ctx, Path path) {
    if (!hasRateLimit(ctx, path)) {
      return Optional.empty();
    }
    Schema.LimitRow row = Schema.LIMIT.get(store(ctx), path).orElseThrow(() -> missingRow(path));
    return Optional.of(new RateLimit(path, row.quota(), row.flow()));
  }

  /** Whether a rate limit exists on this path. */
  public boolean hasRateLimit(BlockContext ctx, Path path) {
    return Schema.LIMIT_INDEX.has(store(ctx), Objects.requireNonNull(path, "path"));
  }

  /**
   * Stores a rate limit as is (quota and flow), replacing any on the same path, and keeps its
   * place in the reset schedule and the canonical index. Pending markers are left alone.
   *
   * @throws IllegalStateException if another path's rate limit holds this path's {@link PathHash}
   */
  public void setRateLimit(BlockContext ctx, RateLimit rateLimit) {
    Objects.requireNonNull(rateLimit, "rateLimit");
    KvStore s = store(ctx);
    Path path = rateLimit.path();
    Optional<Schema.LimitRow> old = Schema.LIMIT.get(s, path);
    boolean indexed = Schema.LIMIT_INDEX.has(s, path);
    if (old.isPresent() && !indexed) {
      throw new IllegalStateException(collision(path));
    }
    old.filter(o -> o.quota().durationHours() != rateLimit.quota().durationHours())
        .ifPresent(o -> Schema.RESET_SCHEDULE.delete(
            s, new Schema.ScheduledReset(o.quota().durationHours(), path)));
    boolean blacklisted = old.isPresent()
        ? old.get().blacklisted()
        : Schema.BLACKLIST.has(s, path.denom());
    Schema.LIMIT.put(s, path, new Schema.LimitRow(rateLimit.quota(), blacklisted, rateLimit.flow()));
    if (!indexed) {
      Schema.LIMIT_INDEX.put(s, path, Schema.Unit.INSTANCE);
      Schema.LIMIT_BY_DENOM.put(s, path, Schema.Unit.INSTANCE);
      if (Schema.MARKER_PATH.has(s, path)) { // a blind delete would leave a tombstone per limit
        Schema.MARKER_PATH.delete(s, path); // the index names this path's markers from now on
      }
    }
    Schema.RESET_SCHEDULE.put(
        s, new Schema.ScheduledReset(rateLimit.quota().durationHours(), path), Schema.Unit.INSTANCE);
  }

  /**
   * Removes a path's rate limit and its pending send and recv markers (a fix over the Go module,
   * where stale markers could give back capacity to a later limit). A no-op when absent.
   */
  public void removeRateLimit(BlockContext ctx, Path path) {
    Objects.requireNonNull(path, "path");
    KvStore s = store(ctx);
    if (!Schema.LIMIT_INDEX.has(s, path)) {
      return;
    }
    Schema.LimitRow row = Schema.LIMIT.get(s, path).orElseThrow(() -> missingRow(path));
    Schema.RESET_SCHEDULE.delete(s, new Schema.ScheduledReset(row.quota().durationHours(), path));
    Schema.LIMIT.delete(s, path);
    Schema.LIMIT_INDEX.delete(s, path);
    Schema.LIMIT_BY_DENOM.delete(s, path);
    removeAllPendingPackets(ctx, path);
  }

  /** Every rate limit, in canonical order (channel_or_client_id, then denom). */
  public List<RateLimit> getAllRateLimits(BlockContext ctx) {
    return rateLimitsUnder(ctx, Schema.LIMIT_INDEX.prefix());
  }

  /**
   * The rate limits of one channel or client, by denom.
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_CHANNEL_OR_CLIENT_ID} for an invalid id
   */
  public List<RateLimit> getRateLimitsByChannelOrClient(BlockContext ctx, String channelOrClientId) {
    requireQueryId(channelOrClientId);
    return rateLimitsUnder(ctx, Schema.LIMIT_INDEX.prefix(channelOrClientId));
  }

  /**
   * The rate limits whose channel or client leads to the chain {@code chainId}. Ids whose chain
   * cannot be resolved are skipped (the Go module fails the whole query instead).
   */
  public List<RateLimit> getRateLimitsByChainId(BlockContext ctx, String chainId) {
    Objects.requireNonNull(chainId, "chainId");
    List<RateLimit> out = new ArrayList<>();
    for (RateLimit rl : getAllRateLimits(ctx)) {
      Optional<String> counterparty;
      try {
        counterparty = channels.counterpartyChainId(ctx, rl.path().channelOrClientId());
      } catch (RuntimeException unresolvable) {
        counterparty = Optional.empty();
      }
      if (counterparty.filter(chainId::equals).isPresent()) {
        out.add(rl);
      }
    }
    return out;
  }

  /**
   * Adds a rate limit with a fresh flow {@code {0, 0, supply}} and no pending markers: a marker
   * the path held without a limit (imported, or set through this API) names a packet the new
   * window never counted, so it must not give capacity back in it. Errors in this order: zero
   * supply (3), already exists (1; also when another path's limit holds this path's {@link
   * PathHash}), channel or client not found (6).
   */
  public RateLimit addRateLimit(BlockContext ctx, Path path, Quota quota) {
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(quota, "quota");
    BigInteger supply = supply(ctx, path.denom());
    if (supply.signum() == 0) {
      throw new RateLimitException(
          ErrorCode.ZERO_CHANNEL_VALUE, "denom " + Texts.quote(path.denom()) + " has no supply");
    }
    if (hasRateLimit(ctx, path)) {
      throw new RateLimitException(
          ErrorCode.RATE_LIMIT_ALREADY_EXISTS, "a rate limit already exists on " + path);
    }
    if (Schema.LIMIT.has(store(ctx), path)) {
      throw new RateLimitException(ErrorCode.RATE_LIMIT_ALREADY_EXISTS, collision(path));
    }
    if (!channels.channelOrClientExists(ctx, path.channelOrClientId())) {
      throw new RateLimitException(
          ErrorCode.CHANNEL_NOT_FOUND,
          "no channel on port transfer and no client with id "
              + Texts.quote(path.channelOrClientId()));
    }
    RateLimit rl = new RateLimit(path, quota, Flow.fresh(supply));
    setRateLimit(ctx, rl);
    removeAllPendingPackets(ctx, path);
    return rl;
  }

  /**
   * Replaces a rate limit's quota and starts a fresh window with the current supply; clears the
   * path's pending markers so a packet of the old window cannot give back capacity in the new one.
   *
   * @throws RateLimitException {@link ErrorCode#RATE_LIMIT_NOT_FOUND}
   */
  public RateLimit updateRateLimit(BlockContext ctx, Path path, Quota quota) {
    Objects.requireNonNull(quota, "quota");
    RateLimit old = requireRateLimit(ctx, path);
    RateLimit updated =
        new RateLimit(path, quota, Flow.fresh(windowChannelValue(ctx, path, old.flow())));
    setRateLimit(ctx, updated);
    removeAllPendingPackets(ctx, path);
    return updated;
  }

  /**
   * Starts a fresh window now: flow {@code {0, 0, supply}} (keeping the last non-zero channel
   * value when the supply is zero) and no pending markers for the path.
   *
   * @throws RateLimitException {@link ErrorCode#RATE_LIMIT_NOT_FOUND}
   */
  public RateLimit resetRateLimit(BlockContext ctx, Path path) {
    Schema.LimitRow row = requireRow(ctx, path);
    return new RateLimit(path, row.quota(), resetWindow(ctx, path, row));
  }

  /** A fresh window for a limit whose row was just read; returns the new flow. */
  private Flow resetWindow(BlockContext ctx, Path path, Schema.LimitRow row) {
    Flow fresh = Flow.fresh(windowChannelValue(ctx, path, row.flow()));
    Schema.LIMIT.put(store(ctx), path, row.withFlow(fresh));
    removeAllPendingPackets(ctx, path);
    return fresh;
  }

  /**
   * The channel value of a new window: the current supply, or (fix over the Go module) the
   * previous channel value when the supply is zero, with an event. An unlimited window right after
   * every voucher went home would let a compromised counterparty mint without limit.
   */
  private BigInteger windowChannelValue(BlockContext ctx, Path path, Flow previous) {
    BigInteger supply = supply(ctx, path.denom());
    if (supply.signum() != 0) {
      return supply;
    }
    ctx.emitDurable( // SPEC §6: kept even when the step is rolled back
        RateLimitEvents.channelValueKept(
            path.denom(), path.channelOrClientId(), previous.channelValue()));
    return previous.channelValue();
  }

  private RateLimit requireRateLimit(BlockContext ctx, Path path) {
    Schema.LimitRow row = requireRow(ctx, path);
    return new RateLimit(path, row.quota(), row.flow());
  }

  /** The limit row of an indexed path (the index decides, as for every governance call). */
  private Schema.LimitRow requireRow(BlockContext ctx, Path path) {
    Objects.requireNonNull(path, "path");
    if (!hasRateLimit(ctx, path)) {
      throw new RateLimitException(ErrorCode.RATE_LIMIT_NOT_FOUND, "no rate limit on " + path);
    }
    return Schema.LIMIT.get(store(ctx), path).orElseThrow(() -> missingRow(path));
  }

  /**
   * The bank's total supply of {@code denom}, a channel value to be.
   *
   * @throws RateLimitException {@link ErrorCode#FLOW_OVERFLOW} when the bank reports 2^256 or more
   *     (no Cosmos SDK bank can): a flow's channel value must stay below 2^256, like its inflow
   *     and outflow
   */
  private BigInteger supply(BlockContext ctx, String denom) {
    BigInteger supply = bank.totalSupply(ctx, denom);
    if (supply == null || supply.signum() < 0) {
      throw new IllegalStateException(
          "bank reported an impossible supply for " + Texts.quote(denom) + ": " + supply);
    }
    if (supply.compareTo(Amounts.LIMIT) >= 0) { // non-negative was checked above
      throw new RateLimitException(
          ErrorCode.FLOW_OVERFLOW,
          "the bank reports a supply of " + Texts.quote(denom) + " of 2^256 or more (" + supply
              + "): a channel value must stay below 2^256");
    }
    return supply;
  }

  private List<RateLimit> rateLimitsUnder(BlockContext ctx, byte[] indexPrefix) {
    KvStore s = store(ctx);
    List<RateLimit> out = new ArrayList<>();
    for (Path path : Schema.LIMIT_INDEX.keys(s, indexPrefix)) {
      Schema.LimitRow row = Schema.LIMIT.get(s, path).orElseThrow(() -> missingRow(path));
      out.add(new RateLimit(path, row.quota(), row.flow()));
    }
    return out;
  }

  private static String collision(Path path) {
    return "the store key of " + path + " (a 16-byte hash of the path) is held by another path's"
        + " rate limit";
  }

  private static StorageException missingRow(Path path) {
    return new StorageException("rate limit " + path + " is indexed but has no row");
  }

  /**
   * Refuses what a query names as a channel or client when it is neither (SPEC §6).
   *
   * @throws RateLimitException {@link ErrorCode#INVALID_CHANNEL_OR_CLIENT_ID}
   */
  public static void requireQueryId(String channelOrClientId) {
    if (!Identifiers.isChannelOrClientId(channelOrClientId)) {
      throw new RateLimitException(
          ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID,
          "not a channel or client id: " + Texts.quote(channelOrClientId));
    }
  }

  // ---------------------------------------------------------------- pending packets

  /**
   * Records a send counted in the current window (undone on failure only while it exists). Works
   * for any path; for a path without a rate limit (genesis, other modules) it also records the
   * path, so listings can name the marker.
   */
  public void setPendingSendPacket(BlockContext ctx, PendingPacket packet) {
    setMarker(ctx, Schema.PENDING_SEND, packet);
  }

  /**
   * The middleware's fast path of {@link #setPendingSendPacket}: records the marker of a send
   * that {@link #checkRateLimitAndUpdateFlow} counted in this same context (it returned true, so
   * the path has a rate limit), without looking the path up again.
   *
   * @throws IllegalArgumentException if {@code sequence} is 0
   */
  public void setCountedSendPacket(BlockContext ctx, RateLimitedPacket counted, long sequence) {
    Schema.PENDING_SEND.put(store(ctx), countedMarker(counted, sequence), Schema.Unit.INSTANCE);
  }

  /** Removes a pending send marker if it exists (a blind delete: no read). */
  public void removePendingSendPacket(BlockContext ctx, PendingPacket packet) {
    Schema.PENDING_SEND.delete(store(ctx), markerKey(packet));
  }

  /** Whether the send was counted in the current window ({@code CheckPacketSentDuringCurrentQuota}). */
  public boolean isPendingSendPacket(BlockContext ctx, PendingPacket packet) {
    return Schema.PENDING_SEND.has(store(ctx), markerKey(packet));
  }

  /** Every pending send marker, in canonical order (channel, denom, sequence). */
  public List<PendingPacket> getAllPendingSendPackets(BlockContext ctx) {
    return allMarkers(store(ctx), Schema.PENDING_SEND);
  }

  /** The pending send markers of one path, by sequence. */
  public List<PendingPacket> getPendingSendPackets(BlockContext ctx, Path path) {
    return markersOf(store(ctx), Schema.PENDING_SEND, path);
  }

  /** Records a receive counted in the current window whose acknowledgement is asynchronous. */
  public void setPendingRecvPacket(BlockContext ctx, PendingPacket packet) {
    setMarker(ctx, Schema.PENDING_RECV, packet);
  }

  /** The fast path of {@link #setPendingRecvPacket}, as {@link #setCountedSendPacket}. */
  public void setCountedRecvPacket(BlockContext ctx, RateLimitedPacket counted, long sequence) {
    Schema.PENDING_RECV.put(store(ctx), countedMarker(counted, sequence), Schema.Unit.INSTANCE);
  }

  /**
   * Records that the counted receive {@code (counted, sequence)}, whose app has not returned yet,
   * was acknowledged meanwhile, so its marker was stored and settled. Returns false (and records
   * nothing) when that is already recorded in {@code ctx}: the receive is settled once. The record
   * lives in the store so that it rolls back with the branch the acknowledgement was written in;
   * {@link #takeSettledWhileReceiving} removes it before the receive commits.
   */
  public boolean recordSettledWhileReceiving(
      BlockContext ctx, RateLimitedPacket counted, long sequence) {
    KvStore s = store(ctx);
    Schema.Marker key = countedMarker(counted, sequence);
    if (Schema.SETTLED_WHILE_RECEIVING.has(s, key)) {
      return false;
    }
    Schema.SETTLED_WHILE_RECEIVING.put(s, key, Schema.Unit.INSTANCE);
    return true;
  }

  /**
   * Whether {@link #recordSettledWhileReceiving} was recorded for this receive in what {@code ctx}
   * holds (not in a branch discarded since), without removing it: for a receive of the same packet
   * nested in another, whose outer receive takes it.
   */
  public boolean isSettledWhileReceiving(
      BlockContext ctx, RateLimitedPacket counted, long sequence) {
    return Schema.SETTLED_WHILE_RECEIVING.has(store(ctx), countedMarker(counted, sequence));
  }

  /**
   * Whether {@link #recordSettledWhileReceiving} was recorded for this receive in what {@code ctx}
   * holds (not in a branch discarded since); removes the record.
   */
  public boolean takeSettledWhileReceiving(
      BlockContext ctx, RateLimitedPacket counted, long sequence) {
    KvStore s = store(ctx);
    Schema.Marker key = countedMarker(counted, sequence);
    if (!Schema.SETTLED_WHILE_RECEIVING.has(s, key)) {
      return false;
    }
    Schema.SETTLED_WHILE_RECEIVING.delete(s, key);
    return true;
  }

  /** Removes a pending recv marker if it exists (a blind delete: no read). */
  public void removePendingRecvPacket(BlockContext ctx, PendingPacket packet) {
    Schema.PENDING_RECV.delete(store(ctx), markerKey(packet));
  }

  /** Whether the receive was counted in the current window and still awaits its ack. */
  public boolean isPendingRecvPacket(BlockContext ctx, PendingPacket packet) {
    return Schema.PENDING_RECV.has(store(ctx), markerKey(packet));
  }

  /** Every pending recv marker, in canonical order. */
  public List<PendingPacket> getAllPendingRecvPackets(BlockContext ctx) {
    return allMarkers(store(ctx), Schema.PENDING_RECV);
  }

  /** The pending recv markers of one path, by sequence. */
  public List<PendingPacket> getPendingRecvPackets(BlockContext ctx, Path path) {
    return markersOf(store(ctx), Schema.PENDING_RECV, path);
  }

  /**
   * Removes the send and recv markers of exactly this (channel, denom): other denoms on the
   * channel and look-alike channels ({@code channel-11} for {@code channel-1}) keep theirs (each
   * path's markers are one prefix of its own hash).
   */
  public void removeAllPendingPackets(BlockContext ctx, Path path) {
    Objects.requireNonNull(path, "path");
    KvStore s = store(ctx);
    Schema.PENDING_SEND.deleteAll(s, Schema.markerPrefix(Schema.PENDING_SEND, path));
    Schema.PENDING_RECV.deleteAll(s, Schema.markerPrefix(Schema.PENDING_RECV, path));
  }

  private void setMarker(
      BlockContext ctx, Table<Schema.Marker, Schema.Unit> table, PendingPacket packet) {
    KvStore s = store(ctx);
    table.put(s, markerKey(packet), Schema.Unit.INSTANCE);
    Path path = packet.path();
    if (!Schema.LIMIT.has(s, path)) {
      Schema.MARKER_PATH.put(s, path, path);
    }
  }

  /** A counted packet was validated already: its marker key needs no PendingPacket. */
  private static Schema.Marker countedMarker(RateLimitedPacket counted, long sequence) {
    Objects.requireNonNull(counted, "counted");
    if (sequence == 0) {
      throw new IllegalArgumentException("sequence must be at least 1");
    }
    return Schema.Marker.of(counted.channelOrClientId(), counted.denom(), sequence);
  }

  private static Schema.Marker markerKey(PendingPacket packet) {
    return Schema.Marker.of(Objects.requireNonNull(packet, "packet"));
  }

  private static List<PendingPacket> markersOf(
      KvStore s, Table<Schema.Marker, Schema.Unit> table, Path path) {
    Objects.requireNonNull(path, "path");
    List<PendingPacket> out = new ArrayList<>();
    for (Schema.Marker m : table.keys(s, Schema.markerPrefix(table, path))) {
      out.add(new PendingPacket(path.channelOrClientId(), path.denom(), m.sequence()));
    }
    return out;
  }

  /**
   * Every marker of a table in canonical order: the hashes are resolved through the rate limit
   * index and the marker-path table, then sorted by (channel, denom) as unsigned UTF-8 bytes and
   * the sequence as an unsigned number.
   */
  private static List<PendingPacket> allMarkers(KvStore s, Table<Schema.Marker, Schema.Unit> table) {
    List<Schema.Marker> markers = table.keys(s, table.prefix());
    if (markers.isEmpty()) {
      return List.of();
    }
    Map<ByteBuffer, Path> paths = new HashMap<>(); // lookups only, never iterated
    for (Path p : Schema.LIMIT_INDEX.keys(s, Schema.LIMIT_INDEX.prefix())) {
      paths.put(ByteBuffer.wrap(PathHash.of(p.channelOrClientId(), p.denom())), p);
    }
    for (Path p : Schema.MARKER_PATH.valuesUnder(s, Schema.MARKER_PATH.prefix())) {
      paths.put(ByteBuffer.wrap(PathHash.of(p.channelOrClientId(), p.denom())), p);
    }
    List<PendingPacket> out = new ArrayList<>(markers.size());
    for (Schema.Marker m : markers) {
      Path p = paths.get(ByteBuffer.wrap(m.pathHash()));
      if (p == null) {
        throw new StorageException("pending marker " + Long.toUnsignedString(m.sequence())
            + " of table " + table.name() + " belongs to no known path");
      }
      out.add(new PendingPacket(p.channelOrClientId(), p.denom(), m.sequence()));
    }
    out.sort(CANONICAL_MARKERS);
    return out;
  }

  /** (channel, denom) by unsigned UTF-8 bytes, then the sequence as an unsigned number. */
  private static final Comparator<PendingPacket> CANONICAL_MARKERS =
      Comparator.<PendingPacket, byte[]>comparing(
              p -> p.channelOrClientId().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned)
          .thenComparing(p -> p.denom().getBytes(StandardCharsets.UTF_8), Arrays::compareUnsigned)
          .thenComparing(PendingPacket::sequence, Long::compareUnsigned);

  // ---------------------------------------------------------------- blacklist

  /** Halts all IBC transfers of a denom, in both directions, on all channels. Idempotent. */
  public void addDenomToBlacklist(BlockContext ctx, String denom) {
    Schema.BLACKLIST.put(store(ctx), requireDenom(denom), Schema.Unit.INSTANCE);
    setBlacklistBits(ctx, denom, true);
  }

  /** Re-enables transfers of a denom. Idempotent. */
  public void removeDenomFromBlacklist(BlockContext ctx, String denom) {
    Schema.BLACKLIST.delete(store(ctx), requireDenom(denom));
    setBlacklistBits(ctx, denom, false);
  }

  /** Keeps the blacklist bit of every limit row of {@code denom} equal to the blacklist. */
  private void setBlacklistBits(BlockContext ctx, String denom, boolean blacklisted) {
    KvStore s = store(ctx);
    // the prefix also covers denoms extending this one with a 0x00 ("a" and "a\0b"): filtered
    for (Path path : Schema.LIMIT_BY_DENOM.keys(s, Schema.LIMIT_BY_DENOM.prefix(denom))) {
      if (path.denom().equals(denom)) {
        Schema.LimitRow row = Schema.LIMIT.get(s, path).orElseThrow(() -> missingRow(path));
        if (row.blacklisted() != blacklisted) {
          Schema.LIMIT.put(s, path, row.withBlacklisted(blacklisted));
        }
      }
    }
  }

  public boolean isDenomBlacklisted(BlockContext ctx, String denom) {
    return Schema.BLACKLIST.has(store(ctx), requireDenom(denom));
  }

  /** Every blacklisted denom, in canonical (unsigned UTF-8) order. */
  public List<String> getAllBlacklistedDenoms(BlockContext ctx) {
    return Schema.BLACKLIST.keys(store(ctx), Schema.BLACKLIST.prefix());
  }

  private static String requireDenom(String denom) {
    Objects.requireNonNull(denom, "denom");
    if (denom.isEmpty()) {
      throw new IllegalArgumentException("denom must not be empty");
    }
    return Texts.requireWellFormed(denom, "denom");
  }

  // ---------------------------------------------------------------- whitelist

  /** Lets transfers from {@code sender} to {@code receiver} skip the quota. Idempotent. */
  public void setWhitelistedAddressPair(BlockContext ctx, WhitelistedAddressPair pair) {
    Schema.WHITELIST.put(store(ctx), Objects.requireNonNull(pair, "pair"), Schema.Unit.INSTANCE);
  }

  /** Counts that pair's transfers again. Idempotent. */
  public void removeWhitelistedAddressPair(BlockContext ctx, WhitelistedAddressPair pair) {
    Schema.WHITELIST.delete(store(ctx), Objects.requireNonNull(pair, "pair"));
  }

  /**
   * Whether (sender, receiver) is on the whitelist: exact strings. A pair the whitelist could not
   * hold (null, empty, or not valid Unicode) is not on it.
   */
  public boolean isAddressPairWhitelisted(BlockContext ctx, String sender, String receiver) {
    if (sender == null || receiver == null || sender.isEmpty() || receiver.isEmpty()) {
      return false;
    }
    WhitelistedAddressPair pair;
    try {
      pair = new WhitelistedAddressPair(sender, receiver);
    } catch (IllegalArgumentException notStorable) {
      return false; // a lone surrogate: never looked up, its UTF-8 key would be another pair's
    }
    return Schema.WHITELIST.has(store(ctx), pair);
  }

  /** Every whitelisted pair, in canonical order (sender, receiver). */
  public List<WhitelistedAddressPair> getAllWhitelistedAddressPairs(BlockContext ctx) {
    return Schema.WHITELIST.keys(store(ctx), Schema.WHITELIST.prefix());
  }

  // ---------------------------------------------------------------- packets

  /**
   * Checks a packet against the blacklist and its path's quota and, when it fits, adds its amount
   * to the flow (SPEC §2 order): a blacklisted denom is rejected in both directions even without a
   * rate limit; no rate limit or a whitelisted (sender, receiver) pair passes with nothing
   * recorded. Pending markers are the caller's: a send knows its sequence only after sending.
   *
   * <p>A rejection emits {@code transfer_denied} (code 11: {@code ratelimit_flow_overflow}) with
   * {@link BlockContext#emitDurable} (it stays visible when the caller rolls the step back) and
   * writes nothing.
   *
   * @return true iff the flow was updated (so the caller records a pending marker)
   * @throws RateLimitException {@link ErrorCode#DENOM_BLACKLISTED}, {@link
   *     ErrorCode#QUOTA_EXCEEDED} (with the numbers and the window reset time), or {@link
   *     ErrorCode#FLOW_OVERFLOW} (the same, and a {@code ratelimit_flow_overflow} event)
   */
  public boolean checkRateLimitAndUpdateFlow(
      BlockContext ctx, PacketDirection direction, RateLimitedPacket packet) {
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(packet, "packet");
    KvStore s = store(ctx);
    // a limited path carries its denom's blacklist bit: one read instead of two (same SPEC §2 order)
    byte[] rowKey = Schema.limitKey(packet.channelOrClientId(), packet.denom()); // read and write
    byte[] stored = s.get(rowKey).orElse(null);
    Schema.RowLayout row = stored == null ? null : Schema.RowLayout.of(stored);
    boolean blacklisted =
        row != null ? row.blacklisted() : Schema.BLACKLIST.has(s, packet.denom());
    if (blacklisted) {
      String msg = "denom " + Texts.quote(packet.denom()) + " is blacklisted";
      ctx.emitDurable(
          RateLimitEvents.transferDenied(
              RateLimitEvents.REASON_BLACKLISTED_DENOM,
              direction,
              packet.denom(),
              packet.channelOrClientId(),
              packet.amount(),
              msg));
      throw new RateLimitException(ErrorCode.DENOM_BLACKLISTED, msg);
    }
    if (row == null) {
      return false;
    }
    if (isAddressPairWhitelisted(ctx, packet.sender(), packet.receiver())) {
      return false;
    }
    // the usual packet in long arithmetic; the exact rules decide the rest (and word rejections)
    byte[] updated = Schema.addToFlowIfWithin(stored, row, direction, packet.amount());
    if (updated != null) {
      s.put(rowKey, updated);
      return true;
    }
    Flow flow = row.flow(stored);
    Quota quota = row.quota();
    QuotaDecision decision;
    try {
      decision = QuotaRules.check(direction, flow, quota, packet.amount());
    } catch (RateLimitException e) {
      if (e.code() != ErrorCode.FLOW_OVERFLOW) {
        throw e;
      }
      // the rules word the sum; the keeper adds the path and when the window resets
      String msg = verb(direction) + " on " + packet.path() + ": " + e.detail()
          + windowResetText(ctx, quota);
      ctx.emitDurable(
          RateLimitEvents.flowOverflow(
              direction, packet.denom(), packet.channelOrClientId(), packet.amount(), msg));
      throw new RateLimitException(ErrorCode.FLOW_OVERFLOW, msg, e);
    }
    if (!decision.allowed()) {
      String msg = quotaExceededMessage(ctx, direction, packet.path(), flow, quota, decision);
      ctx.emitDurable(
          RateLimitEvents.transferDenied(
              RateLimitEvents.REASON_RATE_LIMIT_EXCEEDED,
              direction,
              packet.denom(),
              packet.channelOrClientId(),
              packet.amount(),
              msg));
      throw new RateLimitException(ErrorCode.QUOTA_EXCEEDED, msg);
    }
    s.put(rowKey, Schema.encodeWithFlow(stored, row, flow, decision.flow()));
    return true;
  }

  private String quotaExceededMessage(
      BlockContext ctx,
      PacketDirection direction,
      Path path,
      Flow flow,
      Quota quota,
      QuotaDecision decision) {
    return verb(direction) + " on " + path
        + ": net " + (direction == PacketDirection.SEND ? "outflow " : "inflow ")
        + decision.netFlowAfter()
        + " would exceed " + decision.percent() + "% of channel value " + flow.channelValue()
        + " (threshold " + decision.threshold() + ")"
        + windowResetText(ctx, quota);
  }

  private static String verb(PacketDirection direction) {
    return direction == PacketDirection.SEND ? "send" : "recv";
  }

  /** "; window resets at T (in Ns)" for a rejection's error, or "" before the first epoch. */
  private String windowResetText(BlockContext ctx, Quota quota) {
    return getHourEpoch(ctx)
        .map(epoch -> {
          Instant resetsAt = EpochRules.windowResetsAt(epoch, quota.durationHours());
          return "; window resets at " + resetsAt
              + " (in " + secondsUntil(ctx.time(), resetsAt) + "s)";
        })
        .orElse("");
  }

  /**
   * Takes back a failed or timed-out send: if its marker exists (it was sent in the current
   * window), {@code outflow -= amount} clamped at 0 and the marker is removed.
   *
   * @return whether the flow was changed
   */
  public boolean undoSendPacket(BlockContext ctx, PendingPacket packet, BigInteger amount) {
    return undo(ctx, Schema.PENDING_SEND, PacketDirection.SEND, packet, amount);
  }

  /**
   * Takes back a receive whose asynchronous acknowledgement is an error: if its marker exists,
   * {@code inflow -= amount} clamped at 0 and the marker is removed.
   *
   * @return whether the flow was changed
   */
  public boolean undoReceivePacket(BlockContext ctx, PendingPacket packet, BigInteger amount) {
    return undo(ctx, Schema.PENDING_RECV, PacketDirection.RECV, packet, amount);
  }

  private boolean undo(
      BlockContext ctx,
      Table<Schema.Marker, Schema.Unit> markers,
      PacketDirection direction,
      PendingPacket packet,
      BigInteger amount) {
    Schema.Marker key = markerKey(packet);
    Amounts.require(amount, "amount");
    KvStore s = store(ctx);
    if (!markers.has(s, key)) {
      return false;
    }
    markers.delete(s, key);
    Path path = packet.path();
    Optional<Schema.LimitRow> row = Schema.LIMIT.get(s, path);
    if (row.isEmpty()) {
      return false;
    }
    Schema.LIMIT.put(s, path, row.get().withFlow(QuotaRules.undo(direction, row.get().flow(), amount)));
    return true;
  }

  // ---------------------------------------------------------------- epochs and windows

  /** The hour epoch, once InitGenesis stored it. */
  public Optional<HourEpoch> getHourEpoch(BlockContext ctx) {
    return Schema.HOUR_EPOCH.get(store(ctx), Schema.Unit.INSTANCE);
  }

  /**
   * Advances the hour epoch to the block time and resets every window that ended: all missed
   * hours in one block (fix over the Go module, which advanced one hour per block), each limit at
   * most once. Work is proportional to the limits that reset, not to all limits. All or nothing:
   * a failure (a supply the bank cannot hold, code 11) leaves neither the new epoch nor a reset.
   *
   * @throws RateLimitException {@link ErrorCode#HOUR_EPOCH_INVALID} when no epoch is stored or the
   *     epoch number would pass 2^64 − 1, {@link ErrorCode#FLOW_OVERFLOW} when a resetting limit's
   *     supply is 2^256 or more
   */
  public void beginBlock(BlockContext ctx) {
    HourEpoch epoch =
        getHourEpoch(ctx)
            .orElseThrow(
                () ->
                    new RateLimitException(
                        ErrorCode.HOUR_EPOCH_INVALID,
                        "no hour epoch stored: InitGenesis must run before the first BeginBlock"));
    long hours = EpochRules.hoursToAdvance(epoch, ctx.time());
    if (hours == 0) {
      return;
    }
    HourEpoch next = EpochRules.advance(epoch, hours, ctx.height());
    try (BlockContext rollover = ctx.branch()) {
      Schema.HOUR_EPOCH.put(store(rollover), Schema.Unit.INSTANCE, next);
      resetEndedWindows(rollover, epoch.epochNumber(), next.epochNumber());
      rollover.commit();
    }
  }

  private void resetEndedWindows(BlockContext ctx, long before, long after) {
    KvStore s = store(ctx);
    long duration = nextScheduledDuration(s, 0);
    while (duration != 0) {
      if (EpochRules.windowEnds(before, after, duration)) {
        List<Path> due = new ArrayList<>();
        Schema.RESET_SCHEDULE.forEach(
            s, Schema.RESET_SCHEDULE.prefix(duration), (entry, unit) -> due.add(entry.path()));
        for (Path path : due) {
          // the schedule holds exactly the limited paths: their rows are read by hash alone
          Schema.LIMIT.get(s, path).ifPresent(row -> resetWindow(ctx, path, row));
        }
      }
      if (duration == -1L) { // 2^64-1 hours: nothing can follow
        break;
      }
      duration = nextScheduledDuration(s, duration + 1);
    }
  }

  /** The smallest scheduled window length at or above {@code from} (unsigned), or 0 if none. */
  private static long nextScheduledDuration(KvStore s, long from) {
    byte[] start = Schema.RESET_SCHEDULE.prefix(from);
    byte[] end = Schema.RESET_SCHEDULE.prefix().clone();
    end[0]++;
    try (KvScan scan = s.scan(start, end)) {
      if (!scan.hasNext()) {
        return 0;
      }
      KvEntry e = scan.next();
      return Schema.RESET_SCHEDULE.decodeKey(e.key()).durationHours();
    }
  }

  /**
   * The capacity left on a path in the current window and when it resets.
   *
   * @throws RateLimitException {@link ErrorCode#HOUR_EPOCH_INVALID} when no epoch is stored (checked
   *     first: a store InitGenesis never ran on, or not the one this keeper reads, must not answer
   *     "no limit"), {@link ErrorCode#RATE_LIMIT_NOT_FOUND}
   */
  public RemainingCapacity remainingCapacity(BlockContext ctx, Path path) {
    HourEpoch epoch =
        getHourEpoch(ctx)
            .orElseThrow(
                () -> new RateLimitException(ErrorCode.HOUR_EPOCH_INVALID, "no hour epoch stored"));
    RateLimit rl = requireRateLimit(ctx, path);
    Instant resetsAt = EpochRules.windowResetsAt(epoch, rl.quota().durationHours());
    return new RemainingCapacity(
        path,
        capacity(rl, PacketDirection.SEND),
        capacity(rl, PacketDirection.RECV),
        resetsAt,
        secondsUntil(ctx.time(), resetsAt));
  }

  private static RemainingCapacity.Direction capacity(RateLimit rl, PacketDirection direction) {
    int pct = QuotaRules.percent(rl.quota(), direction);
    BigInteger threshold = QuotaRules.threshold(rl.flow().channelValue(), pct);
    BigInteger net = QuotaRules.netFlow(rl.flow(), direction);
    Optional<BigInteger> remaining =
        rl.flow().channelValue().signum() == 0
            ? Optional.empty()
            : Optional.of(threshold.subtract(net).max(BigInteger.ZERO));
    return new RemainingCapacity.Direction(pct, threshold, net, remaining);
  }

  private static long secondsUntil(Instant now, Instant then) {
    if (!then.isAfter(now)) {
      return 0;
    }
    if (then.equals(Instant.MAX)) {
      return Long.MAX_VALUE;
    }
    Duration d = Duration.between(now, then);
    return d.getNano() == 0 ? d.getSeconds() : d.getSeconds() + 1;
  }

  // ---------------------------------------------------------------- genesis

  /**
   * Loads a validated genesis into an empty module store and stores the hour epoch: the imported
   * one, or (when the genesis has none) the UTC hour of the genesis block (SPEC §4).
   *
   * @throws IllegalStateException if InitGenesis already ran on this store (it holds an hour
   *     epoch): a second run would merge the limits and move the epoch without resetting a window
   */
  public void initGenesis(BlockContext ctx, Genesis genesis) {
    Objects.requireNonNull(genesis, "genesis");
    if (Schema.HOUR_EPOCH.has(store(ctx), Schema.Unit.INSTANCE)) {
      throw new IllegalStateException(
          "InitGenesis already ran on this module store (it holds an hour epoch): it runs once,"
              + " when the chain starts; a node resuming on its home skips it");
    }
    for (RateLimit rl : genesis.rateLimits()) {
      setRateLimit(ctx, rl);
    }
    genesis.whitelistedAddressPairs().forEach(p -> setWhitelistedAddressPair(ctx, p));
    genesis.blacklistedDenoms().forEach(d -> addDenomToBlacklist(ctx, d));
    genesis.pendingSendPackets().forEach(p -> setPendingSendPacket(ctx, p));
    genesis.pendingRecvPackets().forEach(p -> setPendingRecvPacket(ctx, p));
    HourEpoch epoch =
        genesis.hourEpoch().orElseGet(() -> EpochRules.initial(ctx.time(), ctx.height()));
    Schema.HOUR_EPOCH.put(store(ctx), Schema.Unit.INSTANCE, epoch);
    Schema.LAYOUT.put(store(ctx), Schema.Unit.INSTANCE, Schema.LAYOUT_VERSION);
  }

  /**
   * Checks that the module's store is in the layout this build reads, before a node resumes on it
   * or a tool queries it: an empty store, or one InitGenesis wrote with this layout. A store of
   * the first layout (before the hashed per-packet rows) would otherwise read as holding no rate
   * limits at all.
   *
   * @throws StorageException naming the layout found; there is no in-place migration (export the
   *     genesis with the build that wrote the store, then InitGenesis with this one)
   */
  public void requireCurrentLayout(BlockContext ctx) {
    KvStore s = store(ctx);
    Optional<Long> version = Schema.LAYOUT.get(s, Schema.Unit.INSTANCE);
    if (version.isPresent()) {
      if (version.get() != Schema.LAYOUT_VERSION) {
        throw new StorageException("the rate-limit store has layout version "
            + Long.toUnsignedString(version.get()) + "; this build reads version "
            + Schema.LAYOUT_VERSION);
      }
      return;
    }
    byte[] from = {(byte) Schema.FIRST_RETIRED_TABLE};
    byte[] to = {(byte) (Schema.LAST_RETIRED_TABLE + 1)};
    boolean firstLayout;
    try (KvScan scan = s.scan(from, to)) {
      firstLayout = scan.hasNext();
    }
    if (firstLayout || Schema.HOUR_EPOCH.has(s, Schema.Unit.INSTANCE)) {
      throw new StorageException("the rate-limit store was written by the first layout (version 1,"
          + " quota and flow rows keyed by channel and denom), which this build does not read;"
          + " export its genesis with the build that wrote it and start from that genesis");
    }
  }

  /** The module's state as a genesis, every list in canonical order. */
  public Genesis exportGenesis(BlockContext ctx) {
    return new Genesis(
        getAllRateLimits(ctx),
        getAllWhitelistedAddressPairs(ctx),
        getAllBlacklistedDenoms(ctx),
        getAllPendingSendPackets(ctx),
        getAllPendingRecvPackets(ctx),
        getHourEpoch(ctx));
  }
}
