package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.testing.TestChain;
import dev.ratelimit.middleware.RateLimitMiddlewareV2;
import dev.ratelimit.middleware.ibc.v2.IbcModule;
import dev.ratelimit.middleware.ibc.v2.PacketStatus;
import dev.ratelimit.middleware.ibc.v2.Payload;
import dev.ratelimit.middleware.ibc.v2.RecvPacketResult;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * One IBC v2 send or receive (SPEC §10) of a fuzzed payload (version, encoding, value, ports) on
 * fuzzed client ids and sequence, through {@link RateLimitMiddlewareV2} on a chain with limits of
 * 10 % of 1,000 on our client: the outcome against SPEC §2-§5 on the payload as {@link
 * Ics20PayloadFuzzTest#expectedDecode} reads it. A refused send throws a {@link
 * RateLimitException} with the spec's code and a bounded reason, writes nothing and never reaches
 * the app; a refused receive answers {@code FAILURE} with ibc-go's rate-limit error
 * acknowledgement bytes, writes nothing and never reaches the app; either emits its one event
 * (denied, or invalid with the code). Otherwise the app's answer is returned and the flow and
 * pending marker are as the spec says (the app's writes kept, or gone with a {@code FAILURE}).
 */
class MiddlewareV2FuzzTest {
  private static final Instant BLOCK_TIME = Instant.parse("2024-01-05T04:30:00Z");
  /** Our client of the counterparty, and theirs of us. */
  private static final String OURS = "07-tendermint-0";
  private static final String THEIRS = "08-wasm-3";
  private static final String PROTO = Ics20PayloadFuzzTest.PROTO;
  private static final String ABI = Ics20PayloadFuzzTest.ABI;
  private static final String JSON = Ics20PayloadFuzzTest.JSON;
  private static final byte[] PREFIX = "ratelimit/".getBytes(StandardCharsets.US_ASCII);
  private static final String[] IDS = {OURS, THEIRS, "channel-0", "09-localhost"};
  private static final long[] SEQUENCES = {1, 2, 0};
  private static final String VOUCHER = DenomFuzzTest.ibcHash("transfer/" + OURS + "/uosmo");
  private static final BigInteger VALUE = BigInteger.valueOf(1_000);
  private static final BigInteger ROOM = BigInteger.valueOf(100); // 10 % of the value

  private static final List<RateLimit> LIMITS = List.of(
      new RateLimit(new Path("uatom", OURS), new Quota(10, 10, 24),
          new Flow(BigInteger.ZERO, BigInteger.ZERO, VALUE)),
      new RateLimit(new Path(VOUCHER, OURS), new Quota(10, 10, 24),
          new Flow(BigInteger.ZERO, BigInteger.ZERO, VALUE)));
  private static final Genesis GENESIS = new Genesis(LIMITS, List.of(), List.of(), List.of(),
      List.of(), Optional.of(new HourEpoch(100, Instant.parse("2024-01-05T04:00:00Z"), 1)));
  /** The app's mark in the store: outside the keeper's prefix. */
  private static final byte[] APP_KEY = "transfer/escrow".getBytes(StandardCharsets.US_ASCII);

  @FuzzTest(maxDuration = "5m")
  void sendAndRecv_agreeWithTheReference(FuzzedDataProvider in) {
    boolean send = in.consumeBoolean();
    String sourceClient = id(in);
    String destinationClient = id(in);
    long sequence = in.consumeBoolean()
        ? SEQUENCES[in.consumeInt(0, SEQUENCES.length - 1)]
        : in.consumeLong();
    PacketStatus appStatus = in.pickValue(PacketStatus.values());
    String sourcePort = port(in);
    String destinationPort = port(in);
    String version = Ics20PayloadFuzzTest.version(in);
    int kind = in.consumeInt(0, 3);
    String encoding = kind == 3
        ? in.consumeString(32)
        : Ics20PayloadFuzzTest.encoding(in, List.of(PROTO, ABI, JSON).get(kind));
    byte[] value = switch (kind) {
      case 0 -> Ics20PayloadFuzzTest.protobuf(in);
      case 1 -> Ics20PayloadFuzzTest.abi(in);
      case 2 -> json(in);
      default -> in.consumeRemainingAsBytes();
    };
    Payload payload = new Payload(sourcePort, destinationPort, version, encoding, value);

    try (TestChain chain = new TestChain(new MemoryKvStore(), 2, BLOCK_TIME, PREFIX)) {
      chain.initGenesis(GENESIS);
      chain.events().clear();
      App app = new App(appStatus);
      RateLimitMiddlewareV2 middleware = new RateLimitMiddlewareV2(chain.keeper(), () -> app,
          (ctx, client, seq, ack) -> { }, (ctx, client, seq) -> Optional.empty());
      String digestBefore = chain.digest();
      BlockContext ctx = chain.ctx();
      Object expected = expected(send, sourceClient, destinationClient, sequence, payload);
      if (send) {
        if (expected instanceof ErrorCode code) {
          RateLimitException e = assertThrows(RateLimitException.class, () -> middleware
              .onSendPacket(ctx, sourceClient, destinationClient, sequence, payload, "signer"));
          assertEquals(code, e.code(), e::getMessage);
          Expected.assertReason(e);
        } else {
          middleware.onSendPacket(
              ctx, sourceClient, destinationClient, sequence, payload, "signer");
        }
      } else {
        RecvPacketResult result = middleware.onRecvPacket(
            ctx, sourceClient, destinationClient, sequence, payload, "relayer");
        if (expected instanceof ErrorCode code) {
          assertEquals(PacketStatus.FAILURE, result.status());
          assertArrayEquals(rateLimitErrorAck(code), result.acknowledgement(),
              () -> new String(result.acknowledgement(), StandardCharsets.UTF_8));
        } else {
          assertEquals(app.answer(), result, "the app's answer");
        }
      }
      boolean refused = expected instanceof ErrorCode;
      assertEquals(refused ? 0 : 1, app.calls, "the app is called iff the packet passes");
      assertEquals(expectedEvents(expected),
          chain.events().events().stream().map(MiddlewareFuzzTest::shown).toList(), "events");
      if (refused || (appStatus == PacketStatus.FAILURE && !send)) {
        assertEquals(digestBefore, chain.digest(), "nothing is written");
        return;
      }
      Counted c = (Counted) expected;
      Genesis after = chain.keeper().exportGenesis(chain.ctx());
      Map<Path, Flow> flows =
          after.rateLimits().stream().collect(Collectors.toMap(RateLimit::path, RateLimit::flow));
      Map<Path, Flow> expectedFlows = new HashMap<>(
          LIMITS.stream().collect(Collectors.toMap(RateLimit::path, RateLimit::flow)));
      Set<PendingPacket> markers = Set.of();
      if (expectedFlows.containsKey(c.path)) {
        expectedFlows.put(c.path, send
            ? new Flow(BigInteger.ZERO, c.amount, VALUE)
            : new Flow(c.amount, BigInteger.ZERO, VALUE));
        markers = send || appStatus == PacketStatus.ASYNC
            ? Set.of(new PendingPacket(c.path.channelOrClientId(), c.path.denom(), sequence))
            : Set.of();
      }
      assertEquals(expectedFlows, flows, "flows");
      assertEquals(send ? markers : Set.of(), Set.copyOf(after.pendingSendPackets()), "sends");
      assertEquals(send ? Set.of() : markers, Set.copyOf(after.pendingRecvPackets()), "recvs");
      assertTrue(chain.store().get(APP_KEY).isPresent(), "the app's write is kept");
    }
  }

  /** What a passing packet counts against, and how much. */
  private record Counted(Path path, BigInteger amount) {}

  /**
   * SPEC §10 and §2-§5: the refusal's code, or what the packet counts against. Our client is the
   * source on send and the destination on receive; a received denom is read with the payload's
   * ports (SPEC §3). After the denom, sequence 0 is refused, then the quota (10 % of 1,000, nothing
   * used yet) on a limited path.
   */
  private static Object expected(
      boolean send, String sourceClient, String destinationClient, long sequence, Payload p) {
    Object decoded = Ics20PayloadFuzzTest.expectedDecode(p.version(), p.encoding(), p.value());
    if (decoded instanceof ErrorCode) {
      return decoded;
    }
    String ours = send ? sourceClient : destinationClient;
    if (!DenomFuzzTest.isHop(ours)) {
      return ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID;
    }
    FungibleTokenPacketData data = (FungibleTokenPacketData) decoded;
    Object denom = send
        ? DenomFuzzTest.expectedSend(data.denom())
        : DenomFuzzTest.expectedRecvInPacket(data.denom(), p.sourcePort(), sourceClient,
            p.destinationPort(), destinationClient);
    if (denom instanceof ErrorCode) {
      return denom;
    }
    if (sequence == 0) {
      return ErrorCode.INVALID_PACKET_DATA;
    }
    Path path = new Path((String) denom, ours);
    boolean limited = LIMITS.stream().anyMatch(l -> l.path().equals(path));
    if (limited && data.amount().compareTo(ROOM) > 0) {
      return ErrorCode.QUOTA_EXCEEDED;
    }
    return new Counted(path, data.amount());
  }

  /** A refusal's one event (SPEC §5-§6): a denial, or an invalid packet with its code. */
  private static List<String> expectedEvents(Object expected) {
    if (expected == ErrorCode.QUOTA_EXCEEDED) {
      return List.of(
          RateLimitEvents.TRANSFER_DENIED + " " + RateLimitEvents.REASON_RATE_LIMIT_EXCEEDED);
    }
    if (expected instanceof ErrorCode code) {
      return List.of(RateLimitEvents.INVALID_PACKET + " " + code.code());
    }
    return List.of();
  }

  /** ibc-go's acknowledgement of a receive its rate limiter refused (SPEC §6), as JSON bytes. */
  private static byte[] rateLimitErrorAck(ErrorCode code) {
    return ("{\"error\":\"ABCI code: " + code.code()
        + ": error handling packet: see events for details\"}").getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- inputs

  private static String id(FuzzedDataProvider in) {
    return in.consumeInt(0, 7) > 0 ? IDS[in.consumeInt(0, IDS.length - 1)] : in.consumeString(24);
  }

  private static String port(FuzzedDataProvider in) {
    return in.consumeInt(0, 7) > 0 ? "transfer" : in.consumeString(12);
  }

  /** ICS-20 JSON of fields the fuzzer picks, as {@link Ics20PayloadFuzzTest#text} gives them. */
  private static byte[] json(FuzzedDataProvider in) {
    StringBuilder json = new StringBuilder("{");
    for (int number = 1; number <= 5; number++) {
      if (number > 1) {
        json.append(',');
      }
      MiddlewareFuzzTest.field(json, ReferenceProtobuf.FIELDS.get(number - 1),
          Ics20PayloadFuzzTest.text(in, number));
    }
    return json.append('}').toString().getBytes(StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- neighbours

  /**
   * The ICS-20 app below: marks the store and answers a receive with the fuzzer's status (and an
   * acknowledgement of its own for SUCCESS and FAILURE).
   */
  private static final class App implements IbcModule {
    final PacketStatus status;
    int calls;

    App(PacketStatus status) {
      this.status = status;
    }

    RecvPacketResult answer() {
      return switch (status) {
        case SUCCESS -> RecvPacketResult.success(utf8("{\"result\":\"AQ==\"}"));
        case FAILURE -> RecvPacketResult.failure(utf8("{\"error\":\"app\"}"));
        case ASYNC -> RecvPacketResult.async();
      };
    }

    @Override
    public void onSendPacket(BlockContext ctx, String sourceClient, String destinationClient,
        long sequence, Payload payload, String signer) {
      calls++;
      ctx.store().put(APP_KEY, new byte[] {1});
    }

    @Override
    public RecvPacketResult onRecvPacket(BlockContext ctx, String sourceClient,
        String destinationClient, long sequence, Payload payload, String relayer) {
      calls++;
      ctx.store().put(APP_KEY, new byte[] {1});
      return answer();
    }

    @Override
    public void onTimeoutPacket(BlockContext ctx, String sourceClient, String destinationClient,
        long sequence, Payload payload, String relayer) {
      throw new AssertionError("not called here");
    }

    @Override
    public void onAcknowledgementPacket(BlockContext ctx, String sourceClient,
        String destinationClient, long sequence, byte[] acknowledgement, Payload payload,
        String relayer) {
      throw new AssertionError("not called here");
    }
  }
}
