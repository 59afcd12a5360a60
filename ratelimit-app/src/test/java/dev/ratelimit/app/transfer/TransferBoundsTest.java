package dev.ratelimit.app.transfer;

import static dev.ratelimit.app.testing.Network.ALICE;
import static dev.ratelimit.app.testing.Network.BOB;
import static dev.ratelimit.app.testing.Network.OSMO_CH;
import static dev.ratelimit.app.testing.Network.OSMO_CLIENT;
import static dev.ratelimit.app.testing.Network.STRIDE_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO_V2;
import static dev.ratelimit.app.testing.Network.UOSMO;
import static dev.ratelimit.app.testing.Network.big;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.ibc.MsgAcknowledgement;
import dev.ratelimit.app.ibc.MsgRecvPacket;
import dev.ratelimit.app.ibc.MsgTimeout;
import dev.ratelimit.app.relayer.Relayer;
import dev.ratelimit.app.testing.Network;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ibc-go v10's bounds on a transfer, which an ibc-go counterparty applies to what this chain sends:
 * a receiver of at most 2,048 bytes and a memo of at most 32,768 (UTF-8), packet data of at most
 * 262,144 bytes, ibc-go's {@code Packet.ValidateBasic} on relayed packets and its destination check
 * on acknowledgements and timeouts; and its "unbounded" amount 2^256 - 1, which sends the sender's
 * whole balance.
 */
class TransferBoundsTest {
  private static final BigInteger UNBOUNDED = BigInteger.TWO.pow(256).subtract(BigInteger.ONE);

  @TempDir Path root;
  private Network n;

  @BeforeEach
  void start() {
    n = Network.start(root);
  }

  @AfterEach
  void stop() {
    n.close();
  }

  @Test
  void send_takesAMemoOfUpTo32768Bytes_countedInUtf8() {
    assertTrue(send(ALICE, UOSMO, big(1), BOB, "m".repeat(32_768)).isOk());
    assertTrue(send(ALICE, UOSMO, big(1), BOB, "送".repeat(10_922)).isOk()); // 32,766 bytes
    var before = n.osmosis.balance(ALICE, UOSMO);

    TxResult ascii = send(ALICE, UOSMO, big(1), BOB, "m".repeat(32_769));
    assertEquals(List.of("transfer", 11, "memo must not exceed 32768 bytes, got 32769"),
        List.of(ascii.codespace(), ascii.code(), ascii.log()));
    TxResult wide = send(ALICE, UOSMO, big(1), BOB, "送".repeat(10_923)); // 10,923 chars
    assertEquals(List.of("transfer", 11, "memo must not exceed 32768 bytes, got 32769"),
        List.of(wide.codespace(), wide.code(), wide.log()));
    TxResult emoji = send(ALICE, UOSMO, big(1), BOB, "🚀".repeat(8_193)); // 16,386 chars
    assertEquals(11, emoji.code());
    // the sender is checked first, as ibc-go's MsgTransfer.ValidateBasic does
    TxResult badSender = send("osmo1nobody", UOSMO, big(1), BOB, "m".repeat(32_769));
    assertEquals(List.of("sdk", 7), List.of(badSender.codespace(), badSender.code()));
    assertEquals(before, n.osmosis.balance(ALICE, UOSMO), "nothing taken");
  }

  @Test
  void send_takesAReceiverOfUpTo2048Bytes_theDestinationJudgesItsAddress() {
    var before = n.osmosis.balance(ALICE, UOSMO);
    TxResult tooLong = send(ALICE, UOSMO, big(5), "r".repeat(2_049), "");
    assertEquals(List.of("sdk", 7, "receiver must not exceed 2048 bytes, got 2049"),
        List.of(tooLong.codespace(), tooLong.code(), tooLong.log()));

    // 2,048 bytes leave: Stride refuses the address (code 7 in its error ack), Osmosis refunds
    TxResult longest = send(ALICE, UOSMO, big(5), "r".repeat(2_048), "");
    assertTrue(longest.isOk(), longest.log());
    assertEquals(before.subtract(big(5)), n.osmosis.balance(ALICE, UOSMO));
    n.relay();
    assertEquals(before, n.osmosis.balance(ALICE, UOSMO));
    assertAck(n.stride, longest.value().orElseThrow(), Acknowledgement.rateLimitError(7));
  }

