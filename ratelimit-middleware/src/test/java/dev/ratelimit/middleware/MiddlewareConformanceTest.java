package dev.ratelimit.middleware;

import static dev.ratelimit.middleware.ScenarioDriver.assertHasEvent;
import static dev.ratelimit.middleware.ScenarioDriver.assertNoEvent;
import static dev.ratelimit.middleware.ScenarioDriver.data;
import static dev.ratelimit.middleware.ScenarioDriver.packet;
import static dev.ratelimit.middleware.ScenarioDriver.rawPacket;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.testing.StoreEngine;
import dev.ratelimit.middleware.ScenarioDriver.AppAck;
import dev.ratelimit.middleware.ibc.Packet;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The shared conformance scenarios, step by step, against the middleware (governance through the
 * keeper): send-acks-timeouts.json, blacklist-whitelist.json, walkthrough.json, and the async /
 * undecodable-data and zero-supply scenarios of edges.json. Step numbers in comments are the
 * JSON's (1-based). On both engines.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreEngine.class)
class MiddlewareConformanceTest {
  @Parameter StoreEngine engine;
  @TempDir java.nio.file.Path tempDir;

  private static final String ALICE = "stride1alice";
  private static final String BOB = "osmo1bob";

  private ScenarioDriver driver(String start) {
    return driver(start, Optional.empty());
  }

  private ScenarioDriver driver(String start, Optional<HourEpoch> epoch) {
    return new ScenarioDriver(engine, tempDir, Instant.parse(start), epoch);
  }

  // ---------------------------------------------------------------- send-acks-timeouts.json

  /** send accounting: acks, timeouts and the window they arrive in. */
  @Test
  void sendAcksTimeouts() {
    try (ScenarioDriver s = driver("2024-01-01T07:10:00Z")) {
      s.channel("channel-0", "counterparty-1").supply("ustrd", 1000);
      Packet[] p = new Packet[9];
      long[] amounts = {0, 60, 40, 1, 30, 20, 5, 10};
      for (int seq = 1; seq <= 7; seq++) {
        p[seq] = packet(seq, "channel-0", "channel-1", data("ustrd", Long.toString(amounts[seq]), ALICE, BOB));
      }
      p[8] = packet(8, "channel-0", "channel-1", data("transfer/channel-0/ujuno", "100", ALICE, BOB));

      s.checkEpoch(7, "2024-01-01T07:00:00Z", null); // 1
      s.addRateLimit("ustrd", "channel-0", 10, 10, 1); // 2
      s.sendOk(p[1]); // 3
      s.sendOk(p[2]); // 4
      s.checkFlow("ustrd", "channel-0", 0, 100, 1000); // 5
      s.sendFails(4, p[3]); // 6
      s.checkFlow("ustrd", "channel-0", 0, 100, 1000); // 7
      s.checkPendingSend("channel-0", "ustrd", 1L, 2L); // 8
      s.ack(p[1], "{\"result\":\"AQ==\"}"); // 9
      s.checkFlow("ustrd", "channel-0", 0, 100, 1000); // 10
      s.ack(p[2], "{\"error\":\"insufficient funds\"}"); // 11
      s.checkFlow("ustrd", "channel-0", 0, 60, 1000); // 12
      s.checkPendingSend("channel-0", "ustrd"); // 13
      s.sendOk(p[4]); // 14
      s.timeout(p[4]); // 15
      s.checkFlow("ustrd", "channel-0", 0, 60, 1000); // 16
      s.sendOk(p[5]); // 17
      s.checkFlow("ustrd", "channel-0", 0, 80, 1000); // 18
      s.beginBlock("2024-01-01T08:00:01Z"); // 19
      s.checkEpoch(8, null, null); // 20
      s.checkFlow("ustrd", "channel-0", 0, 0, 1000); // 21
      s.timeout(p[5]); // 22
      s.checkFlow("ustrd", "channel-0", 0, 0, 1000); // 23
      assertTrue(s.ack(p[6], "this is not json"), "app_called"); // 24
      s.sendOk(p[7]); // 25
      s.checkFlow("ustrd", "channel-0", 0, 10, 1000); // 26
      s.ack(p[7], Base64.getDecoder().decode("R3TUpXWZP5Y7HAZXNzZhekV6vvhYkXjbjRDJS0q1Eas=")); // 27
      s.checkFlow("ustrd", "channel-0", 0, 0, 1000); // 28
      s.sendOk(p[8]); // 29
      s.checkFlow("ustrd", "channel-0", 0, 0, 1000); // 30
    }
  }

