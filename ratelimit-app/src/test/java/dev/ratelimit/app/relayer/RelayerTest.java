package dev.ratelimit.app.relayer;

import static dev.ratelimit.app.testing.Network.ALICE;
import static dev.ratelimit.app.testing.Network.BOB;
import static dev.ratelimit.app.testing.Network.GENESIS;
import static dev.ratelimit.app.testing.Network.OSMO_CH;
import static dev.ratelimit.app.testing.Network.OSMO_CLIENT;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO_V2;
import static dev.ratelimit.app.testing.Network.UOSMO;
import static dev.ratelimit.app.testing.Network.big;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.chain.AppGenesis;
import dev.ratelimit.app.chain.Block;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.ibc.ChannelEnd;
import dev.ratelimit.app.ibc.ClientState;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.ibc.MsgAcknowledgement;
import dev.ratelimit.app.ibc.MsgRecvPacket;
import dev.ratelimit.app.ibc.MsgTimeout;
import dev.ratelimit.app.ibc.MsgUpdateClient;
import dev.ratelimit.app.ibc.v2.IbcEventsV2;
import dev.ratelimit.app.ibc.v2.MsgAcknowledgementV2;
import dev.ratelimit.app.ibc.v2.MsgRecvPacketV2;
import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.testing.Network;
import dev.ratelimit.app.transfer.MsgTransfer;
import dev.ratelimit.app.transfer.MsgTransferV2;
import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The relayer's own choices, block by block: which account signs its messages, which messages a
 * block gets, that a failed relay transaction is recorded, that a packet another relayer delivered
 * is not timed out, and what stops it.
 */
class RelayerTest {
  /** {@code Addresses.named("osmo", "relayer")}: SHA-256 of {@code account/relayer}, 20 bytes. */
  private static final String OSMOSIS_RELAYER = "osmo1auq6f3s4p0avd4a6f0ad0g54z6ya6zc3cfk6yf";
  /** {@code Addresses.named("stride", "relayer")}. */
  private static final String STRIDE_RELAYER = "stride1auq6f3s4p0avd4a6f0ad0g54z6ya6zc3ne9kxh";
  /** Another relayer, on Stride. */
  private static final String HERMES = OsmosisStride.strideAccount("hermes");

  @TempDir Path root;

  @Test
  void relayerAccount_isNamedOnEachChainsPrefix() {
    try (Network n = Network.start(root)) {
      assertEquals(OSMOSIS_RELAYER, Relayer.address(n.osmosis.info()));
      assertEquals(STRIDE_RELAYER, Relayer.address(n.stride.info()));
    }
  }

  @Test
  void aPacketIsReceivedInTheSameTick_itsAckReturnsInTheNext_signedByEachTargetsRelayer() {
    try (Network n = Network.start(root)) {
      List<Packet> sent = sentPackets(n);
      long timeout = n.timeoutIn(Duration.ofMinutes(10));
      TxResult r = n.net.deliver(n.osmosis,
          n.transferMsg(ALICE, OSMO_CH, UOSMO, 10, BOB, timeout));
      assertTrue(r.isOk(), r.log());
      Packet p = sent.get(0);
      Instant t1 = GENESIS.plusSeconds(5);
      assertEquals(List.of(new MsgRecvPacket(p, STRIDE_RELAYER)), lastMsgs(n, n.stride));

      assertEquals(1, n.net.relayUntilIdle(5));

      assertEquals(
          List.of(
              new MsgUpdateClient(
                  OSMO_CLIENT, new Height(strideRevision(), 1), t1, OSMOSIS_RELAYER),
              new MsgAcknowledgement(p, Acknowledgement.SUCCESS.toJsonBytes(), OSMOSIS_RELAYER)),
          lastMsgs(n, n.osmosis));
      assertEquals(List.of(), lastMsgs(n, n.stride));
      assertEquals(big(10), n.stride.balance(BOB, STRIDE_UOSMO));
      assertEquals(List.of(), n.net.relayer().failures());
    }
  }

