package dev.ratelimit.app.transfer;

import static dev.ratelimit.app.testing.Network.ALICE;
import static dev.ratelimit.app.testing.Network.BOB;
import static dev.ratelimit.app.testing.Network.OSMO_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_CH;
import static dev.ratelimit.app.testing.Network.STRIDE_UOSMO;
import static dev.ratelimit.app.testing.Network.UOSMO;
import static dev.ratelimit.app.testing.Network.big;
import static dev.ratelimit.app.testing.Network.flow;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.app.bank.Addresses;
import dev.ratelimit.app.chain.ChainApp;
import dev.ratelimit.app.chain.TxResult;
import dev.ratelimit.app.ibc.Commitments;
import dev.ratelimit.app.ibc.IbcEvents;
import dev.ratelimit.app.ibc.MsgAcknowledgement;
import dev.ratelimit.app.ibc.MsgRecvPacket;
import dev.ratelimit.app.relayer.Relayer;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import java.util.List;
import dev.ratelimit.app.testing.Network;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.store.PrefixKvStore;
import dev.ratelimit.core.store.StoreDigest;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rate limiter inside the real chain wiring: sends, receives, acknowledgements and timeouts
 * of ICS-20 transfers between the two chains, with limits added by governance.
 */
class RateLimitedTransferTest {
  @TempDir Path root;
  private Network n;

  @BeforeEach
  void start() {
    n = Network.start(root);
    // Stride's supply of ibc/uosmo becomes 100 before any limit exists.
    assertTrue(n.sendUosmoToStride(100).isOk());
    n.relay();
    assertEquals(big(100), n.stride.totalSupply(STRIDE_UOSMO));
  }

  @AfterEach
  void stop() {
    n.close();
  }

  @Test
  void sendOverQuota_failsAtAppLevel_senderKeepsTokens() {
    // Osmosis: 10% of the uosmo supply (1,000,000) may leave per day over channel-326.
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CH, 10, 10, 24);
    assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
    var balance = n.osmosis.balance(ALICE, UOSMO);
    var escrow = n.escrowed(n.osmosis, OSMO_CH, UOSMO);
    long nextSequence = nextSequence(n.osmosis, OSMO_CH);
    String stateBefore = moduleState(n.osmosis);

    TxResult r = n.sendUosmoToStride(100_001);

    assertFalse(r.isOk());
    assertEquals("ratelimit", r.codespace());
    assertEquals(ErrorCode.QUOTA_EXCEEDED.code(), r.code());
    assertEquals(balance, n.osmosis.balance(ALICE, UOSMO));
    assertEquals(escrow, n.escrowed(n.osmosis, OSMO_CH, UOSMO));
    assertEquals(nextSequence, nextSequence(n.osmosis, OSMO_CH));
    assertTrue(n.osmosis.query(ctx ->
        n.osmosis.ibc().packetCommitment(ctx, "transfer", OSMO_CH, nextSequence)).isEmpty());
    assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
    assertEquals(stateBefore, moduleState(n.osmosis), "a failed transaction writes nothing");
    // the denial is still reported
    assertTrue(r.event("transfer_denied").isPresent());
    assertTrue(n.net.relayer().isIdle(), "no packet was sent");

    // exactly at the threshold passes (strict >)
    assertTrue(n.sendUosmoToStride(100_000).isOk());
    assertEquals(flow(0, 100_000, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
  }

  @Test
  void recvOverQuota_errorAckOnStride_osmosisRefundsAndUndoesItsOutflow() {
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CH, 10, 10, 24);
    n.addRateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH, 10, 10, 24);

