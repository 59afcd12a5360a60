package dev.ratelimit.bench.gas;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.bench.fixture.BenchChain;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pins the store accesses of every per-packet operation: counts, key and value sizes, and the gas
 * they price to. A schema or middleware change that moves any of them fails here, on purpose:
 * update the pins and {@code docs/PERFORMANCE.md} together. No timing is measured or asserted.
 */
class GasReportTest {
  private static List<GasReport.Row> measured;
  private static Map<PacketOp, GasReport.Row> rows;

  @BeforeAll
  static void measure() {
    measured = GasReport.measure();
    rows = measured.stream().collect(Collectors.toMap(GasReport.Row::op, Function.identity()));
  }

  private static GasReport.Row row(PacketOp op) {
    return rows.get(op);
  }

  private static String trace(List<StoreAccess> accesses) {
    return accesses.stream().map(StoreAccess::toString).collect(Collectors.joining(", "));
  }

  @Test
  void scenario_usesTheTypicalDenomAndAddressLengths() {
    assertEquals(68, BenchChain.IBC_DENOM.length());
    assertEquals(45, BenchChain.SENDER.length());
    assertEquals(45, BenchChain.RECEIVER.length());
  }

  @Test
  void send_checksBlacklistQuotaWhitelistFlow_thenWritesFlowAndMarker() {
    GasReport.Row send = row(PacketOp.SEND);
    assertEquals(
        "has 70 miss, get 80+10, has 93 miss, get 80+19, put 80+19, put 88+0",
        trace(send.ours()));
    assertEquals(539, bytes(send.ours()));
    assertEquals(14_177, send.oursGas());
    assertEquals(17_218, send.goGas().getAsLong());
  }

  @Test
  void recvWithSyncAck_writesTheMarkerThenRemovesIt() {
    GasReport.Row recv = row(PacketOp.RECV);
    assertEquals(
        "has 70 miss, get 80+10, has 93 miss, get 80+19, put 80+19, put 88+0, has 88, delete 88",
        trace(recv.ours()));
    assertEquals(715, bytes(recv.ours()));
    assertEquals(16_177, recv.oursGas());
    assertEquals(12_458, recv.goGas().getAsLong());
  }

  @Test
  void successAck_checksAndDeletesTheMarker() {
    GasReport.Row ack = row(PacketOp.ACK);
    assertEquals("has 88, delete 88", trace(ack.ours()));
    assertEquals(176, bytes(ack.ours()));
    assertEquals(2_000, ack.oursGas());
    assertEquals(1_000, ack.goGas().getAsLong());
  }

  @Test
  void errorAckAndTimeout_deleteTheMarkerAndGiveTheOutflowBack() {
    for (PacketOp op : List.of(PacketOp.ACK_ERROR, PacketOp.TIMEOUT)) {
      GasReport.Row r = row(op);
      assertEquals("has 88, delete 88, get 80+19, put 80+19", trace(r.ours()), op.label());
      assertEquals(374, bytes(r.ours()), op.label());
      assertEquals(8_267, r.oursGas(), op.label());
      assertEquals(12_734, r.goGas().getAsLong(), op.label());
      assertEquals(
          r.flowBefore().outflow().subtract(BenchChain.AMOUNT),
          r.flowAfter().outflow(),
          op.label());
    }
  }

  @Test
  void asyncRecvAndItsAck_haveNoGoFigure() {
    assertEquals(
        "has 70 miss, get 80+10, has 93 miss, get 80+19, put 80+19, put 88+0",
        trace(row(PacketOp.RECV_ASYNC).ours()));
    assertEquals("has 88, delete 88", trace(row(PacketOp.WRITE_ACK).ours()));
    assertTrue(row(PacketOp.RECV_ASYNC).go().isEmpty());
    assertTrue(row(PacketOp.WRITE_ACK).go().isEmpty());
  }

