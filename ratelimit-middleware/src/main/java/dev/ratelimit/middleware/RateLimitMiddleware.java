package dev.ratelimit.middleware;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.keeper.RateLimitKeeper;
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.RateLimitedPacket;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec;
import dev.ratelimit.middleware.ibc.Counterparty;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.IbcModule;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.ibc.Order;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.DenomResolver;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The rate-limit middleware around the ICS-20 transfer application: one component that is both
 * the transfer app's {@link Ics4Wrapper} (outgoing: send, async acks) and the {@link IbcModule}
 * that IBC core calls (incoming: receive, ack, timeout, handshakes). Owning both paths means a
 * send cannot bypass the limiter through wiring.
 *
 * <p>Packet data, denoms and acknowledgements are read with the very functions the transfer app
 * uses ({@link PacketDataCodec}, {@link DenomResolver}, {@link AcknowledgementCodec}), so the
 * limiter and the app can never read a packet differently.
 *
 * <ul>
 *   <li><b>send</b>: in one store branch: decode, resolve the local denom, check and update the
 *       flow, send downstream, record the pending send marker. Any failure discards all of it and
 *       throws the coded {@link RateLimitException} (or the downstream exception).
 *   <li><b>recv</b>: a rejection answers an error acknowledgement with ibc-go's exact bytes and
 *       never calls the app. Otherwise the inflow is counted and the app runs; an error ack rolls
 *       the whole receive back, a synchronous success keeps it, and an app that acks
 *       asynchronously leaves a pending recv marker for {@link #writeAcknowledgement}. The marker
 *       is stored only then (a synchronous receive writes one row, not three); if the app writes
 *       its ack through {@link #writeAcknowledgement} while its {@code onRecvPacket} still runs,
 *       the marker is stored and settled first, recorded in the store, so the outcome is the same
 *       as G's marker-before-the-app also when that ack's branch is discarded or IBC core refuses
 *       it (the packet is then pending).
 *   <li><b>ack / timeout</b>: success removes the send marker; an error (or the IBC v2 universal
 *       error ack, or a timeout) gives the outflow back if the marker exists. A malformed ack or
 *       undecodable data changes no flow and is reported in an event. The middleware itself never
 *       fails these callbacks; the app is always called.
 *   <li>handshakes and {@link #getAppVersion} forward unchanged.
 * </ul>
 *
 * <p>Thread-confined like the chain that drives it (it tracks the receives the app is handling).
 */
public final class RateLimitMiddleware implements IbcModule, Ics4Wrapper {
  private final RateLimitKeeper keeper;
  private final Ics4Wrapper channel;
  private final Supplier<? extends IbcModule> app;
  /**
   * Receives counted and now in the app's hands, innermost first (see onRecvPacket): a stack
   * linked through {@link Receiving#outer}, usually one deep.
   */
  private Receiving receiving;

  /** A counted receive whose app is still running (its marker not stored yet). */
  private static final class Receiving {
    final RateLimitedPacket counted;
    final long sequence;
    final Receiving outer;
    /**
     * An ack of this packet went through {@link #writeAcknowledgement} while the app ran. Only a
     * hint that the store holds the truth: the branch the ack was written in may have been
     * discarded since ({@link RateLimitKeeper#takeSettledWhileReceiving}).
     */
    boolean ackedWhileRunning;

    Receiving(RateLimitedPacket counted, long sequence, Receiving outer) {
      this.counted = counted;
      this.sequence = sequence;
      this.outer = outer;
    }

    /** Whether a receive this one runs inside is of the same packet (a host calling us again). */
    boolean outerReceivesTheSamePacket() {
      for (Receiving o = outer; o != null; o = o.outer) {
        if (o.is(counted.channelOrClientId(), counted.denom(), sequence)) {
          return true;
        }
      }
      return false;
    }

    boolean is(PendingPacket marker) {
      return is(marker.channelOrClientId(), marker.denom(), marker.sequence());
    }

    private boolean is(String channelOrClientId, String denom, long seq) {
      return sequence == seq
          && counted.channelOrClientId().equals(channelOrClientId)
          && counted.denom().equals(denom);
    }
  }

  /**
   * @param keeper the rate-limit keeper
   * @param channel the ICS4 wrapper under this middleware, on IBC core's side (core's channel keeper)
   * @param app the wrapped transfer application; a supplier because the app in turn takes this
   *     middleware as its ICS4 wrapper (with Dagger pass {@code provider::get})
   */
  public RateLimitMiddleware(
      RateLimitKeeper keeper, Ics4Wrapper channel, Supplier<? extends IbcModule> app) {
    this.keeper = Objects.requireNonNull(keeper, "keeper");
    this.channel = Objects.requireNonNull(channel, "channel");
    this.app = Objects.requireNonNull(app, "app");
  }

  /** The same, for an app constructed first. */
  public RateLimitMiddleware(RateLimitKeeper keeper, Ics4Wrapper channel, IbcModule app) {
    this(keeper, channel, supplierOf(app));
  }

  private static Supplier<IbcModule> supplierOf(IbcModule app) {
    Objects.requireNonNull(app, "app");
    return () -> app;
  }

  private IbcModule app() {
    return Objects.requireNonNull(app.get(), "the wrapped app supplier returned null");
  }

  // ---------------------------------------------------------------- ICS4 wrapper (outgoing)

  /**
   * Rate-limits and sends an ICS-20 packet. Undecodable data and an invalid source channel also
   * emit {@code ratelimit_invalid_packet} (durable, like a received packet's; SPEC §6).
   *
   * @throws RateLimitException code 9/10 (undecodable data; 9 also when the channel returns
   *     sequence 0), 8 (invalid source channel), 7
   *     (blacklisted), 4 (quota exceeded, with the numbers and the window reset time) or 11
   *     (flow overflow); nothing is written and nothing is sent
   */
  @Override
  public long sendPacket(
      BlockContext ctx,
      String sourcePort,
      String sourceChannel,
      Height timeoutHeight,
      long timeoutTimestamp,
      byte[] data) {
    Objects.requireNonNull(ctx, "ctx");
    RateLimitedPacket counted;
    try {
      FungibleTokenPacketData ftpd = PacketDataCodec.decode(data);
      PacketRules.requireChannelId(sourceChannel, "source_channel");
      counted = PacketRules.counted(sourceChannel, DenomResolver.sendDenom(ftpd.denom()), ftpd);
    } catch (RateLimitException e) {
      throw PacketRules.invalidSend(ctx, sourceChannel, e);
    }
    try (BlockContext tx = ctx.branch()) {
      boolean updated = keeper.checkRateLimitAndUpdateFlow(tx, PacketDirection.SEND, counted);
      long sequence =
          channel.sendPacket(tx, sourcePort, sourceChannel, timeoutHeight, timeoutTimestamp, data);
      if (sequence == 0) { // IBC core never hands out 0; refused like a received packet's 0
        throw PacketRules.invalidSend(
            ctx,
            sourceChannel,
            new RateLimitException(
                ErrorCode.INVALID_PACKET_DATA, "the channel returned packet sequence 0"));
      }
      if (updated) {
        keeper.setCountedSendPacket(tx, counted, sequence);
      }
      tx.commit();
      return sequence;
    }
  }

  /**
   * Forwards an asynchronous acknowledgement that the wrapped app writes for a received packet
   * (or an app between this middleware and transfer, such as packet forwarding: on IBC core's side
   * of the middleware, its acks would never pass here), after settling its pending recv marker: a
   * success removes it, an error gives the inflow back if it still exists. A missing ({@code
   * null}) ack counts as an error and is forwarded as given (SPEC §5): IBC core refuses it, and
   * its exception rolls the whole call back.
   */
  @Override
  public void writeAcknowledgement(BlockContext ctx, Packet packet, Acknowledgement ack) {
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(packet, "packet");
    try (BlockContext tx = ctx.branch()) {
      settleRecv(tx, packet, ack != null && ack.isSuccess());
      channel.writeAcknowledgement(tx, packet, ack);
      tx.commit();
    }
  }

  @Override
  public Optional<String> getAppVersion(BlockContext ctx, String portId, String channelId) {
    return channel.getAppVersion(ctx, portId, channelId);
  }

  // ---------------------------------------------------------------- IBC module (incoming)

  /**
   * Rate-limits a received packet, then delivers it to the app. Never throws for bad packets:
   * undecodable data (9/10), an invalid channel (8), a blacklisted denom (7), an exceeded quota
   * (4) or a flow overflow (11) answer {@link Acknowledgement#rateLimitError(int)} without calling
   * the app; the detail is in a {@code transfer_denied}, {@code ratelimit_flow_overflow} or {@code
   * ratelimit_invalid_packet} event. The source channel is the counterparty's id, used as given
   * (ICS-24 lets a chain name its channels otherwise than {@code channel-N}).
   */
  @Override
  public Optional<Acknowledgement> onRecvPacket(BlockContext ctx, Packet packet, String relayer) {
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(packet, "packet");
    RateLimitedPacket counted;
    try {
      FungibleTokenPacketData ftpd = PacketDataCodec.decode(packet);
      PacketRules.requireChannelId(packet.destinationChannel(), "destination_channel");
      String denom = DenomResolver.recvLocalDenom(packet, ftpd.denom());
      counted = PacketRules.counted(packet.destinationChannel(), denom, ftpd);
      PacketRules.requireSequence(packet.sequence());
    } catch (RateLimitException e) {
      ctx.emitDurable(
          RateLimitEvents.invalidPacket(packet.destinationChannel(), e.code(), e.getMessage()));
      return Optional.of(Acknowledgement.rateLimitError(e.code().code()));
    } catch (IllegalArgumentException e) { // e.g. a port id with '/', which core would reject
      ctx.emitDurable(
          RateLimitEvents.invalidPacket(
              packet.destinationChannel(), ErrorCode.INVALID_PACKET_DATA, e.getMessage()));
      return Optional.of(Acknowledgement.rateLimitError(ErrorCode.INVALID_PACKET_DATA.code()));
    }
    BlockContext tx = ctx.branch();
    try {
      boolean updated;
      try {
        updated = keeper.checkRateLimitAndUpdateFlow(tx, PacketDirection.RECV, counted);
      } catch (RateLimitException rejected) { // its event was emitted durably
        tx.discard();
        return Optional.of(Acknowledgement.rateLimitError(rejected.code().code()));
      }
      Optional<Acknowledgement> ack;
      if (updated) {
        // The marker is only stored if the app acks asynchronously; while the app runs it lives
        // here, and writeAcknowledgement stores and settles it if the app acks through it
        // meanwhile, recording that in the store (it rolls back with a discarded branch).
        Receiving r = new Receiving(counted, packet.sequence(), receiving);
        receiving = r;
        try {
          ack = app().onRecvPacket(tx, packet, relayer);
        } finally {
          receiving = r.outer;
        }
        // settled inside the app, in a branch the app kept? (read only when it acked meanwhile;
        // the outermost receive of this packet removes the record, so each one finds it)
        boolean settled =
            r.ackedWhileRunning
                && (r.outerReceivesTheSamePacket()
                    ? keeper.isSettledWhileReceiving(tx, counted, packet.sequence())
                    : keeper.takeSettledWhileReceiving(tx, counted, packet.sequence()));
        if (ack.isEmpty() && !settled) {
          keeper.setCountedRecvPacket(tx, counted, packet.sequence());
        }
      } else {
        ack = app().onRecvPacket(tx, packet, relayer);
      }
      if (ack.isPresent() && !ack.get().isSuccess()) {
        tx.discard(); // an error ack rolls back the app's writes and the inflow
        return ack;
      }
      tx.commit();
      return ack;
    } finally {
      tx.close();
    }
  }

  /**
   * Settles a sent packet's accounting, then calls the app. Success removes the pending send
   * marker (capacity is not given back); an error ack, including the IBC v2 universal error ack,
   * gives the outflow back if the marker exists (the packet was sent in the current window); a
   * malformed ack changes nothing and emits {@code ratelimit_invalid_packet} (code 14), and a
   * second one if the packet itself is faulty (code 8, 9 or 10, as with any other ack): events
   * that stay even when the app then fails the callback. Only the app can fail this callback.
   */
  @Override
  public void onAcknowledgementPacket(
      BlockContext ctx, Packet packet, byte[] acknowledgement, String relayer) {
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(packet, "packet");
    try (BlockContext tx = ctx.branch()) {
      switch (AcknowledgementCodec.classify(acknowledgement)) {
        case SUCCESS -> settleSend(tx, packet, false);
        case ERROR -> settleSend(tx, packet, true);
        // Durable: the transfer app fails the callback on a malformed ack (as ibc-go does), and
        // the report must survive that rollback (SPEC §6).
        case MALFORMED -> PacketRules.malformedAck(tx, packet.sourceChannel(), "source_channel",
            () -> PacketDataCodec.decode(packet), packet.sequence());
      }
      app().onAcknowledgementPacket(tx, packet, acknowledgement, relayer);
      tx.commit();
    }
  }

  /** Like an error acknowledgement: gives the outflow back if sent in this window; calls the app. */
  @Override
  public void onTimeoutPacket(BlockContext ctx, Packet packet, String relayer) {
    Objects.requireNonNull(ctx, "ctx");
    Objects.requireNonNull(packet, "packet");
    try (BlockContext tx = ctx.branch()) {
      settleSend(tx, packet, true);
      app().onTimeoutPacket(tx, packet, relayer);
      tx.commit();
    }
  }

  @Override
  public String onChanOpenInit(
      BlockContext ctx,
      Order order,
      List<String> connectionHops,
      String portId,
      String channelId,
      Counterparty counterparty,
      String version) {
    return app().onChanOpenInit(ctx, order, connectionHops, portId, channelId, counterparty, version);
  }

  @Override
  public String onChanOpenTry(
      BlockContext ctx,
      Order order,
      List<String> connectionHops,
      String portId,
      String channelId,
      Counterparty counterparty,
      String counterpartyVersion) {
    return app()
        .onChanOpenTry(
            ctx, order, connectionHops, portId, channelId, counterparty, counterpartyVersion);
  }

  @Override
  public void onChanOpenAck(
      BlockContext ctx,
      String portId,
      String channelId,
      String counterpartyChannelId,
      String counterpartyVersion) {
    app().onChanOpenAck(ctx, portId, channelId, counterpartyChannelId, counterpartyVersion);
  }

  @Override
  public void onChanOpenConfirm(BlockContext ctx, String portId, String channelId) {
    app().onChanOpenConfirm(ctx, portId, channelId);
  }

  @Override
  public void onChanCloseInit(BlockContext ctx, String portId, String channelId) {
    app().onChanCloseInit(ctx, portId, channelId);
  }

  @Override
  public void onChanCloseConfirm(BlockContext ctx, String portId, String channelId) {
    app().onChanCloseConfirm(ctx, portId, channelId);
  }

  // ---------------------------------------------------------------- accounting helpers

  /** Ack, error ack or timeout of a packet this chain sent ({@link PacketRules#settle}). */
  private void settleSend(BlockContext tx, Packet packet, boolean failed) {
    PacketRules.settle(tx, packet.sourceChannel(), step -> PacketRules.settleSend(keeper, step,
        packet.sourceChannel(), "source_channel", PacketDataCodec.decode(packet),
        packet.sequence(), failed));
  }

  /** The async ack of a received packet: success drops the marker, error gives the inflow back. */
  private void settleRecv(BlockContext tx, Packet packet, boolean success) {
    String channelId = packet.destinationChannel();
    PacketRules.settle(tx, channelId, step -> {
      FungibleTokenPacketData ftpd = PacketDataCodec.decode(packet);
      PacketRules.requireChannelId(channelId, "destination_channel");
      String denom = DenomResolver.recvLocalDenom(packet, ftpd.denom());
      PendingPacket marker = PacketRules.marker(channelId, denom, packet.sequence());
      for (Receiving r = receiving; r != null; r = r.outer) {
        if (r.is(marker)) {
          // the app acks while its onRecvPacket still runs: store the marker, then settle it,
          // once (the record rolls back with this step if a branch above it is discarded)
          r.ackedWhileRunning = true;
          if (keeper.recordSettledWhileReceiving(step, r.counted, r.sequence)) {
            keeper.setCountedRecvPacket(step, r.counted, r.sequence);
          }
        }
      }
      PacketRules.settleRecv(keeper, step, marker, ftpd, success);
    });
  }
}