  @Test
  void aFailedRelayTransaction_isRecordedWithItsChainMessageAndError() {
    // Stride's end of the channel names another counterparty: it refuses Osmosis's packets
    AppGenesis osmosis = OsmosisStride.osmosisGenesis(GENESIS).balance(ALICE, UOSMO, 100).build();
    AppGenesis stride = AppGenesis.builder(GENESIS)
        .client(new ClientState(OsmosisStride.STRIDE_CLIENT, OsmosisStride.OSMOSIS,
            new Height(ChainInfo.revisionNumber(OsmosisStride.OSMOSIS), 0), GENESIS))
        .channel(ChannelEnd.transfer(OsmosisStride.STRIDE_CHANNEL, "channel-9",
            OsmosisStride.STRIDE_CLIENT))
        .build();
    try (Coordinator net = OsmosisStride.start(root, osmosis, stride)) {
      net.submit(net.first(), new MsgTransfer(ALICE, OSMO_CH, UOSMO, BigInteger.TEN, BOB,
          Height.ZERO, Commitments.nanos(GENESIS.plus(Duration.ofMinutes(10))), ""));
      Coordinator.Tick tick = net.tick();
      TxResult sent = tick.first().txs().get(0);
      assertTrue(sent.isOk(), sent.log());

      TxResult recv = tick.second().txs().get(0);
      assertEquals(MsgRecvPacket.class, recv.msg().getClass());
      assertEquals("ibc", recv.codespace());
      assertEquals(3, recv.code());
      assertEquals(List.of("stride-1: MsgRecvPacket failed (ibc 3): packet comes from"
              + " transfer/channel-326, channel's counterparty is transfer/channel-9"),
          net.relayer().failures());
      assertTrue(net.relayer().isIdle(), "a failed message is not retried");
    }
  }

  @Test
  void aV1PacketAnotherRelayerDelivered_isNotTimedOut() {
    try (Network n = Network.start(root)) {
      List<Packet> sent = sentPackets(n);
      n.net.setRelaying(false);
      long timeout = n.timeoutIn(Duration.ofSeconds(12)); // between the 2nd and 3rd blocks
      assertTrue(n.net.deliver(n.osmosis,
          n.transferMsg(ALICE, OSMO_CH, UOSMO, 10, BOB, timeout)).isOk());
      Packet p = sent.get(0);
      // another relayer delivers it in Stride's 2nd block (T+10 s), before its timeout
      TxResult other = n.net.deliver(n.stride, new MsgRecvPacket(p, HERMES));
      assertTrue(other.isOk(), other.log());
      n.net.setRelaying(true);

      // our relayer: the acknowledgement in T+15 s; the packet waits for a Stride block past its
      // timeout (T+15 s, committed in the 3rd tick), then finds the receipt and drops it
      assertEquals(2, n.net.relayUntilIdle(5));

      assertAckedAndNothingTimedOut(n,
          new MsgAcknowledgement(p, Acknowledgement.SUCCESS.toJsonBytes(), OSMOSIS_RELAYER),
          STRIDE_UOSMO);
    }
  }

