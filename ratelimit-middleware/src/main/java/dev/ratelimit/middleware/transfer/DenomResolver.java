package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Identifiers;
import dev.ratelimit.core.model.PureMemo;
import dev.ratelimit.core.model.Texts;
import dev.ratelimit.middleware.ibc.Packet;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Names the denom a transfer packet counts against, as it exists on <b>this</b> chain: a base denom
 * ({@code ustrd}) or {@code ibc/<HASH>}. Shared by the rate-limit middleware and the transfer app,
 * so they never disagree on which denom a packet moves.
 *
 * <p>The worked examples of the original module's README, with Stride as this chain, Osmosis as the
 * counterparty, and the channel between them {@code channel-5} on Stride and {@code channel-326} on
 * Osmosis (ports {@code transfer}). A rate limit on Osmosis's uosmo over that channel is stored on
 * Stride as {@code ibc/D24B4564BCD51D3D02D9987D92571EAC5915676A9BD6D9B0C1D0254CB8A5EA34} and {@code
 * channel-5}, never as {@code uosmo} and {@code channel-326}.
 *
 * <h2>Send (this chain is the packet's source; the packet's {@code denom} is the full trace)</h2>
 *
 * <ul>
 *   <li>Native token: no trace, used as is: {@code ustrd} → {@code ustrd}.
 *   <li>Non-native token: hash of the trace: {@code transfer/channel-0/uatom} → {@code
 *       ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2}.
 *   <li>A denom that already is {@code ibc/...} is used as is (like the Go module).
 * </ul>
 *
 * <h2>Receive (this chain is the packet's destination)</h2>
 *
 * <p><b>Sink</b> (the token moves forward, to a chain other than its previous hop): prepend this
 * chain's destination port and channel, then hash.
 *
 * <ul>
 *   <li>uosmo sent from Osmosis to Stride: packet denom {@code uosmo}; prefixed {@code
 *       transfer/channel-5/uosmo}; hashed {@code
 *       ibc/D24B4564BCD51D3D02D9987D92571EAC5915676A9BD6D9B0C1D0254CB8A5EA34}.
 *   <li>ujuno sent from Juno to Osmosis, then to Stride: packet denom {@code
 *       transfer/channel-Y/ujuno} (Y: Osmosis's channel to Juno); prefixed {@code
 *       transfer/channel-5/transfer/channel-Y/ujuno}; hashed {@code ibc/...}.
 * </ul>
 *
 * <p><b>Source</b> (the token comes back along the hop it left by, so the packet's denom starts
 * with the packet's own {@code sourcePort/sourceChannel/}, the counterparty's end): strip that
 * prefix; if a trace is left, hash it, else it is the base denom.
 *
 * <ul>
 *   <li>ustrd sent from Stride to Osmosis and back: packet denom {@code transfer/channel-326/ustrd}
 *       from source channel {@code channel-326}; stripped {@code ustrd}; no trace left: {@code
 *       ustrd}.
 *   <li>ujuno sent from Juno to Stride, then to Osmosis, then back to Stride: packet denom {@code
 *       transfer/channel-326/transfer/channel-Z/ujuno} (Z: Stride's channel to Juno); stripped
 *       {@code transfer/channel-Z/ujuno}, which has a trace; hashed {@code ibc/...}, the same
 *       voucher denom ujuno had on Stride before it left.
 * </ul>
 *
 * <p>The prefix match includes the trailing {@code /}: a denom {@code transfer/channel-10/uatom}
 * arriving from {@code channel-1} is <i>not</i> coming back, so it is a sink (Osmosis's contract
 * gets this wrong). Traces are read by {@link DenomTrace#parse} (ibc-go's rules, which also take
 * client ids as hops). A denom whose base is empty ({@code transfer/channel-1/transfer/channel-2})
 * is invalid packet data.
 */
public final class DenomResolver {
  private static final String IBC_PREFIX = "ibc/";

  /**
   * The local denoms of the packet denoms (and, on receive, ports and channels) a chain's traffic
   * repeats: pure functions of their arguments (see {@link PureMemo}), each denom resolved once.
   */
  private static final PureMemo<String, String> SEND_DENOMS =
      new PureMemo<>(DenomResolver::resolveSendDenom);

  private static final PureMemo<ReceivedOn, String> RECV_DENOMS =
      new PureMemo<>(DenomResolver::resolveRecvLocalDenom);

  private DenomResolver() {}

  /**
   * The local denom of a packet this chain sends (its channel is the packet's source channel): a
   * denom starting with {@code ibc/} or without a trace as is, else {@code ibc/} + the hash of its
   * full trace.
   *
   * @param packetDenom the {@code denom} of the ICS-20 packet data
   * @throws NullPointerException if {@code packetDenom} is {@code null}
   * @throws RateLimitException code {@link ErrorCode#INVALID_PACKET_DATA} (9) when the denom is
   *     blank or its base denom is empty
   */
  public static String sendDenom(String packetDenom) {
    Objects.requireNonNull(packetDenom, "packetDenom");
    return packetDenom.length() <= PureMemo.MAX_KEY_CHARS
        ? SEND_DENOMS.apply(packetDenom)
        : resolveSendDenom(packetDenom);
  }

  /** {@link #sendDenom}, computed (a denom it rejects is never memoized: it throws every time). */
  private static String resolveSendDenom(String packetDenom) {
    requireNotBlank(packetDenom);
    if (packetDenom.startsWith(IBC_PREFIX)) {
      return packetDenom;
    }
    // a trace's full path is its input, so the input is hashed as is (nothing is rebuilt); without
    // a hop the input is the base denom. Hashed without the trace memo: this result is memoized.
    return DenomTrace.hasTrace(packetDenom) ? DenomTrace.hash(packetDenom) : packetDenom;
  }

  /**
   * The local denom of a packet this chain receives (its channel is the packet's destination
   * channel): the source case when {@code packetDenom} starts with {@code
   * sourcePort/sourceChannel/} (strip it; hash what is left if it still has a trace), else the sink
   * case (prepend {@code destinationPort/destinationChannel/} and hash).
   *
   * @param packetDenom the {@code denom} of the ICS-20 packet data
   * @throws NullPointerException if an argument is {@code null}
   * @throws RateLimitException code {@link ErrorCode#INVALID_PACKET_DATA} (9) when the denom is
   *     blank or a base denom is empty; code {@link ErrorCode#INVALID_CHANNEL_OR_CLIENT_ID} (8) in
   *     the sink case when {@code destinationChannel} is not a channel or client id
   * @throws IllegalArgumentException if {@code destinationPort} contains {@code /}
   */
  public static ReceivedDenom recvDenom(
      String sourcePort,
      String sourceChannel,
      String destinationPort,
      String destinationChannel,
      String packetDenom) {
    requireArguments(sourcePort, sourceChannel, destinationPort, destinationChannel, packetDenom);

    // The whole trace must have a base denom in either case (SPEC §3:
    // transfer/channel-1/transfer/channel-2 is invalid even when it comes back on channel-1).
    DenomTrace sent = DenomTrace.parse(packetDenom);
    if (startsWithHop(packetDenom, sourcePort, sourceChannel)) {
      DenomTrace local = DenomTrace.parse(afterHop(packetDenom, sourcePort, sourceChannel));
      return new ReceivedDenom(true, local.ibcDenom(), local);
    }

    requireDestinationChannel(destinationChannel);
    List<Hop> hops = new ArrayList<>(sent.trace().size() + 1);
    hops.add(new Hop(destinationPort, destinationChannel));
    hops.addAll(sent.trace());
    DenomTrace local = new DenomTrace(hops, sent.baseDenom());
    return new ReceivedDenom(false, local.ibcDenom(), local);
  }

  /**
   * {@link #recvDenom(String, String, String, String, String)} with the ports and channels of
   * {@code packet}.
   *
   * @throws NullPointerException if an argument is {@code null}
   * @throws RateLimitException as {@link #recvDenom(String, String, String, String, String)}
   * @throws IllegalArgumentException as {@link #recvDenom(String, String, String, String, String)}
   */
  public static ReceivedDenom recvDenom(Packet packet, String packetDenom) {
    return ofPacket(packet, packetDenom, DenomResolver::recvDenom);
  }

  /**
   * {@code recvDenom(packet, packetDenom).localDenom()}, with the same checks and errors in the
   * same order, without building the traces: the rate limiter needs only the local denom, on every
   * packet. A trace's full path is its text, so the local trace's full path is the denom with the
   * source hop stripped, or {@code destinationPort/destinationChannel/} + the denom.
   *
   * @throws NullPointerException as {@link #recvDenom(Packet, String)}
   * @throws RateLimitException as {@link #recvDenom(Packet, String)}
   * @throws IllegalArgumentException as {@link #recvDenom(Packet, String)}
   */
  public static String recvLocalDenom(Packet packet, String packetDenom) {
    return ofPacket(packet, packetDenom, DenomResolver::recvLocalDenom);
  }

  /**
   * {@code recvDenom(sourcePort, sourceChannel, destinationPort, destinationChannel,
   * packetDenom).localDenom()}, as {@link #recvLocalDenom(Packet, String)}: for an IBC v2 payload
   * the channels are the packet's client ids and the ports the payload's.
   *
   * @throws NullPointerException if an argument is {@code null}
   * @throws RateLimitException as {@link #recvDenom(String, String, String, String, String)}
   * @throws IllegalArgumentException as {@link #recvDenom(String, String, String, String, String)}
   */
  public static String recvLocalDenom(
      String sourcePort,
      String sourceChannel,
      String destinationPort,
      String destinationChannel,
      String packetDenom) {
    requireArguments(sourcePort, sourceChannel, destinationPort, destinationChannel, packetDenom);
    ReceivedOn input =
        new ReceivedOn(sourcePort, sourceChannel, destinationPort, destinationChannel, packetDenom);
    return input.length() <= PureMemo.MAX_KEY_CHARS
        ? RECV_DENOMS.apply(input)
        : resolveRecvLocalDenom(input);
  }

  /** {@link #recvLocalDenom}, computed (as {@link #resolveSendDenom}, errors are not memoized). */
  private static String resolveRecvLocalDenom(ReceivedOn in) {
    String packetDenom = in.packetDenom();
    DenomTrace.hasTrace(packetDenom); // thrown for, as parse: the whole trace needs a base denom
    if (startsWithHop(packetDenom, in.sourcePort(), in.sourceChannel())) {
      String rest = afterHop(packetDenom, in.sourcePort(), in.sourceChannel());
      return DenomTrace.hasTrace(rest) ? DenomTrace.hash(rest) : rest;
    }
    requireDestinationChannel(in.destinationChannel());
    // the channel was checked just above; the port as a hop's. Hashed without the trace memo, as
    // in resolveSendDenom: this result is memoized
    return DenomTrace.hash(
        Hop.requirePortId(in.destinationPort())
            + "/"
            + in.destinationChannel()
            + "/"
            + packetDenom);
  }

  /** The arguments of a received denom's reading: its memo's key. */
  private record ReceivedOn(
      String sourcePort,
      String sourceChannel,
      String destinationPort,
      String destinationChannel,
      String packetDenom) {
    int length() {
      return sourcePort.length()
          + sourceChannel.length()
          + destinationPort.length()
          + destinationChannel.length()
          + packetDenom.length();
    }
  }

  /** A reading of a received denom from the packet's ports and channels. */
  private interface Resolution<T> {
    T of(
        String sourcePort,
        String sourceChannel,
        String destinationPort,
        String destinationChannel,
        String packetDenom);
  }

  private static <T> T ofPacket(Packet packet, String packetDenom, Resolution<T> resolution) {
    Objects.requireNonNull(packet, "packet");
    return resolution.of(
        packet.sourcePort(),
        packet.sourceChannel(),
        packet.destinationPort(),
        packet.destinationChannel(),
        packetDenom);
  }

  /** The receive readings' arguments: ids not null, the denom neither null nor blank. */
  private static void requireArguments(
      String sourcePort,
      String sourceChannel,
      String destinationPort,
      String destinationChannel,
      String packetDenom) {
    Objects.requireNonNull(sourcePort, "sourcePort");
    Objects.requireNonNull(sourceChannel, "sourceChannel");
    Objects.requireNonNull(destinationPort, "destinationPort");
    Objects.requireNonNull(destinationChannel, "destinationChannel");
    requireNotBlank(packetDenom);
  }

  /** Whether {@code denom} starts with {@code port/channel/} (no string built per packet). */
  private static boolean startsWithHop(String denom, String port, String channel) {
    int p = port.length();
    int c = channel.length();
    return denom.length() >= p + c + 2
        && denom.startsWith(port)
        && denom.charAt(p) == '/'
        && denom.startsWith(channel, p + 1)
        && denom.charAt(p + 1 + c) == '/';
  }

  /** {@code denom} after its leading {@code port/channel/} ({@link #startsWithHop}). */
  private static String afterHop(String denom, String port, String channel) {
    return denom.substring(port.length() + 1 + channel.length() + 1);
  }

  private static void requireDestinationChannel(String destinationChannel) {
    if (!Identifiers.isChannelOrClientId(destinationChannel)) {
      throw new RateLimitException(
          ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID,
          "destination channel "
              + Texts.quote(destinationChannel)
              + " is not a channel or client id");
    }
  }

  private static void requireNotBlank(String packetDenom) {
    Objects.requireNonNull(packetDenom, "packetDenom");
    if (Texts.isGoBlank(packetDenom)) {
      throw new RateLimitException(
          ErrorCode.INVALID_PACKET_DATA, "denom is blank: " + Texts.quote(packetDenom));
    }
  }
}
