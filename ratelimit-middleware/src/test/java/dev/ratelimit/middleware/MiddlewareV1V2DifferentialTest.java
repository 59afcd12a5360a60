package dev.ratelimit.middleware;

import static dev.ratelimit.middleware.MiddlewareHarness.PORT;
import static dev.ratelimit.middleware.MiddlewareHarness.RELAYER;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Sha256;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import dev.ratelimit.middleware.ibc.v2.Payload;
import dev.ratelimit.middleware.ibc.v2.RecvPacketResult;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.Ics20PayloadCodec;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * IBC v2 is IBC v1 on client ids: the same seeded traffic (sends, receives the app accepts, fails
 * or acknowledges later, acks of every class, timeouts, async acks, BeginBlocks across hours)
 * through {@link RateLimitMiddleware} on one chain and {@link RateLimitMiddlewareV2} on another
 * (its payloads in any of the three encodings)
 * must leave the same store, byte for byte, and the same events after every step, with the same
 * refusals.
 */
class MiddlewareV1V2DifferentialTest {
  private static final Instant GENESIS = Instant.parse("2024-01-01T05:10:00Z");
  private static final String OURS = "07-tendermint-0";
  private static final String THEIRS = "08-wasm-4";
  private static final String[] SENT_DENOMS = {"ustrd", "transfer/" + OURS + "/uosmo", "uatom"};
  private static final String[] RECEIVED_DENOMS = {"uosmo", "transfer/" + THEIRS + "/ustrd"};
  private static final String[] ENCODINGS = {"", Ics20PayloadCodec.ENCODING_JSON,
    Ics20PayloadCodec.ENCODING_PROTOBUF, Ics20PayloadCodec.ENCODING_ABI};
  private static final byte[][] ACKS = {
    "{\"result\":\"AQ==\"}".getBytes(StandardCharsets.UTF_8),
    "{\"error\":\"refused\"}".getBytes(StandardCharsets.UTF_8),
    Sha256.hash("UNIVERSAL_ERROR_ACKNOWLEDGEMENT".getBytes(StandardCharsets.US_ASCII)),
    "done".getBytes(StandardCharsets.UTF_8),
  };

  private enum Outcome { SUCCESS, FAILURE, ASYNC }

  private record InFlight(long sequence, FungibleTokenPacketData data, Payload payload) {}

  private final MiddlewareHarness v1 = MiddlewareHarness.inMemory(GENESIS);
  private final MiddlewareHarness v2chain = MiddlewareHarness.inMemory(GENESIS);
  private final IbcModule app2 = mock(IbcModule.class);
  private final Map<Long, Payload> asyncOnV2 = new HashMap<>();
  private final RateLimitMiddlewareV2 v2 = new RateLimitMiddlewareV2(v2chain.keeper, () -> app2,
      (ctx, client, seq, ack) -> { }, (ctx, client, seq) -> Optional.ofNullable(asyncOnV2.get(seq))
          .map(p -> new dev.ratelimit.middleware.ibc.v2.Packet(seq, THEIRS, OURS, 0, List.of(p))));
  private final List<InFlight> sent = new ArrayList<>();
  private final List<InFlight> asyncRecvs = new ArrayList<>();
  private Outcome outcome = Outcome.SUCCESS;
  private long sendSequence = 1;
  private long recvSequence = 1;

  @AfterEach
  void close() {
    v1.close();
    v2chain.close();
  }

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
  void theSameTrafficLeavesTheSameStoreAndEvents(long seed) {
    Random r = new Random(seed);
    for (MiddlewareHarness h : List.of(v1, v2chain)) {
      h.addLimit("ustrd", OURS, 10, 20, 1, 10_000);
      h.addLimit(MiddlewareHarness.ibcHash("transfer/" + OURS + "/uosmo"), OURS, 30, 5, 3, 2_000);
      h.keeper.setWhitelistedAddressPair(h.ctx(),
          new WhitelistedAddressPair(MiddlewareHarness.ALICE, "osmo1whitelisted"));
    }
    when(v1.app.onRecvPacket(any(), any(), any())).thenAnswer(inv -> switch (outcome) {
      case SUCCESS -> Optional.of(Acknowledgement.SUCCESS);
      case FAILURE -> Optional.of(Acknowledgement.error("app refused"));
      case ASYNC -> Optional.empty();
    });
    when(app2.onRecvPacket(any(), anyString(), anyString(), anyLong(), any(), anyString()))
        .thenAnswer(inv -> switch (outcome) {
          case SUCCESS -> RecvPacketResult.success(Acknowledgement.SUCCESS.toJsonBytes());
          case FAILURE -> RecvPacketResult.failure(
              Acknowledgement.error("app refused").toJsonBytes());
          case ASYNC -> RecvPacketResult.async();
        });

    for (int step = 0; step < 120; step++) {
      String what = step(r);
      assertEquals(v1.digest(), v2chain.digest(), () -> "store after " + what);
      assertEquals(v1.chain.events().events(), v2chain.chain.events().events(),
          () -> "events after " + what);
    }
  }