  @Test
  void receive_refusesAMemoOver32768Bytes_withAnErrorAcknowledgement() {
    String relayer = Relayer.address(n.stride.info());
    Packet longest = forgedTransfer(1_001, "m".repeat(32_768));
    TxResult ok = n.net.deliver(n.stride, new MsgRecvPacket(longest, relayer));
    assertTrue(ok.isOk(), ok.log());
    assertEquals(longest, IbcEvents.packetOf(ok.event(IbcEvents.RECV_PACKET).orElseThrow()));
    assertAck(n.stride, 1_001, Acknowledgement.SUCCESS);
    assertEquals(big(3), n.stride.balance(BOB, STRIDE_UOSMO));

    TxResult refused = n.net.deliver(n.stride,
        new MsgRecvPacket(forgedTransfer(1_002, "m".repeat(32_769)), relayer));
    assertTrue(refused.isOk(), refused.log()); // the relayer's transaction; the packet is refused
    assertTrue(refused.event(IbcEvents.RECV_PACKET).isPresent(), "received, then refused");
    assertAck(n.stride, 1_002, Acknowledgement.rateLimitError(11));
    assertEquals(big(3), n.stride.balance(BOB, STRIDE_UOSMO), "nothing minted");
  }

  @Test
  void unboundedAmount_sendsTheWholeBalance_andNeedsOne() {
    BigInteger all = n.osmosis.balance(ALICE, UOSMO);
    TxResult r = send(ALICE, UOSMO, UNBOUNDED, BOB, "");
    assertTrue(r.isOk(), r.log());
    assertEquals(BigInteger.ZERO, n.osmosis.balance(ALICE, UOSMO));
    n.relay();
    assertEquals(all, n.stride.balance(BOB, STRIDE_UOSMO), "the packet carried the balance");

    TxResult empty = send(ALICE, UOSMO, UNBOUNDED, BOB, "");
    assertEquals(List.of("transfer", 5, "empty spendable balance for uosmo"),
        List.of(empty.codespace(), empty.code(), empty.log()));
    // one less than unbounded is an amount like any other
    TxResult tooMuch = send(ALICE, UOSMO, UNBOUNDED.subtract(BigInteger.ONE), BOB, "");
    assertEquals(List.of("sdk", 5), List.of(tooMuch.codespace(), tooMuch.code()));
  }

  @Test
  void unboundedAmount_overIbcV2_sendsTheWholeBalance() {
    n.close();
    n = Network.startV2(root.resolve("v2"));
    BigInteger all = n.osmosis.balance(ALICE, UOSMO);
    TxResult r = n.net.deliver(n.osmosis, MsgTransferV2.of(ALICE, OSMO_CLIENT, UOSMO, UNBOUNDED,
        BOB, n.timeoutV2In(Duration.ofMinutes(10))));
    assertTrue(r.isOk(), r.log());
    n.relay();
    assertEquals(BigInteger.ZERO, n.osmosis.balance(ALICE, UOSMO));
    assertEquals(all, n.stride.balance(BOB, STRIDE_UOSMO_V2));
  }

  /** ibc-go v10's {@code MaximumPayloadsSize}, on what IBC core sends. */
  @Test
  void ibcCore_sendsAtMost262144BytesOfData() {
    long timeout = n.timeoutIn(Duration.ofMinutes(5));
    long sequence = n.osmosis.query(ctx -> {
      try (BlockContext b = ctx.branch()) { // never committed
        return n.osmosis.ibc().sendPacket(b, "transfer", OSMO_CH, Height.ZERO, timeout,
            new byte[262_144]);
      }
    });
    assertEquals(1, sequence);
    for (byte[] data : List.of(new byte[262_145], new byte[0])) {
      TxException e = n.osmosis.query(ctx -> assertThrows(TxException.class,
          () -> n.osmosis.ibc().sendPacket(ctx, "transfer", OSMO_CH, Height.ZERO, timeout, data)));
      assertEquals(List.of("ibc", 16), List.of(e.codespace(), e.code()));
    }
  }

