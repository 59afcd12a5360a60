package dev.ratelimit.cli.simulate;

import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.IbcChannels;
import dev.ratelimit.middleware.ibc.AcceptingHandshakes;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Ics4Wrapper;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The host chain of a scenario, faked from the scenario: the bank's total supplies, the open
 * channels and light clients, the stand-in ICS-20 app the middleware wraps and IBC core's channel
 * keeper below it.
 */
final class FakeHost {
  /** The bank's total supply per denom; absent = 0. Changes only through {@code set_supply}. */
  static final class Bank implements BankSupply {
    private final Map<String, BigInteger> supply = new LinkedHashMap<>();

    void set(String denom, BigInteger amount) {
      supply.put(denom, amount);
    }

    @Override
    public BigInteger totalSupply(BlockContext ctx, String denom) {
      return supply.getOrDefault(denom, BigInteger.ZERO);
    }
  }

  /** Channels (by port and id) and clients, with their counterparty chain ids. */
  static final class Channels implements IbcChannels {
    private final List<Scenario.ChannelSpec> channels = new ArrayList<>();
    private final Map<String, String> clients = new LinkedHashMap<>();

    void add(Scenario.ChannelSpec channel) {
      channels.removeIf(
          c -> c.channelId().equals(channel.channelId()) && c.portId().equals(channel.portId()));
      channels.add(channel);
    }

    void add(Scenario.ClientSpec client) {
      clients.put(client.clientId(), client.counterpartyChainId());
    }

    private Optional<Scenario.ChannelSpec> transferChannel(String id) {
      return channels.stream()
          .filter(c -> c.channelId().equals(id) && c.portId().equals(ScenarioParser.DEFAULT_PORT))
          .findFirst();
    }

    @Override
    public boolean channelOrClientExists(BlockContext ctx, String channelOrClientId) {
      return transferChannel(channelOrClientId).isPresent()
          || clients.containsKey(channelOrClientId);
    }

    @Override
    public Optional<String> counterpartyChainId(BlockContext ctx, String channelOrClientId) {
      return counterpartyChainId(channelOrClientId);
    }

    /** The same for the scenario runner's checks, which have no block context at hand. */
    Optional<String> counterpartyChainId(String channelOrClientId) {
      // like the Go modules and the example app: a channel on port transfer, else a client; a
      // channel on another port resolves nothing (a limit there is skipped by chain queries)
      return transferChannel(channelOrClientId)
          .map(Scenario.ChannelSpec::counterpartyChainId)
          .or(() -> Optional.ofNullable(clients.get(channelOrClientId)));
    }

    boolean hasChannel(String portId, String channelId) {
      return channels.stream()
          .anyMatch(c -> c.channelId().equals(channelId) && c.portId().equals(portId));
    }

    /** Transfer channel and client id → counterparty chain id (channels win), sorted. */
    Map<String, String> counterpartyChainIds() {
      Map<String, String> out = new TreeMap<>(clients);
      for (Scenario.ChannelSpec c : channels) {
        if (c.portId().equals(ScenarioParser.DEFAULT_PORT)) {
          out.put(c.channelId(), c.counterpartyChainId());
        }
      }
      return out;
    }
  }

  /**
   * The ICS-20 app the middleware wraps, as a stand-in: its recv decodes the packet with the
   * shared decoder and answers what the step asks ({@code app_ack}); its ack and timeout callbacks
   * classify the ack with the shared decoder, record the call and succeed. It never mints or burns.
   */
  static final class StandInApp extends AcceptingHandshakes {
    StandInApp() {
      super("ics20-1");
    }

    /** The success acknowledgement it writes: result {@code [0x01]}, {@code {"result":"AQ=="}}. */
    static final Acknowledgement SUCCESS = Acknowledgement.success(new byte[] {1});

    /** The error acknowledgement it writes: {@code {"error":"transfer failed"}}. */
    static final Acknowledgement ERROR = Acknowledgement.error("transfer failed");

    private String recvAnswer = "success";
    private boolean called;

    void answerRecvWith(String appAck) {
      this.recvAnswer = appAck;
    }

    void resetCalled() {
      called = false;
    }

    boolean called() {
      return called;
    }

    @Override
    public Optional<Acknowledgement> onRecvPacket(BlockContext ctx, Packet packet, String relayer) {
      called = true;
      try {
        PacketDataCodec.decode(packet); // the app reads packets with the shared decoder
      } catch (RuntimeException e) {
        return Optional.of(Acknowledgement.error("cannot decode packet data"));
      }
      return switch (recvAnswer) {
        case "async" -> Optional.empty();
        case "error" -> Optional.of(ERROR);
        default -> Optional.of(SUCCESS);
      };
    }

    @Override
    public void onAcknowledgementPacket(
        BlockContext ctx, Packet packet, byte[] acknowledgement, String relayer) {
      called = true;
      AcknowledgementCodec.classify(acknowledgement); // the shared ack decoder; refunds are not faked
    }

    @Override
    public void onTimeoutPacket(BlockContext ctx, Packet packet, String relayer) {
      called = true;
    }
  }

  /**
   * IBC core's channel keeper below the middleware: a send returns the sequence the runner set
   * before it; a written acknowledgement is checked as ibc-go's core checks it.
   */
  static final class ChannelKeeper implements Ics4Wrapper {
    private final Channels channels;
    private long nextSequence = 1;

    ChannelKeeper(Channels channels) {
      this.channels = channels;
    }

    void setNextSequence(long sequence) {
      this.nextSequence = sequence;
    }

    @Override
    public long sendPacket(
        BlockContext ctx,
        String sourcePort,
        String sourceChannel,
        Height timeoutHeight,
        long timeoutTimestamp,
        byte[] data) {
      return nextSequence;
    }

    @Override
    public void writeAcknowledgement(BlockContext ctx, Packet packet, Acknowledgement ack) {
      if (ack == null) { // as ibc-go's core: "acknowledgement cannot be nil"
        throw new IllegalArgumentException("acknowledgement must not be null");
      }
    }

    @Override
    public Optional<String> getAppVersion(BlockContext ctx, String portId, String channelId) {
      return channels.hasChannel(portId, channelId) ? Optional.of("ics20-1") : Optional.empty();
    }
  }

  private FakeHost() {}
}