    assertTrue(n.sendUosmoToStride(8).isOk());
    n.relay();
    assertEquals(flow(8, 0, 100), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH));
    assertEquals(flow(0, 8, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
    var aliceBefore = n.osmosis.balance(ALICE, UOSMO);

    n.net.setRelaying(false);
    TxResult sent = n.sendUosmoToStride(8);
    assertTrue(sent.isOk());
    long seq = sent.value().orElseThrow();
    // sent: escrowed on Osmosis and counted in Osmosis's outflow, with a pending send marker
    assertEquals(aliceBefore.subtract(big(8)), n.osmosis.balance(ALICE, UOSMO));
    assertEquals(flow(0, 16, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
    assertTrue(pendingSend(n.osmosis, UOSMO, OSMO_CH, seq));

    n.net.setRelaying(true);
    n.net.tick(); // Stride receives it and acknowledges an error
    byte[] expectedAck =
        "{\"error\":\"ABCI code: 4: error handling packet: see events for details\"}"
            .getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(
        Commitments.acknowledgement(expectedAck),
        n.stride.query(ctx ->
            n.stride.ibc().packetAcknowledgement(ctx, "transfer", STRIDE_CH, seq)).orElseThrow());
    assertEquals(flow(8, 0, 100), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH));
    assertEquals(big(108), n.stride.totalSupply(STRIDE_UOSMO), "nothing minted");
    assertTrue(hasReceipt(n.stride, STRIDE_CH, seq), "receipt written");

    n.relay(); // the error ack reaches Osmosis
    assertEquals(aliceBefore, n.osmosis.balance(ALICE, UOSMO), "refunded");
    assertEquals(flow(0, 8, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH), "outflow undone");
    assertFalse(pendingSend(n.osmosis, UOSMO, OSMO_CH, seq));
    assertEquals(big(108), n.escrowed(n.osmosis, OSMO_CH, UOSMO));
    assertTrue(n.osmosis.query(ctx ->
        n.osmosis.ibc().packetCommitment(ctx, "transfer", OSMO_CH, seq)).isEmpty());
  }

  @Test
  void timeout_refundsAndUndoesTheOutflow() {
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CH, 10, 10, 24);
    var aliceBefore = n.osmosis.balance(ALICE, UOSMO);

    // times out one second from now: Stride's next block (5 s later) is already past it
    TxResult sent =
        n.net.deliver(n.osmosis,
            n.transferMsg(ALICE, OSMO_CH, UOSMO, 50, BOB, n.timeoutIn(Duration.ofSeconds(1))));
    assertTrue(sent.isOk(), sent.log());
    long seq = sent.value().orElseThrow();
    assertEquals(flow(0, 50, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
    assertEquals(aliceBefore.subtract(big(50)), n.osmosis.balance(ALICE, UOSMO));

    n.relay();

    assertEquals(aliceBefore, n.osmosis.balance(ALICE, UOSMO), "refunded");
    assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH), "outflow undone");
    assertFalse(pendingSend(n.osmosis, UOSMO, OSMO_CH, seq));
    assertFalse(hasReceipt(n.stride, STRIDE_CH, seq), "never received");
    assertEquals(big(100), n.stride.totalSupply(STRIDE_UOSMO));
    assertEquals(big(100), n.escrowed(n.osmosis, OSMO_CH, UOSMO));
  }

  @Test
  void returnTransfer_burnsVouchersAndUnescrowsOnTheSource() {
    n.addRateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH, 20, 20, 24);
    var aliceBefore = n.osmosis.balance(ALICE, UOSMO);

    TxResult r = n.sendUosmoBackToOsmosis(12);
    assertTrue(r.isOk(), r.log());
    assertEquals(big(88), n.stride.totalSupply(STRIDE_UOSMO), "burned on send");
    assertEquals(flow(0, 12, 100), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH));
    n.relay();
    assertEquals(aliceBefore.add(big(12)), n.osmosis.balance(ALICE, UOSMO));
    assertEquals(big(88), n.escrowed(n.osmosis, OSMO_CH, UOSMO));
  }

  @Test
  void sendOverQuotaOnStride_vouchersStayWithTheSender() {
    n.addRateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH, 10, 10, 24);
    TxResult r = n.sendUosmoBackToOsmosis(11);
    assertFalse(r.isOk());
    assertEquals(ErrorCode.QUOTA_EXCEEDED.code(), r.code());
    assertEquals(big(100), n.stride.balance(BOB, STRIDE_UOSMO));
    assertEquals(big(100), n.stride.totalSupply(STRIDE_UOSMO), "nothing burned");
  }

  @Test
  void invalidReceiver_errorAckFromTheTransferApp_refundsTheSender() {
    var aliceBefore = n.osmosis.balance(ALICE, UOSMO);
    TxResult r =
        n.net.deliver(n.osmosis,
            n.transferMsg(ALICE, OSMO_CH, UOSMO, 7, "stride1notanaddress",
                n.timeoutIn(Duration.ofMinutes(5))));
    assertTrue(r.isOk(), r.log());
    n.relay();
    assertEquals(aliceBefore, n.osmosis.balance(ALICE, UOSMO));
    byte[] ack = Acknowledgement.rateLimitError(7).toJsonBytes(); // SDK invalid_address
    long seq = r.value().orElseThrow();
    assertArrayEquals(
        Commitments.acknowledgement(ack),
        n.stride.query(ctx ->
            n.stride.ibc().packetAcknowledgement(ctx, "transfer", STRIDE_CH, seq)).orElseThrow());
  }

  /**
   * An interchain account's address holds 32 bytes, not 20: it receives vouchers, is counted by
   * the rate limiter like any receiver, and sends them back.
   */
  @Test
  void thirtyTwoByteAccount_receivesAndSendsBack() {
    n.addRateLimit(n.stride, STRIDE_UOSMO, STRIDE_CH, 20, 20, 24);
    byte[] payload = new byte[32];
    java.util.Arrays.fill(payload, (byte) 0x3C);
    String account = Addresses.of("stride", payload);
    assertEquals(65, account.length());

    TxResult in = n.net.deliver(n.osmosis,
        n.transferMsg(ALICE, OSMO_CH, UOSMO, 7, account, n.timeoutIn(Duration.ofMinutes(5))));
    assertTrue(in.isOk(), in.log());
    n.relay();
    assertEquals(big(7), n.stride.balance(account, STRIDE_UOSMO));
    assertEquals(flow(7, 0, 100), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH));

    var aliceBefore = n.osmosis.balance(ALICE, UOSMO);
    TxResult out = n.net.deliver(n.stride,
        n.transferMsg(account, STRIDE_CH, STRIDE_UOSMO, 3, ALICE,
            n.timeoutIn(Duration.ofMinutes(5))));
    assertTrue(out.isOk(), out.log());
    n.relay();
    assertEquals(big(4), n.stride.balance(account, STRIDE_UOSMO));
    assertEquals(aliceBefore.add(big(3)), n.osmosis.balance(ALICE, UOSMO));
    assertEquals(flow(7, 3, 100), n.flow(n.stride, STRIDE_UOSMO, STRIDE_CH));
  }

  /** SPEC §5: the transfer app (not the rate limiter) requires amount > 0, on both paths. */
  @Test
  void zeroAmounts_areRefusedByTheTransferApp_onSendAndOnReceive() {
    var aliceBefore = n.osmosis.balance(ALICE, UOSMO);
    TxResult send = n.net.deliver(n.osmosis,
        n.transferMsg(ALICE, OSMO_CH, UOSMO, 0, BOB, n.timeoutIn(Duration.ofMinutes(5))));
    assertEquals(5, send.code(), send.log());
    assertEquals("amount must be positive, got 0", send.log());
    assertEquals(aliceBefore, n.osmosis.balance(ALICE, UOSMO));

    Packet zero = new Packet(1, "transfer", OSMO_CH, "transfer", STRIDE_CH,
        ("{\"denom\":\"uosmo\",\"amount\":\"0\",\"sender\":\"" + ALICE
            + "\",\"receiver\":\"" + BOB + "\"}").getBytes(StandardCharsets.UTF_8),
        Height.ZERO, Long.MAX_VALUE);
    // in a query's context, discarded afterwards: the balance is read in the same context
    List<Object> ackAndBalance = n.stride.query(ctx -> List.of(
        n.stride.transfer().onRecvPacket(ctx, zero, "relayer").orElseThrow(),
        n.stride.bank().balance(ctx, BOB, STRIDE_UOSMO)));
    assertEquals("{\"error\":\"ABCI code: 5: error handling packet: see events for details\"}",
        new String(((Acknowledgement) ackAndBalance.get(0)).toJsonBytes(), StandardCharsets.UTF_8));
    assertEquals(big(100), ackAndBalance.get(1), "the 100 from the set-up only: nothing minted");
  }

  @Test
  void timeoutByHeight_refundsAndUndoesTheOutflow() {
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CH, 10, 10, 24);
    var aliceBefore = n.osmosis.balance(ALICE, UOSMO);
    // Stride's next block is at this height: the packet cannot be received any more
    Height timeout = new Height(1, n.stride.lastHeight() + 1);
    TxResult sent =
        n.net.deliver(n.osmosis,
            new MsgTransfer(ALICE, OSMO_CH, UOSMO, big(40), BOB, timeout, 0, ""));
    assertTrue(sent.isOk(), sent.log());
    assertEquals(flow(0, 40, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));

    n.relay();

    assertEquals(aliceBefore, n.osmosis.balance(ALICE, UOSMO));
    assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
    assertFalse(hasReceipt(n.stride, STRIDE_CH, sent.value().orElseThrow()));
  }

  @Test
  void universalErrorAck_refundsAndUndoesTheOutflow_malformedAckFailsTheRelayTx() {
    n.addRateLimit(n.osmosis, UOSMO, OSMO_CH, 10, 10, 24);
    var aliceBefore = n.osmosis.balance(ALICE, UOSMO);
    n.net.setRelaying(false);
    List<Packet> sent = n.sentPackets();
    assertTrue(n.sendUosmoToStride(30).isOk());
    Packet packet = sent.get(0);
    String relayer = Relayer.address(n.osmosis.info());

    // a malformed acknowledgement fails the relayer's transaction: nothing changes (as ibc-go)
    TxResult malformed = n.net.deliver(n.osmosis,
        new MsgAcknowledgement(packet, "{\"result\":\"\"}".getBytes(StandardCharsets.UTF_8), relayer));
    assertFalse(malformed.isOk());
    assertEquals(flow(0, 30, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH));
    assertTrue(n.osmosis.query(ctx -> n.osmosis.ibc().packetCommitment(
        ctx, "transfer", OSMO_CH, packet.sequence())).isPresent());

    // the IBC v2 universal error acknowledgement is an error for the limiter AND the app
    byte[] universal = sha256("UNIVERSAL_ERROR_ACKNOWLEDGEMENT");
    TxResult r = n.net.deliver(n.osmosis, new MsgAcknowledgement(packet, universal, relayer));
    assertTrue(r.isOk(), r.log());
    assertEquals(aliceBefore, n.osmosis.balance(ALICE, UOSMO), "refunded");
    assertEquals(flow(0, 0, 1_000_000), n.flow(n.osmosis, UOSMO, OSMO_CH), "outflow undone");

    // relaying the same acknowledgement again is a no-op (no second refund)
    assertTrue(n.net.deliver(n.osmosis, new MsgAcknowledgement(packet, universal, relayer)).isOk());
    assertEquals(aliceBefore, n.osmosis.balance(ALICE, UOSMO));
  }

  @Test
  void receivingThePacketTwice_isANoOp() {
    List<Packet> sent = n.sentPackets();
    assertTrue(n.sendUosmoToStride(9).isOk());
    n.relay();
    assertEquals(big(109), n.stride.totalSupply(STRIDE_UOSMO));
    TxResult again = n.net.deliver(n.stride,
        new MsgRecvPacket(sent.get(0), Relayer.address(n.stride.info())));
    assertTrue(again.isOk(), again.log());
    assertTrue(again.event(IbcEvents.RECV_PACKET).isEmpty(), "a no-op emits nothing, as ibc-go");
    assertEquals(big(109), n.stride.totalSupply(STRIDE_UOSMO));
  }

  private static byte[] sha256(String text) {
    try {
      return java.security.MessageDigest.getInstance("SHA-256")
          .digest(text.getBytes(StandardCharsets.US_ASCII));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new AssertionError(e);
    }
  }

  private static long nextSequence(ChainApp chain, String channel) {
    return chain.query(ctx -> chain.ibc().nextSequenceSend(ctx, "transfer", channel));
  }

  private static boolean hasReceipt(ChainApp chain, String channel, long seq) {
    return chain.query(ctx -> chain.ibc().hasPacketReceipt(ctx, "transfer", channel, seq));
  }

  private static boolean pendingSend(ChainApp chain, String denom, String channel, long seq) {
    return chain.query(ctx ->
        chain.rateLimits().isPendingSendPacket(ctx, new PendingPacket(channel, denom, seq)));
  }

  /** Digest of every module's state ({@code s/...}), leaving out the last-block record. */
  private static String moduleState(ChainApp chain) {
    return chain.query(ctx -> StoreDigest.hex(new PrefixKvStore(ctx.store(), new byte[] {'s', '/'})));
  }

}
