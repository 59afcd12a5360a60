package dev.ratelimit.middleware;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.RateLimitedPacket;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.middleware.transfer.DenomResolver;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * How a packet is counted and settled, the same for IBC v1 ({@link RateLimitMiddleware}) and IBC
 * v2 ({@link RateLimitMiddlewareV2}): only where the ids and the data come from differs.
 */
final class PacketRules {
  private PacketRules() {}

  /** What a packet counts against: its path (our channel or client, the local denom) and data. */
  static RateLimitedPacket counted(String channelId, String denom, FungibleTokenPacketData ftpd) {
    try {
      return new RateLimitedPacket(channelId, denom, ftpd.amount(), ftpd.sender(), ftpd.receiver());
    } catch (IllegalArgumentException e) {
      throw new RateLimitException(ErrorCode.INVALID_PACKET_DATA, e.getMessage());
    }
  }

  static void requireChannelId(String id, String field) {
    if (!Identifiers.isChannelOrClientId(id)) {
      throw new RateLimitException(ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID,
          field + " is not a channel or client id: " + Texts.quote(id));
    }
  }

  /** IBC core never hands out sequence 0; a packet with it is refused, never counted. */
  static void requireSequence(long sequence) {
    if (sequence == 0) {
      throw new RateLimitException(ErrorCode.INVALID_PACKET_DATA, "packet sequence must not be 0");
    }
  }

  /** Reports a send refused as invalid in a durable event (it outlives the failed step). */
  static RateLimitException invalidSend(BlockContext ctx, String channelId, RateLimitException e) {
    ctx.emitDurable(
        RateLimitEvents.invalidPacket(String.valueOf(channelId), e.code(), e.getMessage()));
    return e;
  }

  /**
   * Runs one settling step (an ack, a timeout, an asynchronous ack) in its own branch of {@code
   * tx}. A packet the step cannot read (undecodable data, odd ids) changes nothing and becomes a
   * durable {@code ratelimit_invalid_packet} event on {@code channelId}, never an exception: a bad
   * packet must never strand a refund, and the report stays when the app then fails the step.
   */
  static void settle(BlockContext tx, String channelId, Consumer<BlockContext> step) {
    try (BlockContext b = tx.branch()) {
      step.accept(b);
      b.commit();
    } catch (RateLimitException e) {
      tx.emitDurable(RateLimitEvents.invalidPacket(channelId, e.code(), e.getMessage()));
    } catch (IllegalArgumentException e) {
      tx.emitDurable(
          RateLimitEvents.invalidPacket(channelId, ErrorCode.INVALID_PACKET_DATA, e.getMessage()));
    }
  }

  /**
   * A sent packet's outcome: success removes the pending send marker (capacity is not given back);
   * a failure (error ack, timeout) gives the outflow back if the marker exists, that is if the
   * packet was sent in the current window.
   */
  static void settleSend(
      RateLimitKeeper keeper,
      BlockContext step,
      String channelId,
      String field,
      FungibleTokenPacketData ftpd,
      long sequence,
      boolean failed) {
    PendingPacket marker = sentMarker(channelId, field, ftpd, sequence);
    if (failed) {
      keeper.undoSendPacket(step, marker, ftpd.amount());
    } else {
      keeper.removePendingSendPacket(step, marker);
    }
  }

  /**
   * A malformed acknowledgement of a sent packet: nothing to settle, but its fault (code 14) and
   * then any fault of the packet itself (8, 9 or 10, as with any other ack) are reported, in
   * durable events.
   */
  static void malformedAck(BlockContext tx, String channelId, String field,
      Supplier<FungibleTokenPacketData> data, long sequence) {
    tx.emitDurable(RateLimitEvents.invalidPacket(channelId, ErrorCode.INVALID_ACKNOWLEDGEMENT,
        "acknowledgement is neither a result nor an error; flow unchanged"));
    settle(tx, channelId, step -> sentMarker(channelId, field, data.get(), sequence));
  }

  /**
   * The pending send marker a sent packet would have: its checks are every fault an ack or a
   * timeout reports of the packet itself (an id, the denom, the sequence).
   */
  static PendingPacket sentMarker(
      String channelId, String field, FungibleTokenPacketData ftpd, long sequence) {
    requireChannelId(channelId, field);
    return marker(channelId, DenomResolver.sendDenom(ftpd.denom()), sequence);
  }

  /**
   * A received packet's asynchronous acknowledgement: success removes the pending recv marker; an
   * error gives the inflow back if the marker exists (received in the current window).
   */
  static void settleRecv(
      RateLimitKeeper keeper,
      BlockContext step,
      PendingPacket marker,
      FungibleTokenPacketData ftpd,
      boolean success) {
    if (success) {
      keeper.removePendingRecvPacket(step, marker);
    } else {
      keeper.undoReceivePacket(step, marker, ftpd.amount());
    }
  }

  static PendingPacket marker(String channelId, String denom, long sequence) {
    requireSequence(sequence);
    return new PendingPacket(channelId, denom, sequence);
  }
}
