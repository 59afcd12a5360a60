package dev.ratelimit.reliability;

import static dev.ratelimit.reliability.MiddlewareRig.AUTHORITY;
import static dev.ratelimit.reliability.MiddlewareRig.data;
import static dev.ratelimit.reliability.MiddlewareRig.flow;
import static dev.ratelimit.reliability.MiddlewareRig.incoming;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.genesis.GenesisCodec;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.transfer.DenomResolver;
import dev.ratelimit.middleware.transfer.DenomTrace;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.Hop;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import dev.ratelimit.proto.v1.MsgRemoveRateLimit;
import dev.ratelimit.proto.v1.MsgResetRateLimit;
import dev.ratelimit.proto.v1.MsgUpdateRateLimit;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Regressions for the known bugs of the Go modules (Stride's {@code x/ratelimit}, ibc-apps' {@code
 * rate-limiting}, and where it applies ibc-go's), each pinned with the behaviour SPEC asks for, on
 * the real keeper, middleware and governance handler. The app-level ones (BeginBlock wiring, send
 * bypass, packet forwarding through the chain) are in {@link AppWiringRegressionTest}.
 */
class GoModuleBugRegressionTest {
  /** 00:30 UTC: epoch 0, so 1h windows end at 01:00 and 24h windows at midnight. */
  private static final Instant GENESIS = Instant.parse("2024-01-01T00:30:00Z");

  private static final String UATOM = "uatom";
  /** The counterparty's channel; a received denom with this prefix is coming back home. */
  private static final String PEER = "channel-999";
  private static final String PEER_PREFIX = "transfer/" + PEER + "/";

  /** How a path's window or limit is ended. */
  enum Clearing {
    RESET_MSG,
    UPDATE_MSG,
    REMOVE_MSG,
    WINDOW_END
  }

  // ---------------------------------------------------------------- look-alike paths

  /**
   * Go: the pending-packet keys were {@code channel + sequence} strings and a reset deleted by the
   * prefix {@code channel-1}, which also matched {@code channel-11}'s markers.
   */
  @ParameterizedTest
  @EnumSource(Clearing.class)
  void endingChannel1_keepsChannel11sMarkers(Clearing how) {
    assertOnlyTargetCleared(how, new Path(UATOM, "channel-1"), new Path(UATOM, "channel-11"));
    assertOnlyTargetCleared(how, new Path(UATOM, "channel-11"), new Path(UATOM, "channel-1"));
  }

  /** A denom's reset must not touch another denom's markers on the same channel. */
  @ParameterizedTest
  @EnumSource(Clearing.class)
  void endingOneDenom_keepsAnotherDenomsMarkersOnTheSameChannel(Clearing how) {
    // look-alikes: prefix, extension by NUL (encoded 00 FF), ibc hashes sharing a prefix
    String[][] pairs = {
      {"uatom", "uatomx"},
      {"uatomx", "uatom"},
      {"uatom", "uatom\0x"},
      {"uatom\0x", "uatom"},
      {"ibc/ABC", "ibc/ABCD"},
    };
    for (String[] p : pairs) {
      assertOnlyTargetCleared(how, new Path(p[0], "channel-3"), new Path(p[1], "channel-3"));
    }
  }

  private void assertOnlyTargetCleared(Clearing how, Path target, Path other) {
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      rig.addLimit(target.denom(), target.channelOrClientId(), 50, 50, 1, 1_000);
      rig.addLimit(other.denom(), other.channelOrClientId(), 50, 50, 24, 1_000);
      rig.app.behaviour = MiddlewareRig.RecvBehaviour.ASYNC;
      Packet targetSend = rig.send(target.channelOrClientId(), target.denom(), 10);
      Packet otherSend = rig.send(other.channelOrClientId(), other.denom(), 20);
      Packet otherRecv =
          incoming(77, PEER, other.channelOrClientId(), data(PEER_PREFIX + other.denom(), 30));
      assertTrue(rig.recv(incoming(
          76, PEER, target.channelOrClientId(), data(PEER_PREFIX + target.denom(), 5))).isEmpty());
      assertTrue(rig.recv(otherRecv).isEmpty());
      assertEquals(1, rig.sendMarkers(target.denom(), target.channelOrClientId()).size());
      assertEquals(1, rig.recvMarkers(target.denom(), target.channelOrClientId()).size());
      List<PendingPacket> otherSends = rig.sendMarkers(other.denom(), other.channelOrClientId());
      List<PendingPacket> otherRecvs = rig.recvMarkers(other.denom(), other.channelOrClientId());
      assertEquals(
          List.of(new PendingPacket(
              other.channelOrClientId(), other.denom(), otherSend.sequence())),
          otherSends);
      assertEquals(
          List.of(new PendingPacket(other.channelOrClientId(), other.denom(), 77)), otherRecvs);

      clear(rig, how, target);

      assertEquals(List.of(), rig.sendMarkers(target.denom(), target.channelOrClientId()),
          how + " " + target);
      assertEquals(List.of(), rig.recvMarkers(target.denom(), target.channelOrClientId()));
      assertEquals(otherSends, rig.sendMarkers(other.denom(), other.channelOrClientId()),
          how + " " + other);
      assertEquals(otherRecvs, rig.recvMarkers(other.denom(), other.channelOrClientId()));
      assertEquals(flow(30, 20, 1_000), rig.flow(other.denom(), other.channelOrClientId()));

      // and the survivors still work: the other path's error ack and async error ack give back
      rig.ack(otherSend, Acknowledgement.error("refused"));
      rig.middleware.writeAcknowledgement(
          rig.ctx(), otherRecv, Acknowledgement.error("fwd failed"));
      assertEquals(flow(0, 0, 1_000), rig.flow(other.denom(), other.channelOrClientId()));
      // the target's stale send can no longer give anything back
      if (how != Clearing.REMOVE_MSG) {
        Flow before = rig.flow(target.denom(), target.channelOrClientId());
        rig.ack(targetSend, Acknowledgement.error("refused"));
        assertEquals(before, rig.flow(target.denom(), target.channelOrClientId()));
      }
    }
  }

  private static void clear(MiddlewareRig rig, Clearing how, Path path) {
    switch (how) {
      case RESET_MSG -> rig.router.route(rig.ctx(), Any.pack(MsgResetRateLimit.newBuilder()
          .setAuthority(AUTHORITY).setDenom(path.denom())
          .setChannelOrClientId(path.channelOrClientId()).build(), ""));
      case UPDATE_MSG -> rig.router.route(rig.ctx(), Any.pack(MsgUpdateRateLimit.newBuilder()
          .setAuthority(AUTHORITY).setDenom(path.denom())
          .setChannelOrClientId(path.channelOrClientId())
          .setMaxPercentSend("40").setMaxPercentRecv("40").setDurationHours(1).build(), ""));
      case REMOVE_MSG -> rig.router.route(rig.ctx(), Any.pack(MsgRemoveRateLimit.newBuilder()
          .setAuthority(AUTHORITY).setDenom(path.denom())
          .setChannelOrClientId(path.channelOrClientId()).build(), ""));
      case WINDOW_END -> // the target has a 1h window, the other path 24h
          rig.chain.beginBlock(Instant.parse("2024-01-01T01:00:01Z"));
    }
  }

  // ---------------------------------------------------------------- long ids

  /**
   * Go: ids were stored in fixed-width or truncated forms in places (16-byte channel ids, 64-byte
   * client ids). Pairs here share their first 16 or 64 bytes and differ after.
   */
  static Stream<Arguments> longIdPairs() {
    String x64 = "x".repeat(64);
    return Stream.of(
        Arguments.of("channel-1234567890", "channel-1234567891"), // 18 bytes, 16 shared
        Arguments.of("channel-18446744073709551615", "channel-18446744073709551614"), // uint64 max
        Arguments.of(x64 + "a-1", x64 + "b-1"), // 67-byte client ids, 64 shared
        Arguments.of(x64 + "-1", x64 + "-10"),
        Arguments.of("07-tendermint-18446744073709551615", "07-tendermint-18446744073709551614"),
        Arguments.of("c".repeat(300) + "-7", "c".repeat(300) + "-8"));
  }

  @ParameterizedTest
  @MethodSource("longIdPairs")
  void longChannelAndClientIds_workWithoutTruncationOrCollision(String first, String second) {
    String[] ids = {first, second};
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      rig.chain.channels().add(ids[0], "chain-a").add(ids[1], "chain-b");
      rig.chain.bank().set(UATOM, 1_000);
      // added through governance, as a chain would
      for (int i = 0; i < 2; i++) {
        rig.router.route(rig.ctx(), Any.pack(MsgAddRateLimit.newBuilder()
            .setAuthority(AUTHORITY).setDenom(UATOM).setChannelOrClientId(ids[i])
            .setMaxPercentSend(Integer.toString(10 + i)).setMaxPercentRecv("50")
            .setDurationHours(24).build(), ""));
      }
      Packet a = rig.send(ids[0], UATOM, 100); // exactly 10% of 1000
      Packet b = rig.send(ids[1], UATOM, 7);
      RateLimitException over =
          assertThrows(RateLimitException.class, () -> rig.send(ids[0], UATOM, 1));
      assertEquals(ErrorCode.QUOTA_EXCEEDED, over.code());

      for (int i = 0; i < 2; i++) {
        List<RateLimit> byId = rig.keeper.getRateLimitsByChannelOrClient(rig.ctx(), ids[i]);
        assertEquals(1, byId.size());
        assertEquals(ids[i], byId.get(0).path().channelOrClientId()); // not truncated
        assertEquals(10 + i, byId.get(0).quota().maxPercentSend());
      }
      assertEquals(flow(0, 100, 1_000), rig.flow(UATOM, ids[0]));
      assertEquals(flow(0, 7, 1_000), rig.flow(UATOM, ids[1]));
      assertEquals(
          List.of(new PendingPacket(ids[0], UATOM, a.sequence())), rig.sendMarkers(UATOM, ids[0]));
      assertEquals(
          List.of(new PendingPacket(ids[1], UATOM, b.sequence())), rig.sendMarkers(UATOM, ids[1]));
      assertEquals(List.of(new Path(UATOM, ids[0])), rig.keeper
          .getRateLimitsByChainId(rig.ctx(), "chain-a").stream().map(RateLimit::path).toList());
      assertEquals(List.of(new Path(UATOM, ids[1])), rig.keeper
          .getRateLimitsByChainId(rig.ctx(), "chain-b").stream().map(RateLimit::path).toList());

      // the export round-trips exactly, through JSON, into a fresh store (epoch 0 means "not
      // initialised" on the wire, SPEC §4, so the epoch is not compared)
      Genesis exported = rig.keeper.exportGenesis(rig.ctx());
      Genesis reimported = GenesisCodec.fromJson(GenesisCodec.toJson(exported)).genesis();
      assertEquals(digestOf(exported), digestOf(reimported));
      try (MiddlewareRig copy = new MiddlewareRig(GENESIS, reimported)) {
        assertEquals(digestOfModule(rig), digestOfModule(copy));
      }

      // settling one id never touches the other
      rig.ack(a, Acknowledgement.error("refused"));
      assertEquals(flow(0, 0, 1_000), rig.flow(UATOM, ids[0]));
      assertEquals(flow(0, 7, 1_000), rig.flow(UATOM, ids[1]));
      assertEquals(1, rig.sendMarkers(UATOM, ids[1]).size());
    }
  }

  private static List<Object> digestOfModule(MiddlewareRig rig) {
    return digestOf(rig.keeper.exportGenesis(rig.ctx()));
  }

  private static List<Object> digestOf(Genesis g) {
    return List.of(g.rateLimits(), g.pendingSendPackets(), g.pendingRecvPackets());
  }

  // ---------------------------------------------------------------- update and remove

  /** ibc-go#8991 (open upstream): a pre-update packet gave capacity back after an update. */
  @Test
  void update_clearsMarkers_soAPreUpdatePacketCannotGiveBackCapacity() {
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      rig.addLimit(UATOM, "channel-0", 10, 10, 24, 1_000);
      rig.app.behaviour = MiddlewareRig.RecvBehaviour.ASYNC;
      Packet oldSend = rig.send("channel-0", UATOM, 60);
      Packet oldRecv = incoming(5, PEER, "channel-0", data(PEER_PREFIX + UATOM, 40));
      assertTrue(rig.recv(oldRecv).isEmpty());
      assertEquals(flow(40, 60, 1_000), rig.flow(UATOM, "channel-0"));

      rig.chain.bank().set(UATOM, 2_000);
      clear(rig, Clearing.UPDATE_MSG, new Path(UATOM, "channel-0"));
      assertEquals(new Quota(40, 40, 1), rig.keeper.getRateLimit(
          rig.ctx(), new Path(UATOM, "channel-0")).orElseThrow().quota());
      assertEquals(flow(0, 0, 2_000), rig.flow(UATOM, "channel-0"));
      assertEquals(List.of(), rig.sendMarkers(UATOM, "channel-0"));
      assertEquals(List.of(), rig.recvMarkers(UATOM, "channel-0"));

      rig.send("channel-0", UATOM, 25);
      assertTrue(rig.recv(incoming(6, PEER, "channel-0", data(PEER_PREFIX + UATOM, 15))).isEmpty());
      rig.ack(oldSend, Acknowledgement.error("refused"));
      rig.timeout(oldSend);
      rig.middleware.writeAcknowledgement(rig.ctx(), oldRecv, Acknowledgement.error("failed"));
      assertEquals(flow(15, 25, 2_000), rig.flow(UATOM, "channel-0"));
      // the app still got the callbacks and IBC core the ack
      assertEquals(List.of(oldSend), rig.app.acked);
      assertEquals(List.of(oldSend), rig.app.timedOut);
      assertEquals(List.of(oldRecv), rig.downstream.ackedPackets);
    }
  }

  /** Go: Remove left the markers behind; a re-added limit then took their give-backs. */
  @Test
  void remove_clearsMarkers_soAReAddedLimitIsNotCreditedByOldPackets() {
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      rig.addLimit(UATOM, "channel-0", 10, 10, 24, 1_000);
      rig.app.behaviour = MiddlewareRig.RecvBehaviour.ASYNC;
      Packet oldSend = rig.send("channel-0", UATOM, 60);
      Packet oldRecv = incoming(5, PEER, "channel-0", data(PEER_PREFIX + UATOM, 40));
      rig.recv(oldRecv);
      clear(rig, Clearing.REMOVE_MSG, new Path(UATOM, "channel-0"));
      assertEquals(List.of(), rig.keeper.getAllPendingSendPackets(rig.ctx()));
      assertEquals(List.of(), rig.keeper.getAllPendingRecvPackets(rig.ctx()));

      rig.keeper.addRateLimit(rig.ctx(), new Path(UATOM, "channel-0"), new Quota(10, 10, 24));
      rig.send("channel-0", UATOM, 30);
      rig.ack(oldSend, Acknowledgement.error("refused"));
      rig.middleware.writeAcknowledgement(rig.ctx(), oldRecv, Acknowledgement.error("failed"));
      assertEquals(flow(0, 30, 1_000), rig.flow(UATOM, "channel-0"));
    }
  }

  // ---------------------------------------------------------------- undo clamps

  /**
   * Go: {@code outflow -= amount} without a floor could go negative (and then be exported). A
   * genesis with a marker and a smaller flow (what a Go chain can export) is the honest way in.
   */
  @Test
  void undo_clampsAtZero_neverNegative() {
    Path path = new Path(UATOM, "channel-0");
    Genesis g = new Genesis(
        List.of(new RateLimit(path, new Quota(10, 10, 24), flow(5, 5, 1_000))),
        List.of(), List.of(),
        List.of(new PendingPacket("channel-0", UATOM, 7)),
        List.of(new PendingPacket("channel-0", UATOM, 8)),
        Optional.empty());
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS, g)) {
      Packet sent = MiddlewareRig.sentPacket(7, "channel-0", data(UATOM, 100));
      rig.ack(sent, Acknowledgement.error("refused"));
      assertEquals(flow(5, 0, 1_000), rig.flow(UATOM, "channel-0"));
      Packet received = incoming(8, PEER, "channel-0", data(PEER_PREFIX + UATOM, 100));
      rig.middleware.writeAcknowledgement(rig.ctx(), received, Acknowledgement.error("failed"));
      assertEquals(flow(0, 0, 1_000), rig.flow(UATOM, "channel-0"));
      assertEquals(List.of(), rig.keeper.getAllPendingSendPackets(rig.ctx()));
      assertEquals(List.of(), rig.keeper.getAllPendingRecvPackets(rig.ctx()));
    }
    // and the negative flows an unclamped Go chain exports are clamped on import, with a warning
    String json = GenesisCodec.toJson(g)
        .replace("\"inflow\": \"5\"", "\"inflow\": \"-5\"")
        .replace("\"outflow\": \"5\"", "\"outflow\": \"-3\"");
    assertTrue(json.contains("\"-5\"") && json.contains("\"-3\""), json);
    GenesisCodec.Decoded d = GenesisCodec.fromJson(json);
    assertEquals(flow(0, 0, 1_000), d.genesis().rateLimits().get(0).flow());
    assertEquals(2, d.warnings().size(), d.warnings().toString());
  }

  // ---------------------------------------------------------------- acknowledgements

  static Stream<byte[]> malformedAcks() {
    List<byte[]> acks = new ArrayList<>();
    for (String s : List.of(
        "", " ", "not json", "null", "[]", "\"error\"", "{}", "{\"result\":\"\"}",
        "{\"result\":1}", "{\"result\":null}", "{\"error\":null}", "{\"error\":1}",
        "{\"error\":{}}", "{\"result\":\"AQ==\",\"error\":\"x\"}", "{\"result\":\"AQ==\"} x",
        "{\"result\":\"AQ==\",\"result\":\"AQ==\"}", "{\"Result\":\"AQ==\"}",
        "{\"result\":\"AQ==\",\"extra\":1}", "{\"result\":\"!!!\"}", "{\"error\":\"x\"",
        "{\"result\":\"AQ==\"}\u0000", "\uFEFF{\"result\":\"AQ==\"}")) {
      acks.add(s.getBytes(StandardCharsets.UTF_8));
    }
    acks.add(new byte[] {(byte) 0xff, (byte) 0xfe, '{', '}'});
    acks.add(new byte[] {'{', '"', 'e', 'r', 'r', 'o', 'r', '"', ':', '"', (byte) 0xc3, '"', '}'});
    acks.add(new byte[32]); // 32 zero bytes: not the universal error ack
    byte[] universalPlusOne = Arrays.copyOf(universalErrorAck(), 33);
    acks.add(universalPlusOne);
    acks.add(Arrays.copyOf(universalErrorAck(), 31));
    acks.add(("{\"result\":\"" + "A".repeat(100_000) + "\"").getBytes(StandardCharsets.UTF_8));
    acks.add(("[".repeat(100_000)).getBytes(StandardCharsets.UTF_8));
    acks.add(null);
    return acks.stream();
  }

  /** Go (A): a bad ack failed the relayer's transaction, stranding the refund. */
  @ParameterizedTest
  @MethodSource("malformedAcks")
  void malformedAck_neverFailsTheCallback_changesNoFlow_andTheAppStillGetsIt(byte[] ack) {
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      rig.addLimit(UATOM, "channel-0", 10, 10, 24, 1_000);
      Packet sent = rig.send("channel-0", UATOM, 60);
      String before = rig.digest();
      assertDoesNotThrow(() -> rig.ack(sent, ack));
      assertEquals(before, rig.digest());
      assertEquals(flow(0, 60, 1_000), rig.flow(UATOM, "channel-0"));
      assertEquals(1, rig.sendMarkers(UATOM, "channel-0").size());
      assertEquals(List.of(sent), rig.app.acked);
      assertArrayEquals(ack, rig.app.acks.get(0));
      List<Event> invalid = rig.events(RateLimitEvents.INVALID_PACKET);
      assertEquals(1, invalid.size());
      assertEquals(Optional.of("14"), invalid.get(0).attribute("code"));
      assertEquals(AcknowledgementCodec.AckClass.MALFORMED, AcknowledgementCodec.classify(ack));
    }
  }

  @Test
  void ackWithUndecodablePacketData_neverFails_andTheAppStillGetsIt() {
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      rig.addLimit(UATOM, "channel-0", 10, 10, 24, 1_000);
      rig.send("channel-0", UATOM, 60);
      for (byte[] bad : List.of(
          "garbage".getBytes(StandardCharsets.UTF_8), new byte[0],
          "{\"denom\":\"uatom\",\"amount\":\"-60\",\"sender\":\"a\",\"receiver\":\"b\"}"
              .getBytes(StandardCharsets.UTF_8))) {
        Packet p = MiddlewareRig.sentPacket(1, "channel-0", bad);
        String before = rig.digest();
        assertDoesNotThrow(() -> rig.ack(p, Acknowledgement.error("x")));
        assertDoesNotThrow(() -> rig.timeout(p));
        assertEquals(before, rig.digest());
      }
      assertEquals(3, rig.app.acked.size());
      assertEquals(3, rig.app.timedOut.size());
      assertEquals(flow(0, 60, 1_000), rig.flow(UATOM, "channel-0"));
    }
  }

  /** An {@code error} field with any string, even empty, is an error (and undoes). */
  @Test
  void errorAckWithEmptyText_isAnError_andUndoes() {
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      rig.addLimit(UATOM, "channel-0", 10, 10, 24, 1_000);
      Packet sent = rig.send("channel-0", UATOM, 60);
      rig.ack(sent, "{\"error\":\"\"}".getBytes(StandardCharsets.UTF_8));
      assertEquals(flow(0, 0, 1_000), rig.flow(UATOM, "channel-0"));
    }
  }

  /** ibc-apps (A) did not know IBC v2's universal error ack and treated it as malformed. */
  @Test
  void universalErrorAck_undoesTheSend() {
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      rig.addLimit(UATOM, "channel-0", 10, 10, 24, 1_000);
      Packet sent = rig.send("channel-0", UATOM, 60);
      Packet kept = rig.send("channel-0", UATOM, 30);
      rig.ack(sent, universalErrorAck());
      assertEquals(flow(0, 30, 1_000), rig.flow(UATOM, "channel-0"));
      assertEquals(
          List.of(new PendingPacket("channel-0", UATOM, kept.sequence())),
          rig.sendMarkers(UATOM, "channel-0"));
      assertArrayEquals(universalErrorAck(), rig.app.acks.get(0));
      assertEquals(List.of(), rig.events(RateLimitEvents.INVALID_PACKET));
    }
  }

  static byte[] universalErrorAck() {
    try {
      return MessageDigest.getInstance("SHA-256")
          .digest("UNIVERSAL_ERROR_ACKNOWLEDGEMENT".getBytes(StandardCharsets.US_ASCII));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  // ---------------------------------------------------------------- epoch

  /** Go: a missing epoch made BeginBlock panic (halting the chain). */
  @Test
  void missingEpoch_isErrorCode13_neverACrash() {
    try (MiddlewareRig rig = new MiddlewareRig(new MemoryKvStore(), GENESIS, Optional.empty())) {
      assertTrue(rig.keeper.getHourEpoch(rig.ctx()).isEmpty());
      rig.chain.channels().add("channel-0", "peer");
      rig.chain.bank().set(UATOM, 1_000);
      rig.keeper.addRateLimit(rig.ctx(), new Path(UATOM, "channel-0"), new Quota(10, 10, 1));
      String before = rig.digest();
      RateLimitException e =
          assertThrows(
              RateLimitException.class, () -> rig.chain.beginBlock(GENESIS.plusSeconds(5)));
      assertEquals(ErrorCode.HOUR_EPOCH_INVALID, e.code());
      RateLimitException q = assertThrows(RateLimitException.class,
          () -> rig.keeper.remainingCapacity(rig.ctx(), new Path(UATOM, "channel-0")));
      assertEquals(ErrorCode.HOUR_EPOCH_INVALID, q.code());
      assertEquals(before, rig.digest());
      // packets still work: the rejection just cannot say when the window resets
      rig.send("channel-0", UATOM, 100);
      RateLimitException over =
          assertThrows(RateLimitException.class, () -> rig.send("channel-0", UATOM, 1));
      assertEquals(ErrorCode.QUOTA_EXCEEDED, over.code());
    }
  }

  // ---------------------------------------------------------------- zero channel value

  /**
   * SPEC §4 (fix over A): a reset that finds zero supply keeps the last channel value (and says
   * so in an event); A opened an unlimited window, so a compromised counterparty could mint at
   * will.
   */
  @Test
  void resetFindingZeroSupply_keepsTheLastChannelValue() {
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      rig.addLimit(UATOM, "channel-0", 10, 10, 1, 1_000);
      rig.send("channel-0", UATOM, 90);
      rig.chain.bank().set(UATOM, 0); // every voucher went home
      rig.chain.beginBlock(Instant.parse("2024-01-01T01:00:01Z"));
      assertEquals(flow(0, 0, 1_000), rig.flow(UATOM, "channel-0"));
      List<Event> kept = rig.events(RateLimitEvents.CHANNEL_VALUE_KEPT);
      assertEquals(1, kept.size());
      assertEquals(Optional.of("1000"), kept.get(0).attribute("channel_value"));
      assertEquals(Optional.of(UATOM), kept.get(0).attribute("denom"));
      // still limited: 10% of 1000
      assertEquals(
          Optional.of(Acknowledgement.rateLimitError(ErrorCode.QUOTA_EXCEEDED)),
          rig.recv(incoming(2, PEER, "channel-0", data(PEER_PREFIX + UATOM, 101))));
      assertTrue(rig.recv(incoming(3, PEER, "channel-0", data(PEER_PREFIX + UATOM, 100)))
          .orElseThrow().isSuccess());

      // the same rule for the Update and Reset messages
      clear(rig, Clearing.RESET_MSG, new Path(UATOM, "channel-0"));
      assertEquals(flow(0, 0, 1_000), rig.flow(UATOM, "channel-0"));
      clear(rig, Clearing.UPDATE_MSG, new Path(UATOM, "channel-0"));
      assertEquals(flow(0, 0, 1_000), rig.flow(UATOM, "channel-0"));
      assertEquals(3, rig.events(RateLimitEvents.CHANNEL_VALUE_KEPT).size());

      // supply back: the next reset takes it
      rig.chain.bank().set(UATOM, 50);
      rig.chain.beginBlock(Instant.parse("2024-01-01T02:00:01Z"));
      assertEquals(flow(0, 0, 50), rig.flow(UATOM, "channel-0"));
    }
  }

  /**
   * A zero channel value can only come from genesis (Add refuses zero supply with code 3), and
   * then never limits (like A); a reset at zero supply keeps it at zero; supply lets it limit.
   */
  @Test
  void zeroChannelValueFromGenesis_neverLimits_andAddRefusesZeroSupply() {
    Path path = new Path(UATOM, "channel-0");
    Genesis g = new Genesis(List.of(new RateLimit(path, new Quota(1, 1, 1), flow(0, 0, 0))),
        List.of(), List.of(), List.of(), List.of(), Optional.empty());
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS, g)) {
      rig.chain.channels().add("channel-0", "peer").add("channel-1", "peer");
      BigInteger huge = BigInteger.ONE.shiftLeft(255);
      rig.middleware.sendPacket(rig.ctx(), "transfer", "channel-0",
          Height.ZERO, MiddlewareRig.TIMEOUT,
          PacketDataCodec.encode(
              new FungibleTokenPacketData(
                  UATOM, huge, "a", "b")));
      assertTrue(rig.recv(incoming(1, PEER, "channel-0", data(PEER_PREFIX + UATOM, 1_000_000)))
          .orElseThrow().isSuccess());
      assertEquals(new Flow(BigInteger.valueOf(1_000_000), huge, BigInteger.ZERO),
          rig.flow(UATOM, "channel-0"));
      assertTrue(rig.keeper.remainingCapacity(rig.ctx(), path).send().remaining().isEmpty());

      rig.chain.beginBlock(Instant.parse("2024-01-01T01:00:01Z")); // supply still 0
      assertEquals(flow(0, 0, 0), rig.flow(UATOM, "channel-0"));
      rig.send("channel-0", UATOM, 5_000_000);

      rig.chain.bank().set(UATOM, 1_000);
      rig.chain.beginBlock(Instant.parse("2024-01-01T02:00:01Z"));
      assertEquals(flow(0, 0, 1_000), rig.flow(UATOM, "channel-0"));
      assertEquals(ErrorCode.QUOTA_EXCEEDED,
          assertThrows(RateLimitException.class, () -> rig.send("channel-0", UATOM, 11)).code());

      rig.chain.bank().set("uzero", 0);
      RateLimitException add = assertThrows(RateLimitException.class,
          () -> rig.keeper.addRateLimit(rig.ctx(), new Path("uzero", "channel-1"),
              new Quota(10, 10, 1)));
      assertEquals(ErrorCode.ZERO_CHANNEL_VALUE, add.code());
    }
  }

  // ---------------------------------------------------------------- denom resolution

  /**
   * Osmosis's contract matched the source prefix without the trailing {@code /}: a sink denom
   * {@code transfer/channel-10/uatom} arriving from {@code channel-1} was taken for a returning
   * token.
   */
  @Test
  void sinkDenomFromChannel1_withTraceStartingChannel10_isNotTakenForTheSourceCase() {
    String ours = "channel-7";
    String sinkDenom = new DenomTrace(List.of(
        new Hop("transfer", ours),
        new Hop("transfer", "channel-10")), UATOM).ibcDenom();
    String wrongSource = new DenomTrace(List.of(), "0/uatom").ibcDenom(); // "0/uatom" as is
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      rig.addLimit(sinkDenom, ours, 10, 10, 24, 1_000);
      rig.addLimit(UATOM, ours, 10, 10, 24, 1_000);
      rig.addLimit(wrongSource, ours, 10, 10, 24, 1_000);
      Packet p = incoming(1, "channel-1", ours, data("transfer/channel-10/uatom", 50));
      assertEquals(sinkDenom, DenomResolver.recvDenom(p, "transfer/channel-10/uatom").localDenom());
      assertFalse(DenomResolver.recvDenom(p, "transfer/channel-10/uatom").source());
      assertTrue(rig.recv(p).orElseThrow().isSuccess());
      assertEquals(flow(50, 0, 1_000), rig.flow(sinkDenom, ours));
      assertEquals(flow(0, 0, 1_000), rig.flow(UATOM, ours));
      assertEquals(flow(0, 0, 1_000), rig.flow(wrongSource, ours));
      // control: the same token really coming back on channel-1 is the source case
      Packet back = incoming(2, "channel-1", ours, data("transfer/channel-1/uatom", 20));
      assertTrue(rig.recv(back).orElseThrow().isSuccess());
      assertEquals(flow(20, 0, 1_000), rig.flow(UATOM, ours));
      assertNotEquals(sinkDenom, UATOM);
    }
  }

  // ---------------------------------------------------------------- async acks

  /**
   * An app below the middleware that acks later (packet forwarding) writes its ack through the
   * middleware, which settles the recv marker: an error gives the inflow back, a success keeps
   * it; the ack always reaches IBC core. A (before the fix) never removed these markers.
   */
  @Test
  void asyncAckWrittenLater_goesThroughTheMiddleware_andSettlesTheRecvMarker() {
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      rig.addLimit(UATOM, "channel-0", 10, 10, 24, 1_000);
      rig.app.behaviour = MiddlewareRig.RecvBehaviour.ASYNC;
      Packet failing = incoming(1, PEER, "channel-0", data(PEER_PREFIX + UATOM, 60));
      Packet succeeding = incoming(2, PEER, "channel-0", data(PEER_PREFIX + UATOM, 30));
      assertTrue(rig.recv(failing).isEmpty());
      assertTrue(rig.recv(succeeding).isEmpty());
      assertEquals(flow(90, 0, 1_000), rig.flow(UATOM, "channel-0"));
      assertEquals(2, rig.recvMarkers(UATOM, "channel-0").size());
      assertEquals(List.of(), rig.downstream.writtenAcks); // nothing acked yet

      // the forwarding app (whose ICS4 wrapper is the middleware) writes the outcomes later
      rig.chain.nextBlock(Duration.ofSeconds(30));
      rig.middleware.writeAcknowledgement(rig.ctx(), failing, Acknowledgement.error("hop failed"));
      rig.middleware.writeAcknowledgement(rig.ctx(), succeeding, Acknowledgement.SUCCESS);
      assertEquals(flow(30, 0, 1_000), rig.flow(UATOM, "channel-0"));
      assertEquals(List.of(), rig.recvMarkers(UATOM, "channel-0"));
      assertEquals(List.of(failing, succeeding), rig.downstream.ackedPackets);
      assertEquals(
          List.of(Acknowledgement.error("hop failed"), Acknowledgement.SUCCESS),
          rig.downstream.writtenAcks);
      // a missing ack counts as an error and is forwarded (SPEC §5); IBC core refuses it, which
      // rolls the call back
      assertThrows(IllegalArgumentException.class,
          () -> rig.middleware.writeAcknowledgement(rig.ctx(), failing, null));
      assertEquals(flow(30, 0, 1_000), rig.flow(UATOM, "channel-0"));
    }
  }

  // ---------------------------------------------------------------- halts

  /**
   * Go (A): one epoch per block, so after an H-hour halt every 1h limit got a fresh window on each
   * of the first H blocks. Here the first block after the halt advances all missed hours and
   * resets each limit at most once; the next blocks reset nothing until the next boundary.
   */
  @Test
  void afterAMultiHourHalt_eachLimitResetsOnce_notOncePerMissedHour() {
    long[] durations = {1, 2, 3, 5, 6, 24};
    try (MiddlewareRig rig = new MiddlewareRig(GENESIS)) {
      for (int i = 0; i < durations.length; i++) {
        rig.addLimit(UATOM, "channel-" + i, 50, 50, durations[i], 1_000);
      }
      for (int i = 0; i < durations.length; i++) {
        rig.send("channel-" + i, UATOM, 100);
      }
      rig.chain.bank().set(UATOM, 2_000); // each reset is visible in the channel value
      // halted from 00:30 to 05:10: epochs 1..5 missed
      rig.chain.beginBlock(Instant.parse("2024-01-01T05:10:00Z"));
      long haltHeight = rig.chain.height();
      HourEpoch e = rig.keeper.getHourEpoch(rig.ctx()).orElseThrow();
      assertEquals(new HourEpoch(5, Instant.parse("2024-01-01T05:00:00Z"), haltHeight), e);
      for (int i = 0; i < durations.length; i++) {
        boolean resets = 5 / durations[i] > 0; // floor((0 + 5) / d) > floor(0 / d)
        assertEquals(resets ? flow(0, 0, 2_000) : flow(0, 100, 1_000),
            rig.flow(UATOM, "channel-" + i), "duration " + durations[i]);
      }
      // traffic right after the restart, then more blocks in the same hour: no further reset
      for (int i = 0; i < durations.length; i++) {
        rig.send("channel-" + i, UATOM, 7);
      }
      rig.chain.bank().set(UATOM, 3_000);
      List<Flow> afterRestart = new ArrayList<>();
      for (int i = 0; i < durations.length; i++) {
        afterRestart.add(rig.flow(UATOM, "channel-" + i));
      }
      Instant t = Instant.parse("2024-01-01T05:10:00Z");
      for (int b = 0; b < 20; b++) {
        t = t.plusSeconds(5);
        rig.chain.beginBlock(t);
        for (int i = 0; i < durations.length; i++) {
          assertEquals(afterRestart.get(i), rig.flow(UATOM, "channel-" + i), "block " + b);
        }
      }
      assertEquals(e, rig.keeper.getHourEpoch(rig.ctx()).orElseThrow());
      // the next boundary (06:00) ends the 1h, 2h, 3h and 6h windows once more
      rig.chain.beginBlock(Instant.parse("2024-01-01T06:00:00.000000001Z"));
      for (int i = 0; i < durations.length; i++) {
        boolean resets = 6 / durations[i] > 5 / durations[i];
        assertEquals(resets ? flow(0, 0, 3_000) : afterRestart.get(i),
            rig.flow(UATOM, "channel-" + i), "duration " + durations[i]);
      }
    }
  }
}