  /** ibc-go's {@code Packet.ValidateBasic} on a relayed packet: the relayer's transaction fails. */
  @Test
  void ibcCore_refusesARelayedPacketThatIbcGoWouldNotValidate() {
    String relayer = Relayer.address(n.stride.info());
    byte[] data = PacketDataCodec.encode(
        new FungibleTokenPacketData(UOSMO, big(3), ALICE, BOB, ""));
    long timeout = n.timeoutIn(Duration.ofMinutes(5));
    List<Packet> invalid = List.of(
        packet(0, data, Height.ZERO, timeout),
        packet(7, data, Height.ZERO, 0),
        packet(8, new byte[0], Height.ZERO, timeout),
        packet(9, new byte[262_145], Height.ZERO, timeout));
    List<String> messages = List.of(
        "packet sequence must not be 0",
        "packet needs a timeout height or timestamp",
        "packet data must not be empty",
        "packet data must not exceed 262144 bytes, got 262145");
    for (int i = 0; i < invalid.size(); i++) {
      Packet p = invalid.get(i);
      TxResult r = n.net.deliver(n.stride, new MsgRecvPacket(p, relayer));
      assertEquals(List.of("ibc", 16, messages.get(i)), List.of(r.codespace(), r.code(), r.log()));
      assertFalse(n.stride.query(ctx -> n.stride.ibc().packetAcknowledgement(
          ctx, "transfer", STRIDE_CH, p.sequence())).isPresent());
    }
    // acknowledgements and timeouts get the same checks before any state is read
    String sourceRelayer = Relayer.address(n.osmosis.info());
    Packet sent = new Packet(0, "transfer", OSMO_CH, "transfer", STRIDE_CH, data, Height.ZERO,
        timeout);
    TxResult ack = n.net.deliver(n.osmosis, new MsgAcknowledgement(
        sent, Acknowledgement.SUCCESS.toJsonBytes(), sourceRelayer));
    assertEquals(List.of("ibc", 16, messages.get(0)),
        List.of(ack.codespace(), ack.code(), ack.log()));
    Packet empty = new Packet(3, "transfer", OSMO_CH, "transfer", STRIDE_CH, new byte[0],
        Height.ZERO, timeout);
    TxResult timedOut = n.net.deliver(n.osmosis, new MsgTimeout(empty, sourceRelayer));
    assertEquals(List.of("ibc", 16, messages.get(2)),
        List.of(timedOut.codespace(), timedOut.code(), timedOut.log()));
    // a timeout height alone is a timeout
    assertTrue(n.net.deliver(n.stride,
        new MsgRecvPacket(packet(10, data, new Height(1, 1_000_000), 0), relayer)).isOk());
    assertEquals(big(3), n.stride.balance(BOB, STRIDE_UOSMO));
  }

  /**
   * A packet's commitment covers its data and timeouts, not where it went: ibc-go checks the
   * destination of an acknowledged or timed-out packet against the channel's counterparty.
   */
  @Test
  void ibcCore_acknowledgesOrTimesOutOnlyAPacketSentToTheCounterparty() {
    n.net.setRelaying(false);
    List<Packet> sent = n.sentPackets();
    assertTrue(n.sendUosmoToStride(4).isOk());
    Packet p = sent.get(0);
    Packet elsewhere = new Packet(p.sequence(), p.sourcePort(), p.sourceChannel(),
        p.destinationPort(), "channel-99", p.data(), p.timeoutHeight(), p.timeoutTimestamp());
    String relayer = Relayer.address(n.osmosis.info());
    byte[] error = Acknowledgement.rateLimitError(7).toJsonBytes();

    TxResult ack = n.net.deliver(n.osmosis, new MsgAcknowledgement(elsewhere, error, relayer));
    assertEquals(List.of("ibc", 3, "packet went to transfer/channel-99, channel's counterparty is "
        + "transfer/" + STRIDE_CH), List.of(ack.codespace(), ack.code(), ack.log()));
    TxResult timeout = n.net.deliver(n.osmosis, new MsgTimeout(elsewhere, relayer));
    assertEquals(List.of("ibc", 3), List.of(timeout.codespace(), timeout.code()));
    assertTrue(n.osmosis.query(ctx -> n.osmosis.ibc().packetCommitment(
        ctx, "transfer", OSMO_CH, p.sequence())).isPresent(), "still awaiting its ack");

    var before = n.osmosis.balance(ALICE, UOSMO);
    assertTrue(n.net.deliver(n.osmosis, new MsgAcknowledgement(p, error, relayer)).isOk());
    assertEquals(before.add(big(4)), n.osmosis.balance(ALICE, UOSMO), "refunded");
  }

  private TxResult send(String sender, String denom, BigInteger amount, String receiver,
      String memo) {
    return n.net.deliver(n.osmosis, new MsgTransfer(sender, OSMO_CH, denom, amount, receiver,
        Height.ZERO, n.timeoutIn(Duration.ofMinutes(5)), memo));
  }

  /** A transfer of 3 uosmo from Osmosis to bob that Osmosis never sent (proofs are trusted). */
  private Packet forgedTransfer(long sequence, String memo) {
    byte[] data = PacketDataCodec.encode(
        new FungibleTokenPacketData(UOSMO, big(3), ALICE, BOB, memo));
    return packet(sequence, data, Height.ZERO, n.timeoutIn(Duration.ofMinutes(5)));
  }

  private static Packet packet(long sequence, byte[] data, Height timeoutHeight, long timeout) {
    return new Packet(sequence, "transfer", OSMO_CH, "transfer", STRIDE_CH, data, timeoutHeight,
        timeout);
  }

  private static void assertAck(ChainApp chain, long sequence, Acknowledgement ack) {
    assertArrayEquals(Commitments.acknowledgement(ack.toJsonBytes()),
        chain.query(ctx -> chain.ibc().packetAcknowledgement(ctx, "transfer", STRIDE_CH, sequence))
            .orElseThrow());
  }
}