  private String step(Random r) {
    int pick = r.nextInt(10);
    if (pick < 3) {
      FungibleTokenPacketData d = data(SENT_DENOMS[r.nextInt(SENT_DENOMS.length)], r);
      Payload p = payload(d, r);
      Optional<Integer> code1 = code(() -> v1.send(OURS, PacketDataCodec.encode(d)));
      Optional<Integer> code2 = code(() -> v2.onSendPacket(
          v2chain.ctx(), OURS, THEIRS, sendSequence, p, d.sender()));
      assertEquals(code1, code2, () -> "send " + d);
      if (code1.isEmpty()) {
        sent.add(new InFlight(sendSequence++, d, p));
      }
      return "send " + d;
    }
    if (pick < 6) {
      FungibleTokenPacketData d = data(RECEIVED_DENOMS[r.nextInt(RECEIVED_DENOMS.length)], r);
      outcome = Outcome.values()[r.nextInt(3)];
      long seq = recvSequence++;
      Optional<Acknowledgement> a1 = v1.middleware.onRecvPacket(v1.ctx(),
          MiddlewareHarness.incoming(seq, THEIRS, OURS, PacketDataCodec.encode(d)), RELAYER);
      Payload p = payload(d, r);
      RecvPacketResult a2 = v2.onRecvPacket(v2chain.ctx(), THEIRS, OURS, seq, p, RELAYER);
      assertArrayEquals(a1.map(Acknowledgement::toJsonBytes).orElse(new byte[0]),
          a2.acknowledgement(), () -> "recv " + d);
      if (a1.isEmpty()) {
        asyncRecvs.add(new InFlight(seq, d, p));
        asyncOnV2.put(seq, p);
      }
      return "recv " + d + " " + outcome;
    }
    if (pick < 8 && !sent.isEmpty()) {
      InFlight f = sent.remove(r.nextInt(sent.size()));
      Packet p = MiddlewareHarness.outgoing(f.sequence(), OURS, THEIRS,
          PacketDataCodec.encode(f.data()));
      if (r.nextInt(4) == 0) {
        v1.middleware.onTimeoutPacket(v1.ctx(), p, RELAYER);
        v2.onTimeoutPacket(v2chain.ctx(), OURS, THEIRS, f.sequence(), f.payload(), RELAYER);
        return "timeout " + f;
      }
      byte[] ack = ACKS[r.nextInt(ACKS.length)];
      v1.middleware.onAcknowledgementPacket(v1.ctx(), p, ack, RELAYER);
      v2.onAcknowledgementPacket(
          v2chain.ctx(), OURS, THEIRS, f.sequence(), ack, f.payload(), RELAYER);
      return "ack " + f + " " + new String(ack, StandardCharsets.UTF_8);
    }
    if (pick < 9 && !asyncRecvs.isEmpty()) {
      InFlight f = asyncRecvs.remove(r.nextInt(asyncRecvs.size()));
      boolean success = r.nextBoolean();
      v1.middleware.writeAcknowledgement(v1.ctx(),
          MiddlewareHarness.incoming(f.sequence(), THEIRS, OURS, PacketDataCodec.encode(f.data())),
          success ? Acknowledgement.SUCCESS : Acknowledgement.error("forward failed"));
      // IBC v2 fails a receive with the universal error acknowledgement alone
      v2.writeAcknowledgement(v2chain.ctx(), OURS, f.sequence(), success
          ? new dev.ratelimit.middleware.ibc.v2.Acknowledgement(
              List.of(Acknowledgement.SUCCESS.toJsonBytes()))
          : dev.ratelimit.middleware.ibc.v2.Acknowledgement.universalError());
      asyncOnV2.remove(f.sequence());
      return "async ack " + f + " " + success;
    }
    Duration after = Duration.ofMinutes(1 + r.nextInt(150));
    Instant next = v1.chain.time().plus(after);
    v1.chain.beginBlock(next);
    v2chain.chain.beginBlock(next);
    return "begin block " + next;
  }

  /** Amounts around the quotas (10 % of 10,000 is 1,000; 5 % of 2,000 is 100). */
  private static FungibleTokenPacketData data(String denom, Random r) {
    long amount = switch (r.nextInt(4)) {
      case 0 -> 1 + r.nextInt(100);
      case 1 -> 90 + r.nextInt(20);
      case 2 -> 300 + r.nextInt(800);
      default -> 950 + r.nextInt(100);
    };
    String receiver = r.nextInt(8) == 0 ? "osmo1whitelisted" : "osmo1bob";
    return new FungibleTokenPacketData(
        denom, BigInteger.valueOf(amount), MiddlewareHarness.ALICE, receiver);
  }

  /** The packet data as a payload in one of ibc-go's encodings: each must count the same. */
  private static Payload payload(FungibleTokenPacketData d, Random r) {
    String encoding = ENCODINGS[r.nextInt(ENCODINGS.length)];
    byte[] value = Ics20PayloadCodec.encode(
        d, encoding.isEmpty() ? Ics20PayloadCodec.ENCODING_JSON : encoding); // "" is read as JSON
    return new Payload(PORT, PORT, Ics20PayloadCodec.VERSION, encoding, value);
  }

  /** The refusal's code, or empty when the call went through. */
  private static Optional<Integer> code(Runnable call) {
    try {
      call.run();
      return Optional.empty();
    } catch (RateLimitException e) {
      return Optional.of(e.code().code());
    }
  }
}