  // ---------------------------------------------------------------- blacklist-whitelist.json

  /** denom blacklist and address-pair whitelist. */
  @Test
  void blacklistWhitelist() {
    try (ScenarioDriver s = driver("2024-01-01T00:00:00Z")) {
      s.channel("channel-0", "counterparty-1").supply("ustrd", 1000).supply("ujuno", 50);
      String module = "stride1module";
      String ica = "cosmos1ica";

      s.addRateLimit("ustrd", "channel-0", 10, 10, 24); // 1
      s.blacklistAdd("ustrd"); // 2
      var events =
          s.sendFails(7, packet(1, "channel-0", "channel-1", data("ustrd", "1", ALICE, BOB))); // 3
      assertHasEvent(
          events,
          "transfer_denied",
          Map.of(
              "reason", "blacklisted_denom",
              "action", "packet_send",
              "denom", "ustrd",
              "channel_or_client", "channel-0"));
      s.recv(
              packet(1, "channel-1", "channel-0", data("transfer/channel-1/ustrd", "1", BOB, ALICE)),
              AppAck.SUCCESS)
          .expectError(7)
          .expectAckBytes(
              "{\"error\":\"ABCI code: 7: error handling packet: see events for details\"}"); // 4
      s.checkFlow("ustrd", "channel-0", 0, 0, 1000); // 5
      s.blacklistAdd("ujuno"); // 6
      s.sendFails(7, packet(2, "channel-0", "channel-1", data("ujuno", "1", ALICE, BOB))); // 7
      s.checkBlacklist("ujuno", "ustrd"); // 8
      s.blacklistRemove("ustrd"); // 9
      s.sendOk(packet(3, "channel-0", "channel-1", data("ustrd", "1", ALICE, BOB))); // 10
      s.checkFlow("ustrd", "channel-0", 0, 1, 1000); // 11
      s.whitelistAdd(module, ica); // 12
      s.sendOk(packet(4, "channel-0", "channel-1", data("ustrd", "500", module, ica))); // 13
      s.checkFlow("ustrd", "channel-0", 0, 1, 1000); // 14
      s.checkPendingSend("channel-0", "ustrd", 3L); // 15
      s.recv(
              packet(2, "channel-1", "channel-0", data("transfer/channel-1/ustrd", "500", ica, module)),
              AppAck.SUCCESS)
          .expectError(4); // 16: the whitelist is directional
      s.checkWhitelist(new WhitelistedAddressPair(module, ica)); // 17
      s.whitelistRemove(module, ica); // 18
      s.sendFails(4, packet(5, "channel-0", "channel-1", data("ustrd", "500", module, ica))); // 19
      s.checkWhitelist(); // 20
    }
  }

  // ---------------------------------------------------------------- walkthrough.json

