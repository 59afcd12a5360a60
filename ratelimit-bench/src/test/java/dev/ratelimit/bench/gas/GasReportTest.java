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
  void send_readsTheLimitRowAndChecksTheWhitelist_thenWritesTheRowAndTheMarker() {
    GasReport.Row send = row(PacketOp.SEND);
    assertEquals("get 17+22, has 93 miss, put 17+22, put 25+0", trace(send.ours()));
    assertEquals(196, bytes(send.ours()));
    assertEquals(8_037, send.oursGas());
    assertEquals(17_218, send.goGas().getAsLong());
  }

  @Test
  void recvWithSyncAck_storesNoMarker() {
    GasReport.Row recv = row(PacketOp.RECV);
    assertEquals("get 17+22, has 93 miss, put 17+22", trace(recv.ours()));
    assertEquals(171, bytes(recv.ours()));
    assertEquals(5_287, recv.oursGas());
    assertEquals(12_458, recv.goGas().getAsLong());
  }

  @Test
  void successAck_deletesTheMarkerBlindly() {
    GasReport.Row ack = row(PacketOp.ACK);
    assertEquals("delete 25", trace(ack.ours()));
    assertEquals(25, bytes(ack.ours()));
    assertEquals(1_000, ack.oursGas());
    assertEquals(1_000, ack.goGas().getAsLong());
  }

  @Test
  void errorAckAndTimeout_deleteTheMarkerAndGiveTheOutflowBack() {
    for (PacketOp op : List.of(PacketOp.ACK_ERROR, PacketOp.TIMEOUT)) {
      GasReport.Row r = row(op);
      assertEquals("has 25, delete 25, get 17+22, put 17+22", trace(r.ours()), op.label());
      assertEquals(128, bytes(r.ours()), op.label());
      assertEquals(6_287, r.oursGas(), op.label());
      assertEquals(12_734, r.goGas().getAsLong(), op.label());
      assertEquals(
          r.flowBefore().outflow().subtract(BenchChain.AMOUNT),
          r.flowAfter().outflow(),
          op.label());
    }
  }

  @Test
  void asyncRecvAndItsAck_storeAndDeleteTheMarker_andHaveNoGoFigure() {
    assertEquals(
        "get 17+22, has 93 miss, put 17+22, put 25+0", trace(row(PacketOp.RECV_ASYNC).ours()));
    assertEquals(8_037, row(PacketOp.RECV_ASYNC).oursGas());
    assertEquals("delete 25", trace(row(PacketOp.WRITE_ACK).ours()));
    assertEquals(1_000, row(PacketOp.WRITE_ACK).oursGas());
    assertTrue(row(PacketOp.RECV_ASYNC).go().isEmpty());
    assertTrue(row(PacketOp.WRITE_ACK).go().isEmpty());
  }

  @Test
  void countsPerKind_arePinned() {
    assertEquals(
        Map.of(
            StoreAccess.Kind.GET, 1,
            StoreAccess.Kind.HAS, 1,
            StoreAccess.Kind.PUT, 2,
            StoreAccess.Kind.DELETE, 0,
            StoreAccess.Kind.SEEK, 0,
            StoreAccess.Kind.STEP, 0),
        counts(row(PacketOp.SEND).ours()));
    assertEquals(
        Map.of(
            StoreAccess.Kind.GET, 1,
            StoreAccess.Kind.HAS, 1,
            StoreAccess.Kind.PUT, 1,
            StoreAccess.Kind.DELETE, 0,
            StoreAccess.Kind.SEEK, 0,
            StoreAccess.Kind.STEP, 0),
        counts(row(PacketOp.RECV).ours()));
  }

  @Test
  void table_isOneLinePerOperation_opOursGoRatio() {
    assertEquals(
        List.of(
            "send 8037 17218 0.47",
            "recv 5287 12458 0.42",
            "ack 1000 1000 1.00",
            "ack_error 6287 12734 0.49",
            "timeout 6287 12734 0.49",
            "recv_async 8037 - -",
            "write_ack 1000 - -"),
        GasReport.table(measured));
  }

  @Test
  void ratio_isRoundedHalfUpWithADotWhateverTheLocale() {
    // the build runs tests with a Turkish default locale, whose decimal separator is a comma
    assertEquals("0.47", GasReport.ratio(8210, 17581));
    assertEquals("0.50", GasReport.ratio(1, 2));
    assertEquals("0.67", GasReport.ratio(2, 3));
  }

  private static SchemaModel model() {
    return SchemaModel.scenario();
  }

  @Test
  void currentSchemaModel_reproducesTheMeasuredAccesses() {
    SchemaModel model = model();
    for (GasReport.Row r : rows.values()) {
      assertEquals(
          r.ours(),
          model.accesses(SchemaModel.CURRENT, r.op(), r.flowBefore(), r.flowAfter()),
          r.op().label());
    }
  }

  @Test
  void currentLayout_isTheLastStepOfTheChange_andNotTheFirstLayout() {
    List<SchemaModel.Layout> steps = SchemaModel.steps();
    assertEquals(5, steps.size());
    assertEquals(SchemaModel.CURRENT, steps.get(steps.size() - 1));
    assertEquals(
        new SchemaModel.Layout(SchemaModel.CURRENT.name(), true, true, true, 16, true),
        SchemaModel.CURRENT);
    assertEquals(
        new SchemaModel.Layout(SchemaModel.FIRST.name(), false, false, false, 0, false),
        SchemaModel.FIRST);
  }

  @Test
  void firstLayoutModel_keepsTheAccessesMeasuredBeforeTheChange() {
    // what MeteredKvStore measured on the first layout (v0.1), pinned before the change
    SchemaModel model = model();
    Map<PacketOp, String> before =
        Map.of(
            PacketOp.SEND, "has 70 miss, get 80+10, has 93 miss, get 80+19, put 80+19, put 88+0",
            PacketOp.RECV,
                "has 70 miss, get 80+10, has 93 miss, get 80+19, put 80+19, put 88+0, has 88,"
                    + " delete 88",
            PacketOp.ACK, "has 88, delete 88",
            PacketOp.ACK_ERROR, "has 88, delete 88, get 80+19, put 80+19",
            PacketOp.TIMEOUT, "has 88, delete 88, get 80+19, put 80+19",
            PacketOp.RECV_ASYNC,
                "has 70 miss, get 80+10, has 93 miss, get 80+19, put 80+19, put 88+0",
            PacketOp.WRITE_ACK, "has 88, delete 88");
    for (GasReport.Row r : rows.values()) {
      assertEquals(
          before.get(r.op()),
          trace(model.accesses(SchemaModel.FIRST, r.op(), r.flowBefore(), r.flowAfter())),
          r.op().label());
    }
  }

  @Test
  void layoutTable_pricesTheFirstLayoutAndEachStepOfTheChange() {
    assertEquals(
        List.of(
            "first layout (v0.1 before the change) | send 14177 0.82 | recv 16177 1.30"
                + " | ack 2000 2.00 | ack_error 8267 0.65 | timeout 8267 0.65"
                + " | recv_async 14177 | write_ack 2000",
            "1 recv marker only when the ack is async | send 14177 0.82 | recv 9537 0.77"
                + " | ack 2000 2.00 | ack_error 8267 0.65 | timeout 8267 0.65"
                + " | recv_async 14177 | write_ack 2000",
            "2 + blind delete on a success ack | send 14177 0.82 | recv 9537 0.77"
                + " | ack 1000 1.00 | ack_error 8267 0.65 | timeout 8267 0.65"
                + " | recv_async 14177 | write_ack 1000",
            "3 + quota and flow in one row | send 13006 0.76 | recv 8366 0.67"
                + " | ack 1000 1.00 | ack_error 8366 0.66 | timeout 8366 0.66"
                + " | recv_async 13006 | write_ack 1000",
            "4 + rows and markers keyed by a 16-byte path hash | send 9037 0.52 | recv 6287 0.50"
                + " | ack 1000 1.00 | ack_error 6287 0.49 | timeout 6287 0.49"
                + " | recv_async 9037 | write_ack 1000",
            "5 + blacklist bit in the limit row (current) | send 8037 0.47 | recv 5287 0.42"
                + " | ack 1000 1.00 | ack_error 6287 0.49 | timeout 6287 0.49"
                + " | recv_async 8037 | write_ack 1000"),
        GasReport.layoutTable(measured));
  }

  @Test
  void currentLayout_meetsHalfOfTheGoGasPerSendAndRecv() {
    for (PacketOp op : List.of(PacketOp.SEND, PacketOp.RECV)) {
      GasReport.Row r = row(op);
      assertTrue(2 * r.oursGas() <= r.goGas().getAsLong(), op.label() + ": " + r.oursGas());
    }
  }

  @Test
  void beginBlock_readsOneRowWithoutARollover_andResetsOnlyTheDueLimitsAtOne() {
    GasReport.BlockGas b = GasReport.measureBeginBlock(10_000, 100);
    assertEquals(100, b.resets());
    assertEquals(1_054, b.noRollover());
    assertEquals(438_432, b.rollover());
    // docs/PERFORMANCE.md quotes these two: the scan on our layout, and the Go module's hourly scan
    assertEquals(14_461_130, b.scanAndReset());
    assertEquals(8_249_121, b.goRollover());
    assertTrue(b.rollover() * 10 < b.goRollover(), b.toString());
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
