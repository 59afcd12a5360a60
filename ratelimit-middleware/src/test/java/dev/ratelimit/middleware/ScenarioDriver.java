package dev.ratelimit.middleware;

import static dev.ratelimit.middleware.MiddlewareHarness.RELAYER;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.clearInvocations;
import static org.mockito.Mockito.mockingDetails;
import static org.mockito.Mockito.when;

import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.testing.StoreEngine;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Packet;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Runs a conformance scenario (shared/conformance/FORMAT.md) against the middleware directly: the
 * same steps and expectations as the JSON, with governance through the keeper. The stand-in
 * transfer app is a Mockito mock whose recv answers the step's {@code app_ack}; its ack and
 * timeout callbacks succeed. Before a send the channel keeper is set to return the packet's
 * sequence. Every step starts with an empty event log, so a step's events are its own.
 */
final class ScenarioDriver implements AutoCloseable {
  private static final Pattern RATE_LIMIT_ACK =
      Pattern.compile("\\{\"error\":\"ABCI code: (\\d+): error handling packet: see events for details\"\\}");

  enum AppAck {
    SUCCESS,
    ERROR,
    ASYNC
  }

  /** What a recv answered: {@code ack} empty when asynchronous. */
  record RecvOutcome(Optional<Acknowledgement> ack, boolean appCalled, List<Event> events) {
    String ackBytes() {
      return new String(ack.orElseThrow().toJsonBytes(), StandardCharsets.UTF_8);
    }

    /** The rate-limit code of a middleware error ack, or 0 for anything else. */
    int code() {
      if (ack.isEmpty()) {
        return 0;
      }
      Matcher m = RATE_LIMIT_ACK.matcher(ackBytes());
      return m.matches() ? Integer.parseInt(m.group(1)) : 0;
    }

    RecvOutcome expectSuccess() {
      assertEquals("{\"result\":\"AQ==\"}", ackBytes());
      return this;
    }

    RecvOutcome expectAsync() {
      assertEquals(Optional.empty(), ack);
      return this;
    }

    RecvOutcome expectError(int code) {
      assertTrue(ack.isPresent() && !ack.get().isSuccess(), () -> "expected an error ack: " + ack);
      assertEquals(code, code(), this::ackBytes);
      assertEquals(
          "{\"error\":\"ABCI code: " + code + ": error handling packet: see events for details\"}",
          ackBytes());
      return this;
    }

    RecvOutcome expectAckBytes(String bytes) {
      assertEquals(bytes, ackBytes());
      return this;
    }

    RecvOutcome appCalled(boolean expected) {
      assertEquals(expected, appCalled, "app_called");
      return this;
    }

    RecvOutcome expectEvent(String type, Map<String, String> attributes) {
      assertHasEvent(events, type, attributes);
      return this;
    }
  }

  final MiddlewareHarness h;

  /** InitGenesis (with {@code epoch} or the genesis block's hour) and BeginBlock at {@code start}. */
  ScenarioDriver(StoreEngine engine, java.nio.file.Path tempDir, Instant start, Optional<HourEpoch> epoch) {
    h = new MiddlewareHarness(engine, tempDir, start, epoch);
    h.keeper.beginBlock(h.ctx());
  }

  @Override
  public void close() {
    h.close();
  }

  private void startStep() {
    h.chain.events().clear();
    clearInvocations(h.app);
  }

  private boolean appCalled() {
    return !mockingDetails(h.app).getInvocations().isEmpty();
  }

  // ---------------------------------------------------------------- setup

  ScenarioDriver channel(String channelId, String counterpartyChainId) {
    h.chain.channels().add(channelId, counterpartyChainId);
    return this;
  }

  ScenarioDriver supply(String denom, long amount) {
    h.chain.bank().set(denom, amount);
    return this;
  }

  // ---------------------------------------------------------------- steps

  void addRateLimit(String denom, String channel, int send, int recv, long hours) {
    startStep();
    h.keeper.addRateLimit(h.ctx(), new Path(denom, channel), new Quota(send, recv, hours));
  }

  void setSupply(String denom, long amount) {
    h.chain.bank().set(denom, amount);
  }

  void beginBlock(String time) {
    startStep();
    h.chain.beginBlock(Instant.parse(time));
  }

  List<Event> sendOk(Packet packet) {
    startStep();
    h.nextSequence(packet.sequence());
    long sequence = assertDoesNotThrow(() -> send(packet));
    assertEquals(packet.sequence(), sequence);
    return h.chain.events().events();
  }

  List<Event> sendFails(int code, Packet packet) {
    startStep();
    h.nextSequence(packet.sequence());
    String before = h.digest();
    RateLimitException e = assertThrows(RateLimitException.class, () -> send(packet));
    assertEquals(code, e.code().code(), e::getMessage);
    assertEquals(before, h.digest(), "a failed step leaves no writes");
    return h.chain.events().events();
  }

  private long send(Packet packet) {
    return h.middleware.sendPacket(
        h.ctx(),
        packet.sourcePort(),
        packet.sourceChannel(),
        packet.timeoutHeight(),
        packet.timeoutTimestamp(),
        packet.data());
  }