  @Test
  void countsPerKind_arePinned() {
    assertEquals(
        Map.of(
            StoreAccess.Kind.GET, 2,
            StoreAccess.Kind.HAS, 2,
            StoreAccess.Kind.PUT, 2,
            StoreAccess.Kind.DELETE, 0,
            StoreAccess.Kind.SEEK, 0,
            StoreAccess.Kind.STEP, 0),
        counts(row(PacketOp.SEND).ours()));
    assertEquals(
        Map.of(
            StoreAccess.Kind.GET, 2,
            StoreAccess.Kind.HAS, 3,
            StoreAccess.Kind.PUT, 2,
            StoreAccess.Kind.DELETE, 1,
            StoreAccess.Kind.SEEK, 0,
            StoreAccess.Kind.STEP, 0),
        counts(row(PacketOp.RECV).ours()));
  }

  @Test
  void table_isOneLinePerOperation_opOursGoRatio() {
    assertEquals(
        List.of(
            "send 14177 17218 0.82",
            "recv 16177 12458 1.30",
            "ack 2000 1000 2.00",
            "ack_error 8267 12734 0.65",
            "timeout 8267 12734 0.65",
            "recv_async 14177 - -",
            "write_ack 2000 - -"),
        GasReport.table(measured));
  }

  @Test
  void ratio_isRoundedHalfUpWithADotWhateverTheLocale() {
    // the build runs tests with a Turkish default locale, whose decimal separator is a comma
    assertEquals("0.47", GasReport.ratio(8210, 17581));
    assertEquals("0.50", GasReport.ratio(1, 2));
    assertEquals("0.67", GasReport.ratio(2, 3));
  }

  @Test
  void currentSchemaModel_reproducesTheMeasuredAccesses() {
    SchemaModel model =
        new SchemaModel(
            BenchChain.IBC_DENOM,
            BenchChain.CHANNEL,
            BenchChain.SENDER,
            BenchChain.RECEIVER,
            BenchChain.QUOTA);
    for (GasReport.Row r : rows.values()) {
      assertEquals(
          r.ours(),
          model.accesses(SchemaModel.CURRENT, r.op(), r.flowBefore(), r.flowAfter()),
          r.op().label());
    }
  }

  @Test
  void proposal_meetsHalfOfTheGoGasPerSendAndRecv() {
    SchemaModel model =
        new SchemaModel(
            BenchChain.IBC_DENOM,
            BenchChain.CHANNEL,
            BenchChain.SENDER,
            BenchChain.RECEIVER,
            BenchChain.QUOTA);
    List<SchemaModel.Layout> steps = SchemaModel.proposalSteps();
    SchemaModel.Layout last = steps.get(steps.size() - 1);
    for (PacketOp op : List.of(PacketOp.SEND, PacketOp.RECV)) {
      GasReport.Row r = row(op);
      long proposed =
          GasSchedule.COSMOS_KV.gas(model.accesses(last, op, r.flowBefore(), r.flowAfter()));
      assertTrue(2 * proposed <= r.goGas().getAsLong(), op.label() + ": " + proposed);
    }
  }

  @Test
  void beginBlock_readsOneRowWithoutARollover_andResetsOnlyTheDueLimitsAtOne() {
    GasReport.BlockGas b = GasReport.measureBeginBlock(10_000, 100);
    assertEquals(100, b.resets());
    assertEquals(1_054, b.noRollover());
    assertEquals(763_432, b.rollover());
    assertTrue(b.rollover() * 10 < b.goRollover(), b.toString());
    assertTrue(b.rollover() * 10 < b.scanAndReset(), b.toString());
  }

  private static long bytes(List<StoreAccess> accesses) {
    return accesses.stream().mapToLong(StoreAccess::bytes).sum();
  }

  private static Map<StoreAccess.Kind, Integer> counts(List<StoreAccess> accesses) {
    AccessLog log = new AccessLog();
    accesses.forEach(log::record);
    return log.counts();
  }
}
