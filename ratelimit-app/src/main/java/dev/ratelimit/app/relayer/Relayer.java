package dev.ratelimit.app.relayer;

import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.chain.BlockResult;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.ibc.ChannelEnd;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.ibc.MsgAcknowledgement;
import dev.ratelimit.app.ibc.MsgRecvPacket;
import dev.ratelimit.app.ibc.MsgTimeout;
import dev.ratelimit.app.ibc.MsgUpdateClient;
import dev.ratelimit.app.ibc.Timeouts;
import dev.ratelimit.app.ibc.v2.IbcEventsV2;
import dev.ratelimit.app.ibc.v2.MsgAcknowledgementV2;
import dev.ratelimit.app.ibc.v2.MsgRecvPacketV2;
import dev.ratelimit.app.ibc.v2.MsgTimeoutV2;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.ibc.v2.Acknowledgement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A relayer between two chains, like Hermes but in-process: it reads the committed blocks' events
 * ({@code send_packet}, {@code write_acknowledgement}) and turns them into the other chain's
 * transactions ({@link MsgRecvPacket}, {@link MsgAcknowledgement}, {@link MsgTimeout}, preceded by
 * a {@link MsgUpdateClient} with the counterparty's latest committed height and time), each
 * signed by its account on the target chain ({@link #address}), which IBC core checks.
 *
 * <p>A packet that would be timed out in the destination's next block is not delivered; once the
 * destination has committed a block at or past the timeout, the packet is timed out on its source
 * (the relayer checks that the destination has no receipt: the trusted half of the proof).
 * Deterministic: queues keep arrival order.
 *
 * <p>IBC v2 packets (told apart by their events' attributes, {@link IbcEventsV2#isV2}) are relayed
 * the same way with the v2 messages, after the v1 ones of each kind; their timeouts are in seconds
 * and their client is the packet's source client.
 */
public final class Relayer {
  private final ChainApp first;
  private final ChainApp second;
  private final Map<ChainApp, List<Packet>> toReceive = new LinkedHashMap<>();
  private final Map<ChainApp, List<PendingAck>> toAcknowledge = new LinkedHashMap<>();
  private final Map<ChainApp, List<Packet>> toTimeout = new LinkedHashMap<>();
  private final Map<ChainApp, List<dev.ratelimit.middleware.ibc.v2.Packet>> toReceiveV2 =
      new LinkedHashMap<>();
  private final Map<ChainApp, List<PendingAckV2>> toAcknowledgeV2 = new LinkedHashMap<>();
  private final Map<ChainApp, List<dev.ratelimit.middleware.ibc.v2.Packet>> toTimeoutV2 =
      new LinkedHashMap<>();
  private final List<String> failures = new ArrayList<>();

  public Relayer(ChainApp first, ChainApp second) {
    this.first = Objects.requireNonNull(first, "first");
    this.second = Objects.requireNonNull(second, "second");
    for (ChainApp c : List.of(first, second)) {
      toReceive.put(c, new ArrayList<>());
      toAcknowledge.put(c, new ArrayList<>());
      toTimeout.put(c, new ArrayList<>());
      toReceiveV2.put(c, new ArrayList<>());
      toAcknowledgeV2.put(c, new ArrayList<>());
      toTimeoutV2.put(c, new ArrayList<>());
    }
  }

  /** The relayer's account on a chain. */
  public static String address(ChainInfo chain) {
    return Addresses.named(chain.accountPrefix(), "relayer");
  }

  /** Reads a committed block of {@code chain}: packets to deliver and acknowledgements to return. */
  public void observe(ChainApp chain, BlockResult block) {
    ChainApp other = other(chain);
    for (Event e : block.events()) {
      if (IbcEventsV2.isV2(e)) {
        observeV2(other, e);
        continue;
      }
      switch (e.type()) {
        case IbcEvents.SEND_PACKET -> toReceive.get(other).add(IbcEvents.packetOf(e));
        case IbcEvents.WRITE_ACKNOWLEDGEMENT ->
            toAcknowledge
                .get(other)
                .add(new PendingAck(IbcEvents.packetOf(e), IbcEvents.acknowledgementOf(e).orElseThrow()));
        default -> {
          // other events are not the relayer's business
        }
      }
    }
  }

  private void observeV2(ChainApp other, Event e) {
    switch (e.type()) {
      case IbcEvents.SEND_PACKET -> toReceiveV2.get(other).add(IbcEventsV2.packetOf(e));
      case IbcEvents.WRITE_ACKNOWLEDGEMENT ->
          toAcknowledgeV2.get(other).add(new PendingAckV2(
              IbcEventsV2.packetOf(e), IbcEventsV2.acknowledgementOf(e).orElseThrow()));
      default -> {
        // other events are not the relayer's business
      }
    }
  }

  /**
   * The relay transactions for {@code target}'s next block (height {@code height}, time {@code
   * time}): receives of the other chain's packets, then a client update, acknowledgements and
   * timeouts of {@code target}'s own packets.
   */
  public List<Msg> messagesFor(ChainApp target, long height, Instant time) {
    ChainApp other = other(target);
    String relayer = address(target.info());
    List<Msg> msgs = new ArrayList<>();
    Height next = new Height(target.info().revisionNumber(), height);
    Height committed = new Height(target.info().revisionNumber(), target.lastHeight());
    for (Iterator<Packet> it = toReceive.get(target).iterator(); it.hasNext(); ) {
      Packet p = it.next();
      if (!Timeouts.passed(p, next, time)) {
        msgs.add(new MsgRecvPacket(p, relayer));
        it.remove();
      } else if (Timeouts.passed(p, committed, target.lastBlockTime())) {
        boolean received =
            target.query(
                ctx -> target.ibc().hasPacketReceipt(
                    ctx, p.destinationPort(), p.destinationChannel(), p.sequence()));
        if (!received) {
          toTimeout.get(other).add(p);
        }
        it.remove();
      } // else: wait until the destination commits a block past the timeout
    }
    receiveV2(target, other, time, msgs, relayer);
    List<PendingAck> acks = toAcknowledge.get(target);
    List<Packet> timeouts = toTimeout.get(target);
    List<PendingAckV2> acksV2 = toAcknowledgeV2.get(target);
    List<dev.ratelimit.middleware.ibc.v2.Packet> timeoutsV2 = toTimeoutV2.get(target);
    if (!acks.isEmpty() || !timeouts.isEmpty() || !acksV2.isEmpty() || !timeoutsV2.isEmpty()) {
      // one client of the other chain per channel: update each one used
      Map<String, Boolean> updated = new LinkedHashMap<>();
      List<String> clients = new ArrayList<>();
      acks.forEach(a -> clients.add(clientOf(target, a.packet())));
      timeouts.forEach(p -> clients.add(clientOf(target, p)));
      acksV2.forEach(a -> clients.add(a.packet().sourceClient()));
      timeoutsV2.forEach(p -> clients.add(p.sourceClient()));
      for (String clientId : clients) {
        if (updated.putIfAbsent(clientId, true) == null) {
          msgs.add(
              new MsgUpdateClient(
                  clientId,
                  new Height(other.info().revisionNumber(), other.lastHeight()),
                  other.lastBlockTime(),
                  relayer));
        }
      }
      for (PendingAck a : acks) {
        msgs.add(new MsgAcknowledgement(a.packet(), a.ack(), relayer));
      }
      for (PendingAckV2 a : acksV2) {
        msgs.add(new MsgAcknowledgementV2(a.packet(), a.ack(), relayer));
      }
      for (Packet p : timeouts) {
        msgs.add(new MsgTimeout(p, relayer));
      }
      for (dev.ratelimit.middleware.ibc.v2.Packet p : timeoutsV2) {
        msgs.add(new MsgTimeoutV2(p, relayer));
      }
      acks.clear();
      timeouts.clear();
      acksV2.clear();
      timeoutsV2.clear();
    }
    return msgs;
  }

  /** IBC v2 receives for {@code target}'s block at {@code time}, or their timeouts (seconds). */
  private void receiveV2(ChainApp target, ChainApp other, Instant time, List<Msg> msgs,
      String relayer) {
    for (Iterator<dev.ratelimit.middleware.ibc.v2.Packet> it = toReceiveV2.get(target).iterator();
        it.hasNext(); ) {
      dev.ratelimit.middleware.ibc.v2.Packet p = it.next();
      if (!Timeouts.passedSeconds(p.timeoutTimestamp(), time)) {
        msgs.add(new MsgRecvPacketV2(p, relayer));
        it.remove();
      } else if (Timeouts.passedSeconds(p.timeoutTimestamp(), target.lastBlockTime())) {
        boolean received = target.query(ctx ->
            target.ibcV2().hasPacketReceipt(ctx, p.destinationClient(), p.sequence()));
        if (!received) {
          toTimeoutV2.get(other).add(p);
        }
        it.remove();
      } // else: wait until the destination commits a block past the timeout
    }
  }

  /** Records a failed relay transaction (a relayer would log it); see {@link #failures()}. */
  public void onResult(ChainApp target, TxResult result) {
    if (!result.isOk()) {
      failures.add(
          target.chainId() + ": " + result.msg().getClass().getSimpleName() + " failed ("
              + result.codespace() + " " + result.code() + "): " + result.log());
    }
  }

  /** Relay transactions that failed so far (none in a healthy run). */
  public List<String> failures() {
    return List.copyOf(failures);
  }

  /** True when nothing waits to be relayed. */
  public boolean isIdle() {
    for (ChainApp c : List.of(first, second)) {
      if (!toReceive.get(c).isEmpty()
          || !toAcknowledge.get(c).isEmpty()
          || !toTimeout.get(c).isEmpty()
          || !toReceiveV2.get(c).isEmpty()
          || !toAcknowledgeV2.get(c).isEmpty()
          || !toTimeoutV2.get(c).isEmpty()) {
        return false;
      }
    }
    return true;
  }

  private ChainApp other(ChainApp chain) {
    if (chain == first) {
      return second;
    }
    if (chain == second) {
      return first;
    }
    throw new IllegalArgumentException("the relayer does not serve " + chain.chainId());
  }

  /** The client a v1 packet's source channel runs over. */
  private static String clientOf(ChainApp chain, Packet p) {
    String port = p.sourcePort();
    String channel = p.sourceChannel();
    return chain
        .query(ctx -> chain.ibc().channel(ctx, port, channel))
        .map(ChannelEnd::clientId)
        .orElseThrow(
            () -> new IllegalStateException(
                chain.chainId() + " has no channel " + port + "/" + channel));
  }

  /** An acknowledgement written on the destination, to bring back to the packet's source. */
  private record PendingAck(Packet packet, byte[] ack) {}

  /** An IBC v2 acknowledgement written on the destination, to bring back. */
  private record PendingAckV2(dev.ratelimit.middleware.ibc.v2.Packet packet, Acknowledgement ack) {}
}
