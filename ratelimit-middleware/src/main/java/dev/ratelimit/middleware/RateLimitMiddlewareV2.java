package dev.ratelimit.middleware;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.RateLimitedPacket;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec;
import dev.ratelimit.middleware.ibc.v2.Acknowledgement;
import dev.ratelimit.middleware.ibc.v2.AsyncPackets;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import dev.ratelimit.middleware.ibc.v2.Packet;
import dev.ratelimit.middleware.ibc.v2.Payload;
import dev.ratelimit.middleware.ibc.v2.RecvPacketResult;
import dev.ratelimit.middleware.ibc.v2.WriteAcknowledgementWrapper;
import dev.ratelimit.middleware.transfer.DenomResolver;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.Ics20PayloadCodec;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The rate-limit middleware for IBC v2 (client-to-client packets with payloads), around the ICS-20
 * transfer app's IBC v2 module: the same rules, store and events as {@link RateLimitMiddleware},
 * with the packet's client ids where IBC v1 has channel ids (our source client on send, our
 * destination client on receive) and the payload's ports for the denom (SPEC §3). Payloads are
 * read with {@link Ics20PayloadCodec}, the decoder the transfer app uses.
 *
 * <ul>
 *   <li><b>send</b>: IBC core has assigned the sequence before the callback, so in one branch:
 *       decode, resolve the local denom, check and update the flow, record the pending send marker, then
 *       the app (which escrows or burns). Any failure, the app's included, discards all of it.
 *   <li><b>recv</b>: a rejection answers {@link
 *       dev.ratelimit.middleware.ibc.v2.PacketStatus#FAILURE} with ibc-go's exact rate-limit error
 *       acknowledgement and never calls the app (IBC core then writes the universal error
 *       acknowledgement). Otherwise the inflow is counted and the app runs: its {@code FAILURE}
 *       rolls the whole receive back, {@code SUCCESS} keeps it, and {@code ASYNC} leaves a pending
 *       recv marker for {@link #writeAcknowledgement}.
 *   <li><b>ack / timeout</b>: as {@link RateLimitMiddleware}: success removes the send marker; the
 *       universal error acknowledgement, an ICS-20 error acknowledgement or a timeout gives the
 *       outflow back if the marker exists; a malformed ack or an unreadable payload changes no flow
 *       and is reported in an event. The middleware itself never fails these callbacks.
 *   <li><b>async ack</b> ({@link WriteAcknowledgementWrapper}): settles the recv marker of the
 *       packet IBC core holds for it (the universal error acknowledgement gives the inflow back),
 *       then forwards the acknowledgement downstream.
 * </ul>
 *
 * <p>Host requirements, as ibc-go's core meets them: a packet carries exactly one payload (the
 * pending markers are keyed by client, denom and sequence, so two payloads of one packet would
 * share one); {@link AsyncPackets} holds a packet only once its receive has returned {@code
 * ASYNC} (an acknowledgement written while the app's {@code onRecvPacket} still runs is refused by
 * core, as in ibc-go).
 *
 * <p>Unlike ibc-go's IBC v2 rate-limiting middleware, a payload or acknowledgement it cannot read
 * on ack or timeout is an event, never a failed relay (as on IBC v1, SPEC §5), and the branch this
 * middleware opens rolls a failed receive back whether or not the host's core discards the
 * callback's writes on {@code FAILURE}.
 */
public final class RateLimitMiddlewareV2 implements IbcModule, WriteAcknowledgementWrapper {
  private final RateLimitKeeper keeper;
  private final Supplier<? extends IbcModule> app;
  private final WriteAcknowledgementWrapper downstream;
  private final AsyncPackets asyncPackets;

  /**
   * @param keeper the rate-limit keeper
   * @param app the wrapped ICS-20 transfer app's IBC v2 module; a supplier because an app that
   *     acknowledges asynchronously takes this middleware as its {@link
   *     WriteAcknowledgementWrapper} (with Dagger pass {@code provider::get})
   * @param downstream IBC core's acknowledgement writer, below this middleware
   * @param asyncPackets IBC core's packets awaiting an asynchronous acknowledgement
   */
  public RateLimitMiddlewareV2(
      RateLimitKeeper keeper,
      Supplier<? extends IbcModule> app,
      WriteAcknowledgementWrapper downstream,
      AsyncPackets asyncPackets) {
    this.keeper = Objects.requireNonNull(keeper, "keeper");
    this.app = Objects.requireNonNull(app, "app");
    this.downstream = Objects.requireNonNull(downstream, "downstream");
    this.asyncPackets = Objects.requireNonNull(asyncPackets, "asyncPackets");
  }

  private IbcModule app() {
    return Objects.requireNonNull(app.get(), "the wrapped app supplier returned null");
  }

  /**
   * Rate-limits a payload being sent, then calls the app. Undecodable data, an invalid source
   * client or sequence 0 also emit {@code ratelimit_invalid_packet} (durable).
   *
   * @throws RateLimitException code 9/10 (undecodable payload, an unknown version or encoding;
   *     9 also for sequence 0), 8 (invalid source client), 7 (blacklisted), 4 (quota exceeded) or
   *     11 (flow overflow); nothing is written and the app is not called
   */
  @Override
  public void onSendPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      Payload payload,
      String signer) {
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(payload, "payload");
    RateLimitedPacket counted;
    try {
      FungibleTokenPacketData ftpd = decode(payload);
      PacketRules.requireChannelId(sourceClient, "source_client");
      counted = PacketRules.counted(sourceClient, DenomResolver.sendDenom(ftpd.denom()), ftpd);
      PacketRules.requireSequence(sequence);
    } catch (RateLimitException e) {
      throw PacketRules.invalidSend(ctx, sourceClient, e);
    }
    try (BlockContext tx = ctx.branch()) {
      if (keeper.checkRateLimitAndUpdateFlow(tx, PacketDirection.SEND, counted)) {
        keeper.setCountedSendPacket(tx, counted, sequence);
      }
      app().onSendPacket(tx, sourceClient, destinationClient, sequence, payload, signer);
      tx.commit();
    }
  }

  /**
   * Rate-limits a received payload, then delivers it to the app. Never throws for bad packets:
   * an undecodable payload (9/10), an invalid client id (8), a blacklisted denom (7), an exceeded
   * quota (4) or a flow overflow (11) answer {@code FAILURE} with {@link
   * dev.ratelimit.middleware.ibc.Acknowledgement#rateLimitError(int)}'s bytes without calling the
   * app; the detail is in an event.
   *
   * @throws NullPointerException if the app returns no result (a host bug); nothing is kept
   */
  @Override
  public RecvPacketResult onRecvPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      Payload payload,
      String relayer) {
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(payload, "payload");
    RateLimitedPacket counted;
    try {
      FungibleTokenPacketData ftpd = decode(payload);
      PacketRules.requireChannelId(destinationClient, "destination_client");
      String denom = DenomResolver.recvLocalDenom(payload.sourcePort(), sourceClient,
          payload.destinationPort(), destinationClient, ftpd.denom());
      counted = PacketRules.counted(destinationClient, denom, ftpd);
      PacketRules.requireSequence(sequence);
    } catch (RateLimitException e) {
      ctx.emitDurable(RateLimitEvents.invalidPacket(destinationClient, e.code(), e.getMessage()));
      return refused(e.code());
    } catch (IllegalArgumentException e) { // e.g. a port id with '/', which core would reject
      ctx.emitDurable(RateLimitEvents.invalidPacket(
          destinationClient, ErrorCode.INVALID_PACKET_DATA, e.getMessage()));
      return refused(ErrorCode.INVALID_PACKET_DATA);
    }
    try (BlockContext tx = ctx.branch()) {
      boolean updated;
      try {
        updated = keeper.checkRateLimitAndUpdateFlow(tx, PacketDirection.RECV, counted);
      } catch (RateLimitException rejected) { // its event was emitted durably
        return refused(rejected.code());
      }
      RecvPacketResult result = Objects.requireNonNull(
          app().onRecvPacket(tx, sourceClient, destinationClient, sequence, payload, relayer),
          "the app's RecvPacketResult");
      switch (result.status()) {
        case FAILURE -> {
          return result; // the inflow and the app's writes are discarded with the branch
        }
        case ASYNC -> {
          if (updated) {
            keeper.setCountedRecvPacket(tx, counted, sequence);
          }
        }
        case SUCCESS -> { }
      }
      tx.commit();
      return result;
    }
  }

  /**
   * Settles a sent payload's accounting as {@link RateLimitMiddleware#onAcknowledgementPacket},
   * then calls the app. Only the app can fail this callback.
   */
  @Override
  public void onAcknowledgementPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      byte[] acknowledgement,
      Payload payload,
      String relayer) {
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(payload, "payload");
    try (BlockContext tx = ctx.branch()) {
      switch (AcknowledgementCodec.classify(acknowledgement)) {
        case SUCCESS -> settleSend(tx, sourceClient, sequence, payload, false);
        case ERROR -> settleSend(tx, sourceClient, sequence, payload, true);
        case MALFORMED -> PacketRules.malformedAck(
            tx, sourceClient, "source_client", () -> decode(payload), sequence);
      }
      app().onAcknowledgementPacket(
          tx, sourceClient, destinationClient, sequence, acknowledgement, payload, relayer);
      tx.commit();
    }
  }

  /** Like an error acknowledgement: gives the outflow back if sent in this window; calls the app. */
  @Override
  public void onTimeoutPacket(
      BlockContext ctx,
      String sourceClient,
      String destinationClient,
      long sequence,
      Payload payload,
      String relayer) {
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(payload, "payload");
    try (BlockContext tx = ctx.branch()) {
      settleSend(tx, sourceClient, sequence, payload, true);
      app().onTimeoutPacket(tx, sourceClient, destinationClient, sequence, payload, relayer);
      tx.commit();
    }
  }

  /**
   * Forwards the asynchronous acknowledgement of a received packet after settling its pending recv
   * marker by how ibc-go's core reads the acknowledgement ({@link Acknowledgement#isSuccess}): the
   * universal error acknowledgement, or a missing ({@code null}) or malformed one (SPEC §5: a
   * missing ack is an error; core refuses it, and the exception rolls the whole call back), gives
   * the inflow back if the marker still exists (received in the current window); any other
   * removes the marker. A packet IBC core does not hold changes nothing (core then refuses the
   * write); one that does not carry exactly one payload (ibc-go's core refuses such packets)
   * changes nothing and is reported (code 9). The acknowledgement is always forwarded; an
   * exception from below rolls the whole call back.
   */
  @Override
  public void writeAcknowledgement(
      BlockContext ctx, String clientId, long sequence, Acknowledgement acknowledgement) {
    Objects.requireNonNull(ctx, "ctx");
    try (BlockContext tx = ctx.branch()) {
      asyncPackets.asyncPacket(tx, clientId, sequence).ifPresent(packet -> settleRecv(
          tx, packet, acknowledgement != null && acknowledgement.isSuccess()));
      downstream.writeAcknowledgement(tx, clientId, sequence, acknowledgement);
      tx.commit();
    }
  }

  private void settleSend(
      BlockContext tx, String sourceClient, long sequence, Payload payload, boolean failed) {
    PacketRules.settle(tx, sourceClient, step -> PacketRules.settleSend(
        keeper, step, sourceClient, "source_client", decode(payload), sequence, failed));
  }

  private void settleRecv(BlockContext tx, Packet packet, boolean success) {
    String clientId = packet.destinationClient();
    PacketRules.settle(tx, clientId, step -> {
      if (packet.payloads().size() != 1) {
        throw new RateLimitException(ErrorCode.INVALID_PACKET_DATA, "an IBC v2 packet carries"
            + " exactly one payload, as ibc-go's core requires; this one has "
            + packet.payloads().size() + ": flow unchanged");
      }
      Payload payload = packet.payloads().get(0);
      FungibleTokenPacketData ftpd = decode(payload);
      PacketRules.requireChannelId(clientId, "destination_client");
      String denom = DenomResolver.recvLocalDenom(payload.sourcePort(), packet.sourceClient(),
          payload.destinationPort(), clientId, ftpd.denom());
      PacketRules.settleRecv(keeper, step,
          PacketRules.marker(clientId, denom, packet.sequence()), ftpd, success);
    });
  }

  private static FungibleTokenPacketData decode(Payload payload) {
    return Ics20PayloadCodec.decode(payload.version(), payload.encoding(), payload.value());
  }

  /** A refused receive: ibc-go's rate-limit error acknowledgement with the code. */
  private static RecvPacketResult refused(ErrorCode code) {
    return RecvPacketResult.failure(
        dev.ratelimit.middleware.ibc.Acknowledgement.rateLimitError(code).toJsonBytes());
  }
}