  /** walk-through from the module README. */
  @Test
  void walkthrough() {
    String osmo = "ibc/D24B4564BCD51D3D02D9987D92571EAC5915676A9BD6D9B0C1D0254CB8A5EA34";
    HourEpoch epoch = new HourEpoch(23, Instant.parse("2024-01-01T23:00:00Z"), 1);
    try (ScenarioDriver s = driver("2024-01-01T23:10:00Z", Optional.of(epoch))) {
      s.channel("channel-5", "osmosis-1").supply(osmo, 100);
      Packet in1 =
          packet(1, "channel-326", "channel-5", data("uosmo", "8", "osmo1sender", "stride1receiver"));
      Packet in2 =
          packet(2, "channel-326", "channel-5", data("uosmo", "8", "osmo1sender", "stride1receiver"));
      Packet in3 =
          packet(3, "channel-326", "channel-5", data("uosmo", "8", "osmo1sender", "stride1receiver"));

      s.addRateLimit(osmo, "channel-5", 10, 10, 24); // 1
      s.checkFlow(osmo, "channel-5", 0, 0, 100); // 2
      s.recv(in1, AppAck.SUCCESS).expectSuccess(); // 3
      s.checkFlow(osmo, "channel-5", 8, 0, 100); // 4
      s.recv(in2, AppAck.SUCCESS)
          .expectError(4)
          .expectAckBytes(
              "{\"error\":\"ABCI code: 4: error handling packet: see events for details\"}")
          .expectEvent(
              "transfer_denied",
              Map.of(
                  "reason", "rate_limit_exceeded",
                  "action", "packet_recv",
                  "denom", osmo,
                  "channel_or_client", "channel-5",
                  "amount", "8")); // 5
      s.checkFlow(osmo, "channel-5", 8, 0, 100); // 6
      s.sendOk(
          packet(
              1,
              "channel-5",
              "channel-326",
              data("transfer/channel-5/uosmo", "12", "stride1receiver", "osmo1sender"))); // 7
      s.checkFlow(osmo, "channel-5", 8, 12, 100); // 8
      s.checkPendingSend("channel-5", osmo, 1L); // 9
      s.recv(in3, AppAck.SUCCESS).expectSuccess(); // 10
      s.checkFlow(osmo, "channel-5", 16, 12, 100); // 11
      s.setSupply(osmo, 104); // 12
      s.beginBlock("2024-01-01T23:59:59Z"); // 13
      s.checkFlow(osmo, "channel-5", 16, 12, 100); // 14
      s.beginBlock("2024-01-02T00:00:00Z"); // 15
      s.checkFlow(osmo, "channel-5", 16, 12, 100); // 16
      s.checkEpoch(23, null, null); // 17
      s.beginBlock("2024-01-02T00:00:01Z"); // 18
      s.checkEpoch(24, "2024-01-02T00:00:00Z", null); // 19
      s.checkFlow(osmo, "channel-5", 0, 0, 104); // 20
      s.checkPendingSend("channel-5", osmo); // 21
    }
  }

  // ---------------------------------------------------------------- edges.json

