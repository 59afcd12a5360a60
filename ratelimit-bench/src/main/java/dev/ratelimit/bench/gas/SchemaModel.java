package dev.ratelimit.bench.gas;

import dev.ratelimit.bench.fixture.BenchChain;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.Quota;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Our store accesses per packet computed from first principles (key and value encodings), for the
 * layout the keeper uses today ({@link #CURRENT}, which the tests prove equal to what {@link
 * MeteredKvStore} measures), for the layout it replaced ({@link #FIRST}) and for the steps between
 * them ({@link #steps()}), so a schema change can be priced before anyone writes it and the
 * before/after comparison stays printable after it.
 *
 * <p>Encodings. A key is a table id byte then its parts: in the first layout a string part is its
 * UTF-8 bytes, one extra byte per 0x00, and a 0x00 terminator; in the current layout the limit
 * row and the markers are keyed by a fixed-width path hash instead; a sequence is 8 bytes. The
 * first layout's quota value is the {@code Quota} protobuf (percents as decimal strings, duration
 * as a varint) and its flow value three magnitudes, each a length byte and its big-endian bytes;
 * the current limit row is two percent bytes (the send byte's bit 7 is the blacklist bit), the
 * duration as an unsigned LEB128 varint, then the flow as before.
 */
public final class SchemaModel {

  /**
   * A store layout and middleware behaviour to price.
   *
   * @param recvMarkerOnlyWhenAsync a received packet's pending marker is written only when the app
   *     leaves the acknowledgement for later (kept in memory while the app runs); the first layout
   *     wrote it before the app ran and deleted it when the app acked at once
   * @param blindDeleteOnSuccess a success acknowledgement deletes the marker without checking it
   *     first (a delete of a missing key is a no-op)
   * @param quotaAndFlowInOneRow one row per limit holding a compact quota (two percent bytes and a
   *     varint duration) and the flow, instead of a protobuf quota row and a flow row
   * @param pathHashBytes 0: limit rows and markers are keyed by (channel, denom) as strings;
   *     otherwise by the first {@code n} bytes of a hash of the path (a governance-written index
   *     keyed by (channel, denom) keeps listings in canonical order)
   * @param blacklistBitInRow a limit row carries its denom's blacklist bit, so a packet on a
   *     limited path needs no blacklist lookup (the blacklist is still read when there is no limit)
   */
  public record Layout(
      String name,
      boolean recvMarkerOnlyWhenAsync,
      boolean blindDeleteOnSuccess,
      boolean quotaAndFlowInOneRow,
      int pathHashBytes,
      boolean blacklistBitInRow) {
    public Layout {
      Objects.requireNonNull(name, "name");
      if (pathHashBytes < 0) {
        throw new IllegalArgumentException(
            "pathHashBytes must not be negative, got " + pathHashBytes);
      }
    }
  }

  /**
   * The first layout (v0.1, before the layout change): quota and flow rows and markers keyed by
   * (channel, denom) strings, the recv marker written before the app runs, a success ack that
   * checks the marker before deleting it, the blacklist read by every packet.
   */
  public static final Layout FIRST =
      new Layout("first layout (v0.1 before the change)", false, false, false, 0, false);

  /**
   * The layout of {@code ratelimit-core}'s {@code Schema} and today's middleware: the last of
   * {@link #steps()} (steps 1-5 of the change all applied).
   */
  public static final Layout CURRENT =
      new Layout("5 + blacklist bit in the limit row (current)", true, true, true, 16, true);

  /**
   * The change from {@link #FIRST} to {@link #CURRENT}, one step at a time (each step keeps the
   * ones before it); the last step is {@link #CURRENT}.
   */
  public static List<Layout> steps() {
    return List.of(
        new Layout("1 recv marker only when the ack is async", true, false, false, 0, false),
        new Layout("2 + blind delete on a success ack", true, true, false, 0, false),
        new Layout("3 + quota and flow in one row", true, true, true, 0, false),
        new Layout(
            "4 + rows and markers keyed by a 16-byte path hash", true, true, true, 16, false),
        CURRENT);
  }

  private final String denom;
  private final String channel;
  private final String sender;
  private final String receiver;
  private final Quota quota;

  /** The model for {@link BenchChain}'s scenario packet and limit. */
  public static SchemaModel scenario() {
    return new SchemaModel(
        BenchChain.IBC_DENOM,
        BenchChain.CHANNEL,
        BenchChain.SENDER,
        BenchChain.RECEIVER,
        BenchChain.QUOTA);
  }

  public SchemaModel(String denom, String channel, String sender, String receiver, Quota quota) {
    this.denom = Objects.requireNonNull(denom, "denom");
    this.channel = Objects.requireNonNull(channel, "channel");
    this.sender = Objects.requireNonNull(sender, "sender");
    this.receiver = Objects.requireNonNull(receiver, "receiver");
    this.quota = Objects.requireNonNull(quota, "quota");
  }

  /** The accesses of {@code op} under {@code layout}, given the flow before and after it. */
  public List<StoreAccess> accesses(Layout layout, PacketOp op, Flow before, Flow after) {
    int pathKey =
        layout.pathHashBytes() == 0 ? 1 + part(channel) + part(denom) : 1 + layout.pathHashBytes();
    int markerKey = pathKey + Long.BYTES;
    List<StoreAccess> out = new ArrayList<>();
    switch (op) {
      case SEND, RECV, RECV_ASYNC -> {
        check(layout, pathKey, before, after, out);
        if (op != PacketOp.RECV) {
          out.add(StoreAccess.put(markerKey, 0));
        } else if (!layout.recvMarkerOnlyWhenAsync()) {
          out.add(StoreAccess.put(markerKey, 0));
          out.add(StoreAccess.has(markerKey, true));
          out.add(StoreAccess.delete(markerKey));
        }
      }
      case ACK, WRITE_ACK -> {
        if (!layout.blindDeleteOnSuccess()) {
          out.add(StoreAccess.has(markerKey, true));
        }
        out.add(StoreAccess.delete(markerKey));
      }
      case ACK_ERROR, TIMEOUT -> {
        out.add(StoreAccess.has(markerKey, true));
        out.add(StoreAccess.delete(markerKey));
        out.add(StoreAccess.get(pathKey, rowValue(layout, before)));
        out.add(StoreAccess.put(pathKey, rowValue(layout, after)));
      }
    }
    return out;
  }

  /** The keeper's check-and-update of a counted packet on a limited path. */
  private void check(Layout layout, int pathKey, Flow before, Flow after, List<StoreAccess> out) {
    if (!layout.blacklistBitInRow()) {
      out.add(StoreAccess.has(1 + part(denom), false));
    }
    out.add(
        StoreAccess.get(
            pathKey,
            layout.quotaAndFlowInOneRow() ? rowValue(layout, before) : protobufQuotaBytes()));
    out.add(StoreAccess.has(1 + part(sender) + part(receiver), false));
    if (!layout.quotaAndFlowInOneRow()) {
      out.add(StoreAccess.get(pathKey, flowBytes(before)));
    }
    out.add(StoreAccess.put(pathKey, rowValue(layout, after)));
  }

  /** What the per-packet row holds: the flow, or the compact quota and the flow. */
  private int rowValue(Layout layout, Flow flow) {
    return layout.quotaAndFlowInOneRow() ? compactQuotaBytes() + flowBytes(flow) : flowBytes(flow);
  }

  private int protobufQuotaBytes() {
    return stringField(Integer.toString(quota.maxPercentSend()))
        + stringField(Integer.toString(quota.maxPercentRecv()))
        + 1
        + GoModuleModel.varintBytes(quota.durationHours());
  }

  private int compactQuotaBytes() {
    return 2 + GoModuleModel.varintBytes(quota.durationHours());
  }

  static int flowBytes(Flow flow) {
    return magnitude(flow.inflow()) + magnitude(flow.outflow()) + magnitude(flow.channelValue());
  }

  private static int magnitude(BigInteger v) {
    return 1 + (v.bitLength() + 7) / 8;
  }

  /** A proto3 string field holding a non-empty string. */
  private static int stringField(String s) {
    int n = s.getBytes(StandardCharsets.UTF_8).length;
    return 1 + GoModuleModel.varintBytes(n) + n;
  }

  /** An order-preserving string key part: UTF-8, 0x00 escaped as 0x00 0xFF, 0x00 terminator. */
  private static int part(String s) {
    byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
    int zeros = 0;
    for (byte b : utf8) {
      if (b == 0) {
        zeros++;
      }
    }
    return utf8.length + zeros + 1;
  }
}
