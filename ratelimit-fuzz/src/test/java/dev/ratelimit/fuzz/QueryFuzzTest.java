package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.query.RateLimitQueryServer;
import dev.ratelimit.core.testing.TestChain;
import dev.ratelimit.proto.v1.QueryAllBlacklistedDenomsRequest;
import dev.ratelimit.proto.v1.QueryAllBlacklistedDenomsResponse;
import dev.ratelimit.proto.v1.QueryAllRateLimitsRequest;
import dev.ratelimit.proto.v1.QueryAllRateLimitsResponse;
import dev.ratelimit.proto.v1.QueryAllWhitelistedAddressesRequest;
import dev.ratelimit.proto.v1.QueryAllWhitelistedAddressesResponse;
import dev.ratelimit.proto.v1.QueryRateLimitRequest;
import dev.ratelimit.proto.v1.QueryRateLimitResponse;
import dev.ratelimit.proto.v1.QueryRateLimitsByChainIdRequest;
import dev.ratelimit.proto.v1.QueryRateLimitsByChainIdResponse;
import dev.ratelimit.proto.v1.QueryRateLimitsByChannelOrClientIdRequest;
import dev.ratelimit.proto.v1.QueryRateLimitsByChannelOrClientIdResponse;
import dev.ratelimit.proto.v1.RateLimit;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * ABCI queries (SPEC §7) by method path with request bytes from the fuzzer, well-formed or not,
 * against a reference written from the spec and query.proto: the exact response bytes, or the
 * rejection's code (8 for an invalid channel or client id, {@code invalid_request} for an unknown
 * path, bytes that are not the request message, an empty denom or a blank chain id). A query
 * never writes.
 */
class QueryFuzzTest {
  private static final String SERVICE = "/ratelimit.v1.Query/";
  private static final String[] RPCS = {"AllRateLimits", "RateLimit", "RateLimitsByChainId",
      "RateLimitsByChannelOrClientId", "AllBlacklistedDenoms", "AllWhitelistedAddresses"};
  private static final String[] DENOMS = {"uatom", "ustrd", "uosmo", ""};
  private static final String[] IDS =
      {"channel-1", "channel-11", "channel-2", "07-tendermint-0", "channel-", "channel-01"};
  private static final String[] CHAINS = {"osmosis-1", "juno-1", "hub-4", "", " "};
  /** Limits in canonical order (SPEC §8: channel or client id, then denom, by bytes). */
  private static final List<RateLimit> LIMITS = List.of(
      limit("uatom", "07-tendermint-0", 30, 40, 48, "1000"),
      limit("uatom", "channel-1", 5, 5, 1, "1000"),
      limit("ustrd", "channel-1", 10, 20, 24, "5000"),
      limit("uatom", "channel-11", 50, 50, 6, "1000"));
  private static final Map<String, String> CHAIN_OF =
      Map.of("channel-1", "osmosis-1", "channel-11", "juno-1", "07-tendermint-0", "hub-4");

  @FuzzTest(maxDuration = "5m")
  void queries_agreeWithTheReference(FuzzedDataProvider in) {
    try (TestChain chain = TestChain.inMemory(Instant.parse("2024-01-01T06:30:00Z"))) {
      chain.initGenesis(Genesis.empty());
      CHAIN_OF.forEach(chain.channels()::add);
      chain.bank().set("uatom", 1000);
      chain.bank().set("ustrd", 5000);
      for (RateLimit rl : LIMITS) {
        chain.keeper().addRateLimit(chain.ctx(),
            new Path(rl.getPath().getDenom(), rl.getPath().getChannelOrClientId()),
            new Quota(Integer.parseInt(rl.getQuota().getMaxPercentSend()),
                Integer.parseInt(rl.getQuota().getMaxPercentRecv()),
                rl.getQuota().getDurationHours()));
      }
      chain.keeper().addDenomToBlacklist(chain.ctx(), "uosmo");
      chain.keeper().setWhitelistedAddressPair(chain.ctx(), new WhitelistedAddressPair("a", "b"));
      RateLimitQueryServer server = new RateLimitQueryServer(chain.keeper());
      String before = chain.digest();

      int pick = in.consumeInt(0, RPCS.length);
      String path = pick < RPCS.length ? SERVICE + RPCS[pick] : in.consumeString(60);
      byte[] request = in.consumeBoolean() ? wellFormed(in, pick) : in.consumeRemainingAsBytes();

      Object actual = Expected.valueOrCode(() -> server.query(chain.ctx(), path, request));
      Object expected = expected(path, request);
      if (expected instanceof byte[] bytes && actual instanceof byte[] got) {
        assertArrayEquals(bytes, got, path);
      } else {
        assertEquals(expected, actual, path);
      }
      assertEquals(before, chain.digest(), "a query writes nothing");
    }
  }