  /** async acks, app error acks and undecodable packet data. */
  @Test
  void edgesAsyncAcksAppErrorAcksAndUndecodableData() {
    try (ScenarioDriver s = driver("2024-01-01T05:10:00Z")) {
      s.channel("channel-0", "counterparty-1").supply("ustrd", 1000);
      String denom = "transfer/channel-1/ustrd";
      Packet r1 = packet(1, "channel-1", "channel-0", data(denom, "30", BOB, ALICE));
      Packet r2 = packet(2, "channel-1", "channel-0", data(denom, "40", BOB, ALICE));
      Packet r3 = packet(3, "channel-1", "channel-0", data(denom, "20", BOB, ALICE));
      Packet r4 = packet(4, "channel-1", "channel-0", data(denom, "61", BOB, ALICE));

      s.addRateLimit("ustrd", "channel-0", 10, 10, 24); // 1
      s.recv(r1, AppAck.ASYNC).expectAsync().appCalled(true); // 2
      s.checkFlow("ustrd", "channel-0", 30, 0, 1000); // 3
      s.checkPendingRecv("channel-0", "ustrd", 1L); // 4
      s.writeAck(r1, false); // 5
      s.checkFlow("ustrd", "channel-0", 0, 0, 1000); // 6
      s.checkPendingRecv("channel-0", "ustrd"); // 7
      s.recv(r2, AppAck.ASYNC).expectAsync(); // 8
      s.writeAck(r2, true); // 9
      s.checkFlow("ustrd", "channel-0", 40, 0, 1000); // 10
      s.checkPendingRecv("channel-0", "ustrd"); // 11
      s.recv(r3, AppAck.ERROR)
          .appCalled(true)
          .expectAckBytes("{\"error\":\"transfer failed\"}"); // 12
      s.checkFlow("ustrd", "channel-0", 40, 0, 1000); // 13
      s.checkPendingRecv("channel-0", "ustrd"); // 14
      s.recv(r4, AppAck.SUCCESS).expectError(4).appCalled(false); // 15
      s.checkFlow("ustrd", "channel-0", 40, 0, 1000); // 16
      s.recv(
              rawPacket(
                  5,
                  "channel-1",
                  "channel-0",
                  "{\"denom\":\"transfer/channel-1/ustrd\",\"amount\":\"010\",\"sender\":\"osmo1bob\",\"receiver\":\"stride1alice\"}"),
              AppAck.SUCCESS)
          .expectError(10)
          .appCalled(false)
          .expectAckBytes(
              "{\"error\":\"ABCI code: 10: error handling packet: see events for details\"}")
          .expectEvent(RateLimitEvents.INVALID_PACKET, Map.of("code", "10")); // 17
      s.recv(
              rawPacket(
                  6,
                  "channel-1",
                  "channel-0",
                  "{\"denom\":\"transfer/channel-1/ustrd\",\"amount\":\"1\",\"amount\":\"1000\",\"sender\":\"osmo1bob\",\"receiver\":\"stride1alice\"}"),
              AppAck.SUCCESS)
          .expectError(9)
          .appCalled(false)
          .expectEvent(RateLimitEvents.INVALID_PACKET, Map.of("code", "9")); // 18
      s.recv(
              rawPacket(
                  7,
                  "channel-1",
                  "channel-0",
                  "{\"denom\":\"transfer/channel-1/ustrd\",\"Amount\":\"5\",\"sender\":\"osmo1bob\",\"receiver\":\"stride1alice\"}"),
              AppAck.SUCCESS)
          .expectError(9)
          .appCalled(false); // 19
      s.recv(
              rawPacket(
                  8,
                  "channel-1",
                  "channel-0",
                  "{\"denom\":\"transfer/channel-1/ustrd\",\"amount\":\"+5\",\"sender\":\"osmo1bob\",\"receiver\":\"stride1alice\"}"),
              AppAck.SUCCESS)
          .expectError(10); // 20
      s.sendFails(9, rawPacket(1, "channel-0", "channel-1", "not json")); // 21
      s.checkFlow("ustrd", "channel-0", 40, 0, 1000); // 22
      // 23: check_export
      Genesis exported = s.h.keeper.exportGenesis(s.h.ctx());
      assertEquals(
          new Genesis(
              List.of(
                  new RateLimit(
                      new Path("ustrd", "channel-0"),
                      new Quota(10, 10, 24),
                      MiddlewareHarness.flow(40, 0, 1000))),
              List.of(),
              List.of(),
              List.of(),
              List.of(),
              Optional.of(new HourEpoch(5, Instant.parse("2024-01-01T05:00:00Z"), 1))),
          exported);
    }
  }

  /** zero supply at a reset keeps the previous channel value. */
  @Test
  void edgesZeroSupplyAtAResetKeepsThePreviousChannelValue() {
    try (ScenarioDriver s = driver("2024-01-01T05:10:00Z")) {
      s.channel("channel-0", "counterparty-1").supply("uvoucher", 1000);
      String denom = "transfer/channel-1/uvoucher";

      s.addRateLimit("uvoucher", "channel-0", 10, 10, 1); // 1
      s.recv(packet(1, "channel-1", "channel-0", data(denom, "100", BOB, ALICE)), AppAck.SUCCESS)
          .expectSuccess(); // 2
      s.checkFlow("uvoucher", "channel-0", 100, 0, 1000); // 3
      s.setSupply("uvoucher", 0); // 4
      s.beginBlock("2024-01-01T06:00:01Z"); // 5
      assertHasEvent(
          s.h.chain.events().events(),
          RateLimitEvents.CHANNEL_VALUE_KEPT,
          Map.of("denom", "uvoucher", "channel_or_client", "channel-0", "channel_value", "1000"));
      s.checkFlow("uvoucher", "channel-0", 0, 0, 1000); // 6
      s.recv(packet(2, "channel-1", "channel-0", data(denom, "101", BOB, ALICE)), AppAck.SUCCESS)
          .expectError(4); // 7
      var ok =
          s.recv(
                  packet(3, "channel-1", "channel-0", data(denom, "100", BOB, ALICE)),
                  AppAck.SUCCESS)
              .expectSuccess(); // 8
      assertNoEvent(ok.events(), "transfer_denied");
      s.setSupply("uvoucher", 3000); // 9
      s.beginBlock("2024-01-01T07:00:01Z"); // 10
      s.checkFlow("uvoucher", "channel-0", 0, 0, 3000); // 11
    }
  }
}