  RecvOutcome recv(Packet packet, AppAck appAck) {
    startStep();
    Optional<Acknowledgement> answer =
        switch (appAck) {
          case SUCCESS -> Optional.of(Acknowledgement.SUCCESS);
          case ERROR -> Optional.of(Acknowledgement.error("transfer failed"));
          case ASYNC -> Optional.empty();
        };
    when(h.app.onRecvPacket(any(), any(), any())).thenReturn(answer);
    clearInvocations(h.app);
    String before = h.digest();
    Optional<Acknowledgement> ack = h.middleware.onRecvPacket(h.ctx(), packet, RELAYER);
    if (ack.isPresent() && !ack.get().isSuccess()) {
      assertEquals(before, h.digest(), "a recv answered with an error ack keeps no writes");
    }
    return new RecvOutcome(ack, appCalled(), h.chain.events().events());
  }

  void writeAck(Packet packet, boolean success) {
    startStep();
    Acknowledgement ack = success ? Acknowledgement.SUCCESS : Acknowledgement.error("transfer failed");
    assertDoesNotThrow(() -> h.middleware.writeAcknowledgement(h.ctx(), packet, ack));
  }

  /** An ack step; returns whether the app was called. */
  boolean ack(Packet packet, byte[] acknowledgement) {
    startStep();
    assertDoesNotThrow(
        () -> h.middleware.onAcknowledgementPacket(h.ctx(), packet, acknowledgement, RELAYER));
    return appCalled();
  }

  boolean ack(Packet packet, String acknowledgement) {
    return ack(packet, acknowledgement.getBytes(StandardCharsets.UTF_8));
  }

  boolean timeout(Packet packet) {
    startStep();
    assertDoesNotThrow(() -> h.middleware.onTimeoutPacket(h.ctx(), packet, RELAYER));
    return appCalled();
  }

  void blacklistAdd(String denom) {
    h.keeper.addDenomToBlacklist(h.ctx(), denom);
  }

  void blacklistRemove(String denom) {
    h.keeper.removeDenomFromBlacklist(h.ctx(), denom);
  }

  void whitelistAdd(String sender, String receiver) {
    h.keeper.setWhitelistedAddressPair(h.ctx(), new WhitelistedAddressPair(sender, receiver));
  }

  void whitelistRemove(String sender, String receiver) {
    h.keeper.removeWhitelistedAddressPair(h.ctx(), new WhitelistedAddressPair(sender, receiver));
  }

  // ---------------------------------------------------------------- checks

  void checkFlow(String denom, String channel, long inflow, long outflow, long channelValue) {
    assertEquals(
        MiddlewareHarness.flow(inflow, outflow, channelValue),
        h.flow(denom, channel),
        () -> "flow of " + channel + "/" + denom);
  }

  void checkPendingSend(String channel, String denom, Long... sequences) {
    assertEquals(Set.of(sequences), h.sendMarkers(channel, denom), "send_sequences");
  }

  void checkPendingRecv(String channel, String denom, Long... sequences) {
    assertEquals(Set.of(sequences), h.recvMarkers(channel, denom), "recv_sequences");
  }

  void checkEpoch(long number, String startTime, Long startHeight) {
    HourEpoch epoch = h.keeper.getHourEpoch(h.ctx()).orElseThrow();
    assertEquals(number, epoch.epochNumber(), "epoch_number");
    if (startTime != null) {
      assertEquals(Instant.parse(startTime), epoch.epochStartTime(), "epoch_start_time");
    }
    if (startHeight != null) {
      assertEquals(startHeight.longValue(), epoch.epochStartHeight(), "epoch_start_height");
    }
  }

  void checkBlacklist(String... denoms) {
    assertEquals(Set.of(denoms), new HashSet<>(h.keeper.getAllBlacklistedDenoms(h.ctx())));
  }

  void checkWhitelist(WhitelistedAddressPair... pairs) {
    assertEquals(Set.of(pairs), new HashSet<>(h.keeper.getAllWhitelistedAddressPairs(h.ctx())));
  }

  // ---------------------------------------------------------------- events

  static void assertHasEvent(List<Event> events, String type, Map<String, String> attributes) {
    for (Event e : events) {
      if (!e.type().equals(type)) {
        continue;
      }
      Map<String, String> actual = MiddlewareHarness.attributes(e);
      if (attributes.entrySet().stream()
          .allMatch(a -> a.getValue().equals(actual.get(a.getKey())))) {
        return;
      }
    }
    fail("no " + type + " event with " + attributes + " in " + events);
  }

  static void assertNoEvent(List<Event> events, String type) {
    assertEquals(
        List.of(),
        events.stream().filter(e -> e.type().equals(type)).collect(Collectors.toList()),
        "expect_no_events " + type);
  }

  // ---------------------------------------------------------------- packets

  static byte[] data(String denom, String amount, String sender, String receiver) {
    return MiddlewareHarness.data(denom, amount, sender, receiver);
  }

  static Packet packet(long sequence, String sourceChannel, String destinationChannel, byte[] data) {
    return MiddlewareHarness.outgoing(sequence, sourceChannel, destinationChannel, data);
  }

  static Packet rawPacket(long sequence, String sourceChannel, String destinationChannel, String raw) {
    return packet(sequence, sourceChannel, destinationChannel, raw.getBytes(StandardCharsets.UTF_8));
  }
}