  @Test
  void aV2PacketAnotherRelayerDelivered_isNotTimedOut() {
    try (Network n = Network.startV2(root)) {
      List<dev.ratelimit.middleware.ibc.v2.Packet> sent = new ArrayList<>();
      List<dev.ratelimit.middleware.ibc.v2.Acknowledgement> acks = new ArrayList<>();
      n.net.onCommit((chain, block) -> {
        for (Event e : block.events()) {
          if (IbcEventsV2.isV2(e) && e.type().equals(IbcEvents.SEND_PACKET)) {
            sent.add(IbcEventsV2.packetOf(e));
          } else if (IbcEventsV2.isV2(e) && e.type().equals(IbcEvents.WRITE_ACKNOWLEDGEMENT)) {
            acks.add(IbcEventsV2.acknowledgementOf(e).orElseThrow());
          }
        }
      });
      n.net.setRelaying(false);
      long timeout = n.timeoutV2In(Duration.ofSeconds(12)); // seconds
      assertTrue(n.net.deliver(n.osmosis, MsgTransferV2.of(
          ALICE, OSMO_CLIENT, UOSMO, BigInteger.TEN, BOB, timeout)).isOk());
      dev.ratelimit.middleware.ibc.v2.Packet p = sent.get(0);
      TxResult other = n.net.deliver(n.stride, new MsgRecvPacketV2(p, HERMES));
      assertTrue(other.isOk(), other.log());
      n.net.setRelaying(true);

      assertEquals(2, n.net.relayUntilIdle(5));

      assertAckedAndNothingTimedOut(n,
          new MsgAcknowledgementV2(p, acks.get(0), OSMOSIS_RELAYER), STRIDE_UOSMO_V2);
    }
  }
  /**
   * Our relayer updated Osmosis's client and acknowledged with {@code ack} in Osmosis's third
   * block, timed nothing out, and Stride's blocks 2 and 3 hold nothing of ours: Bob has the 10
   * {@code voucher} the other relayer delivered.
   */
  private static void assertAckedAndNothingTimedOut(Network n, Msg ack, String voucher) {
    List<Block> osmosis = n.net.log(n.osmosis);
    assertEquals(List.of(
            new MsgUpdateClient(OSMO_CLIENT, new Height(strideRevision(), 2),
                GENESIS.plusSeconds(10), OSMOSIS_RELAYER),
            ack),
        osmosis.get(2).msgs());
    assertEquals(List.of(), osmosis.get(3).msgs(), "no timeout");
    assertEquals(List.of(), n.net.log(n.stride).get(2).msgs());
    assertEquals(List.of(), n.net.log(n.stride).get(3).msgs());
    assertEquals(big(10), n.stride.balance(BOB, voucher));
    assertEquals(List.of(), n.net.relayer().failures());
  }


  /**
   * IBC core refuses a relay message whose signer is not an address of the target chain (ibc-go's
   * {@code ValidateBasic}, SDK 7), before anything else: nothing of the packet or the client
   * changes; the relayer's own messages, signed by its address on each chain, still go through.
   */
  @Test
  void v1RelayMessages_withASignerThatIsNotAnAddressOfTheTargetChain_areRefused() {
    try (Network n = Network.start(root)) {
      List<Packet> sent = sentPackets(n);
      n.net.setRelaying(false);
      assertTrue(n.net.deliver(n.osmosis,
          n.transferMsg(ALICE, OSMO_CH, UOSMO, 10, BOB, n.timeoutIn(Duration.ofMinutes(10))))
          .isOk());
      Packet p = sent.get(0);
      byte[] ack = Acknowledgement.SUCCESS.toJsonBytes();
      Height osmosisAt100 = new Height(ChainInfo.revisionNumber(OsmosisStride.OSMOSIS), 100);
      ClientState strideClient = strideClientOfOsmosis(n);
      Map<String, String> badOnStride =
          badSigners(STRIDE_RELAYER, "stride", OSMOSIS_RELAYER, "osmo");
      Map<String, String> badOnOsmosis =
          badSigners(OSMOSIS_RELAYER, "osmo", STRIDE_RELAYER, "stride");
      List<String> strideRefusals = new ArrayList<>();
      List<String> osmosisRefusals = new ArrayList<>();
      for (Map.Entry<String, String> bad : badOnStride.entrySet()) {
        n.net.submit(n.stride, new MsgRecvPacket(p, bad.getKey()));
        n.net.submit(n.stride, new MsgUpdateClient(
            Network.STRIDE_CLIENT, osmosisAt100, GENESIS.plusSeconds(60), bad.getKey()));
        strideRefusals.addAll(List.of("sdk 7: " + bad.getValue(), "sdk 7: " + bad.getValue()));
      }
      for (Map.Entry<String, String> bad : badOnOsmosis.entrySet()) {
        // with a good signer: the acknowledgement a success, the timeout refused (ibc 9)
        n.net.submit(n.osmosis, new MsgAcknowledgement(p, ack, bad.getKey()));
        n.net.submit(n.osmosis, new MsgTimeout(p, bad.getKey()));
        osmosisRefusals.addAll(List.of("sdk 7: " + bad.getValue(), "sdk 7: " + bad.getValue()));
      }
      Coordinator.Tick tick = n.net.tick();

      assertEquals(strideRefusals, codesAndLogs(tick.of(n.stride).txs()));
      assertEquals(osmosisRefusals, codesAndLogs(tick.of(n.osmosis).txs()));
      assertEquals(strideClient, strideClientOfOsmosis(n));
      boolean received = n.stride.query(ctx -> n.stride.ibc().hasPacketReceipt(
          ctx, p.destinationPort(), p.destinationChannel(), p.sequence()));
      assertFalse(received);
      assertTrue(n.osmosis.query(ctx -> n.osmosis.ibc().packetCommitment(
          ctx, p.sourcePort(), p.sourceChannel(), p.sequence())).isPresent());
      assertEquals(big(0), n.stride.balance(BOB, STRIDE_UOSMO));

      n.net.setRelaying(true);
      assertEquals(2, n.net.relayUntilIdle(5)); // the receive, then the acknowledgement
      assertEquals(big(10), n.stride.balance(BOB, STRIDE_UOSMO));
      assertTrue(n.osmosis.query(ctx -> n.osmosis.ibc().packetCommitment(
          ctx, p.sourcePort(), p.sourceChannel(), p.sequence())).isEmpty());
      assertEquals(List.of(), n.net.relayer().failures());
    }
  }