  /** A request message of the picked RPC, fields mostly from the names above. */
  private static byte[] wellFormed(FuzzedDataProvider in, int pick) {
    Message m = switch (pick) {
      case 1 -> QueryRateLimitRequest.newBuilder()
          .setDenom(pickOr(in, DENOMS)).setChannelOrClientId(pickOr(in, IDS)).build();
      case 2 -> QueryRateLimitsByChainIdRequest.newBuilder().setChainId(pickOr(in, CHAINS)).build();
      case 3 -> QueryRateLimitsByChannelOrClientIdRequest.newBuilder()
          .setChannelOrClientId(pickOr(in, IDS)).build();
      default -> QueryAllRateLimitsRequest.getDefaultInstance();
    };
    return m.toByteArray();
  }

  private static String pickOr(FuzzedDataProvider in, String[] names) {
    return in.consumeInt(0, 4) > 0
        ? names[in.consumeInt(0, names.length - 1)]
        : in.consumeString(30);
  }

  /** The response's bytes, or the code of the rejection. */
  private static Object expected(String path, byte[] request) {
    String rpc = path.startsWith(SERVICE) ? path.substring(SERVICE.length()) : "";
    try {
      return switch (rpc) {
        case "AllRateLimits" -> {
          var unused = QueryAllRateLimitsRequest.parseFrom(request); // it must parse
          yield QueryAllRateLimitsResponse.newBuilder().addAllRateLimits(LIMITS).build()
              .toByteArray();
        }
        case "RateLimit" -> {
          QueryRateLimitRequest q = QueryRateLimitRequest.parseFrom(request);
          if (!DenomFuzzTest.isHop(q.getChannelOrClientId())) {
            yield ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID;
          }
          if (q.getDenom().isEmpty()) {
            yield ErrorCode.INVALID_REQUEST;
          }
          QueryRateLimitResponse.Builder b = QueryRateLimitResponse.newBuilder();
          LIMITS.stream()
              .filter(rl -> rl.getPath().getDenom().equals(q.getDenom())
                  && rl.getPath().getChannelOrClientId().equals(q.getChannelOrClientId()))
              .forEach(b::setRateLimit);
          yield b.build().toByteArray();
        }
        case "RateLimitsByChainId" -> {
          String chainId = QueryRateLimitsByChainIdRequest.parseFrom(request).getChainId();
          if (Expected.goBlank(chainId)) {
            yield ErrorCode.INVALID_REQUEST;
          }
          yield QueryRateLimitsByChainIdResponse.newBuilder()
              .addAllRateLimits(LIMITS.stream()
                  .filter(rl -> chainId.equals(CHAIN_OF.get(rl.getPath().getChannelOrClientId())))
                  .toList())
              .build().toByteArray();
        }
        case "RateLimitsByChannelOrClientId" -> {
          String id = QueryRateLimitsByChannelOrClientIdRequest.parseFrom(request)
              .getChannelOrClientId();
          if (!DenomFuzzTest.isHop(id)) {
            yield ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID;
          }
          yield QueryRateLimitsByChannelOrClientIdResponse.newBuilder()
              .addAllRateLimits(LIMITS.stream()
                  .filter(rl -> rl.getPath().getChannelOrClientId().equals(id)).toList())
              .build().toByteArray();
        }
        case "AllBlacklistedDenoms" -> {
          var unused = QueryAllBlacklistedDenomsRequest.parseFrom(request); // it must parse
          yield QueryAllBlacklistedDenomsResponse.newBuilder().addDenoms("uosmo").build()
              .toByteArray();
        }
        case "AllWhitelistedAddresses" -> {
          var unused = QueryAllWhitelistedAddressesRequest.parseFrom(request); // it must parse
          QueryAllWhitelistedAddressesResponse.Builder b =
              QueryAllWhitelistedAddressesResponse.newBuilder();
          b.addAddressPairsBuilder().setSender("a").setReceiver("b");
          yield b.build().toByteArray();
        }
        default -> ErrorCode.INVALID_REQUEST; // not a method of the service
      };
    } catch (InvalidProtocolBufferException e) {
      return ErrorCode.INVALID_REQUEST;
    }
  }

  private static RateLimit limit(
      String denom, String id, int send, int recv, long hours, String channelValue) {
    RateLimit.Builder b = RateLimit.newBuilder();
    b.getPathBuilder().setDenom(denom).setChannelOrClientId(id);
    b.getQuotaBuilder().setMaxPercentSend(Integer.toString(send))
        .setMaxPercentRecv(Integer.toString(recv)).setDurationHours(hours);
    b.getFlowBuilder().setInflow("0").setOutflow("0").setChannelValue(channelValue);
    return b.build();
  }
}