  /**
   * Signers that are not an address of {@code ours}'s chain, with IBC core's refusal: empty, the
   * other chain's relayer, ours with its last character changed (checksum), a bare name.
   */
  private static Map<String, String> badSigners(
      String ours, String ourPrefix, String otherChains, String otherPrefix) {
    String badChecksum = ours.substring(0, ours.length() - 1) + (ours.endsWith("q") ? "p" : "q");
    Map<String, String> bad = new LinkedHashMap<>();
    bad.put("", "address must not be empty");
    bad.put(otherChains, "address \"" + otherChains + "\" has prefix " + otherPrefix
        + ", expected " + ourPrefix);
    bad.put(badChecksum, "invalid address \"" + badChecksum + "\": invalid bech32 checksum");
    bad.put("relayer", "invalid address \"relayer\": bech32 length must be in [8, 1023], got 7");
    return bad;
  }

  private static List<String> codesAndLogs(List<TxResult> txs) {
    return txs.stream().map(r -> r.codespace() + " " + r.code() + ": " + r.log()).toList();
  }

  private static ClientState strideClientOfOsmosis(Network n) {
    return n.stride.query(ctx -> n.stride.ibc().client(ctx, Network.STRIDE_CLIENT)).orElseThrow();
  }

  @Test
  void anAcknowledgementOverAChannelItsSourceDoesNotHave_stopsTheRelayerNamingIt() {
    // Stride also has a channel whose counterparty Osmosis lacks; a packet forged on it (the
    // in-process chains trust relayed packets) is received and acknowledged
    try (Network n = Network.start(root, o -> { },
        s -> s.channel(ChannelEnd.transfer("channel-6", "channel-999", Network.STRIDE_CLIENT)),
        dev.ratelimit.app.inject.ChainComponent::open)) {
      Packet forged = new Packet(1, "transfer", "channel-999", "transfer", "channel-6",
          PacketDataCodec.encode(
              new FungibleTokenPacketData("uatom", BigInteger.TEN, ALICE, BOB, "")),
          Height.ZERO, n.timeoutIn(Duration.ofMinutes(10)));
      TxResult r = n.net.deliver(n.stride, new MsgRecvPacket(forged, HERMES));
      assertTrue(r.isOk(), r.log());
      assertTrue(r.event(IbcEvents.WRITE_ACKNOWLEDGEMENT).isPresent());

      IllegalStateException e = assertThrows(IllegalStateException.class, n.net::tick);
      assertEquals("osmosis-1 has no channel transfer/channel-999", e.getMessage());
    }
  }

  private static List<Packet> sentPackets(Network n) {
    List<Packet> sent = new ArrayList<>();
    n.net.onCommit((chain, block) -> block.events().stream()
        .filter(e -> !IbcEventsV2.isV2(e) && e.type().equals(IbcEvents.SEND_PACKET))
        .forEach(e -> sent.add(IbcEvents.packetOf(e))));
    return sent;
  }

  private static List<Msg> lastMsgs(Network n, ChainApp chain) {
    List<Block> log = n.net.log(chain);
    return log.get(log.size() - 1).msgs();
  }

  private static long strideRevision() {
    return ChainInfo.revisionNumber(OsmosisStride.STRIDE);
  }
}
