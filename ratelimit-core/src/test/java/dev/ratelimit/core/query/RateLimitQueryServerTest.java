package dev.ratelimit.core.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import com.google.protobuf.UnknownFieldSet;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.EventSink;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.store.PrefixKvStore;
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
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The query service: each RPC by its typed method and by its gRPC path with protobuf bytes (the
 * same answer), the wire form of what it returns, its errors, and that it writes nothing.
 */
class RateLimitQueryServerTest {
  private static final String ALL = "/ratelimit.v1.Query/AllRateLimits";
  private static final String ONE = "/ratelimit.v1.Query/RateLimit";
  private static final String BY_CHAIN = "/ratelimit.v1.Query/RateLimitsByChainId";
  private static final String BY_CHANNEL = "/ratelimit.v1.Query/RateLimitsByChannelOrClientId";
  private static final String BLACKLIST = "/ratelimit.v1.Query/AllBlacklistedDenoms";
  private static final String WHITELIST = "/ratelimit.v1.Query/AllWhitelistedAddresses";

  private TestChain chain;
  private RateLimitQueryServer server;

  @BeforeEach
  void setUp() {
    chain = TestChain.inMemory(Instant.parse("2024-01-01T06:30:00Z"));
    chain.channels()
        .add("channel-1", "osmosis-1")
        .add("channel-2", "osmosis-1")
        .add("channel-11", "juno-1")
        .add("07-tendermint-0", "cosmoshub-4");
    chain.initGenesis(Genesis.empty());
    chain.bank().set("uatom", 1000);
    chain.bank().set("ustrd", 5000);
    add("ustrd", "channel-1", 10, 20, 24);
    add("uatom", "channel-1", 5, 5, 1);
    add("uatom", "channel-11", 50, 50, 6);
    add("uatom", "channel-2", 1, 2, 3);
    add("uatom", "07-tendermint-0", 30, 40, 48);
    chain.keeper().addDenomToBlacklist(chain.ctx(), "uosmo");
    chain.keeper().addDenomToBlacklist(chain.ctx(), "ibc/AB");
    chain.keeper().setWhitelistedAddressPair(chain.ctx(), new WhitelistedAddressPair("b", "a"));
    chain.keeper().setWhitelistedAddressPair(chain.ctx(), new WhitelistedAddressPair("a", "z"));
    server = new RateLimitQueryServer(chain.keeper());
  }

  @AfterEach
  void tearDown() {
    chain.close();
  }

  private void add(String denom, String channel, int send, int recv, long hours) {
    chain.keeper().addRateLimit(chain.ctx(), new Path(denom, channel), new Quota(send, recv, hours));
  }

  /** The wire form of a stored rate limit with a fresh flow. */
  private static RateLimit wire(String denom, String channel, int send, int recv, long hours,
      long channelValue) {
    RateLimit.Builder b = RateLimit.newBuilder();
    b.getPathBuilder().setDenom(denom).setChannelOrClientId(channel);
    b.getQuotaBuilder().setMaxPercentSend(Integer.toString(send))
        .setMaxPercentRecv(Integer.toString(recv)).setDurationHours(hours);
    b.getFlowBuilder().setInflow("0").setOutflow("0").setChannelValue(Long.toString(channelValue));
    return b.build();
  }

  /** Answers {@code request} at {@code path} as bytes, and checks the typed method agrees. */
  private <R extends Message> R viaBytes(String path, Message request, R typed) throws Exception {
    byte[] answer = server.query(chain.ctx(), path, request.toByteArray());
    assertArrayEquals(typed.toByteArray(), answer, path);
    @SuppressWarnings("unchecked")
    R parsed = (R) typed.getParserForType().parseFrom(answer);
    return parsed;
  }

  /** A valid request for each path. */
  private static byte[] sampleRequest(String path) {
    Message m = switch (path) {
      case ONE -> QueryRateLimitRequest.newBuilder()
          .setDenom("uatom").setChannelOrClientId("channel-1").build();
      case BY_CHAIN -> QueryRateLimitsByChainIdRequest.newBuilder().setChainId("osmosis-1").build();
      case BY_CHANNEL -> QueryRateLimitsByChannelOrClientIdRequest.newBuilder()
          .setChannelOrClientId("channel-1").build();
      default -> QueryAllRateLimitsRequest.getDefaultInstance(); // no fields: zero bytes
    };
    return m.toByteArray();
  }

  private RateLimitException assertFailsWith(ErrorCode code, Executable query) {
    String before = chain.digest();
    RateLimitException e = assertThrows(RateLimitException.class, query);
    assertEquals(code, e.code());
    assertEquals(before, chain.digest());
    return e;
  }

  @Test
  void paths_areExactlyTheServiceMethodsOfQueryProto() {
    assertEquals(List.of(BLACKLIST, ALL, WHITELIST, ONE, BY_CHAIN, BY_CHANNEL), server.paths());
  }

  @Test
  void allRateLimits_inCanonicalOrder_withTheWireFormOfEachField() throws Exception {
    QueryAllRateLimitsRequest req = QueryAllRateLimitsRequest.getDefaultInstance();
    QueryAllRateLimitsResponse r = viaBytes(ALL, req, server.allRateLimits(chain.ctx(), req));
    assertEquals(List.of(
            wire("uatom", "07-tendermint-0", 30, 40, 48, 1000),
            wire("uatom", "channel-1", 5, 5, 1, 1000),
            wire("ustrd", "channel-1", 10, 20, 24, 5000),
            wire("uatom", "channel-11", 50, 50, 6, 1000),
            wire("uatom", "channel-2", 1, 2, 3, 1000)),
        r.getRateLimitsList());
  }

  @Test
  void rateLimit_ofOnePath_orAnEmptyResponseWithoutOne() throws Exception {
    QueryRateLimitRequest found =
        QueryRateLimitRequest.newBuilder().setDenom("ustrd").setChannelOrClientId("channel-1").build();
    QueryRateLimitResponse r = viaBytes(ONE, found, server.rateLimit(chain.ctx(), found));
    assertEquals(wire("ustrd", "channel-1", 10, 20, 24, 5000), r.getRateLimit());

    QueryRateLimitRequest none =
        QueryRateLimitRequest.newBuilder().setDenom("ustrd").setChannelOrClientId("channel-2").build();
    QueryRateLimitResponse empty = viaBytes(ONE, none, server.rateLimit(chain.ctx(), none));
    assertFalse(empty.hasRateLimit(), "as in Go: no error, no rate_limit");
    assertEquals(0, empty.toByteArray().length);
  }

  @Test
  void rateLimitsByChannelOrClientId_isThatIdOnly_notAnIdItPrefixes() throws Exception {
    QueryRateLimitsByChannelOrClientIdRequest req =
        QueryRateLimitsByChannelOrClientIdRequest.newBuilder().setChannelOrClientId("channel-1").build();
    QueryRateLimitsByChannelOrClientIdResponse r =
        viaBytes(BY_CHANNEL, req, server.rateLimitsByChannelOrClientId(chain.ctx(), req));
    assertEquals(List.of(wire("uatom", "channel-1", 5, 5, 1, 1000),
        wire("ustrd", "channel-1", 10, 20, 24, 5000)), r.getRateLimitsList());

    QueryRateLimitsByChannelOrClientIdRequest client = QueryRateLimitsByChannelOrClientIdRequest
        .newBuilder().setChannelOrClientId("07-tendermint-0").build();
    assertEquals(List.of(wire("uatom", "07-tendermint-0", 30, 40, 48, 1000)),
        viaBytes(BY_CHANNEL, client, server.rateLimitsByChannelOrClientId(chain.ctx(), client))
            .getRateLimitsList());
  }

  @Test
  void rateLimitsByChainId_followsEachIdToItsChain_skippingUnresolvableOnes() throws Exception {
    QueryRateLimitsByChainIdRequest osmosis =
        QueryRateLimitsByChainIdRequest.newBuilder().setChainId("osmosis-1").build();
    QueryRateLimitsByChainIdResponse r =
        viaBytes(BY_CHAIN, osmosis, server.rateLimitsByChainId(chain.ctx(), osmosis));
    assertEquals(List.of(
            wire("uatom", "channel-1", 5, 5, 1, 1000),
            wire("ustrd", "channel-1", 10, 20, 24, 5000),
            wire("uatom", "channel-2", 1, 2, 3, 1000)),
        r.getRateLimitsList());

    chain.channels().addFailing("channel-2"); // its lookup throws: skipped, not a failed query
    assertEquals(List.of(
            wire("uatom", "channel-1", 5, 5, 1, 1000),
            wire("ustrd", "channel-1", 10, 20, 24, 5000)),
        server.rateLimitsByChainId(chain.ctx(), osmosis).getRateLimitsList());
  }

  @Test
  void blacklistAndWhitelist_inCanonicalOrder() throws Exception {
    QueryAllBlacklistedDenomsRequest b = QueryAllBlacklistedDenomsRequest.getDefaultInstance();
    QueryAllBlacklistedDenomsResponse denoms =
        viaBytes(BLACKLIST, b, server.allBlacklistedDenoms(chain.ctx(), b));
    assertEquals(List.of("ibc/AB", "uosmo"), denoms.getDenomsList());

    QueryAllWhitelistedAddressesRequest w = QueryAllWhitelistedAddressesRequest.getDefaultInstance();
    QueryAllWhitelistedAddressesResponse pairs =
        viaBytes(WHITELIST, w, server.allWhitelistedAddresses(chain.ctx(), w));
    assertEquals(List.of("a->z", "b->a"), pairs.getAddressPairsList().stream()
        .map(p -> p.getSender() + "->" + p.getReceiver()).toList());
  }

  @Test
  void emptyState_answersEmptyLists() throws Exception {
    try (TestChain fresh = TestChain.inMemory(Instant.parse("2024-01-01T06:30:00Z"))) {
      fresh.initGenesis(Genesis.empty());
      RateLimitQueryServer s = new RateLimitQueryServer(fresh.keeper());
      for (String path : s.paths()) { // every response empty: zero bytes
        assertEquals(0, s.query(fresh.ctx(), path, sampleRequest(path)).length, path);
      }
    }
  }

  @Test
  void aStoreWithoutTheModulesEpoch_isCode13_neverAnswersNoLimits() {
    // InitGenesis never ran
    try (TestChain bare = TestChain.inMemory(Instant.parse("2024-01-01T06:30:00Z"))) {
      RateLimitQueryServer s = new RateLimitQueryServer(bare.keeper());
      for (String path : s.paths()) {
        RateLimitException e = assertThrows(RateLimitException.class,
            () -> s.query(bare.ctx(), path, sampleRequest(path)), path);
        assertEquals(ErrorCode.HOUR_EPOCH_INVALID, e.code(), path);
      }
    }
    // the module's view of the store given to a keeper that adds its prefix itself
    byte[] prefix = "s/ratelimit/".getBytes(StandardCharsets.US_ASCII);
    MemoryKvStore store = new MemoryKvStore();
    try (TestChain shared = new TestChain(store, 1, Instant.parse("2024-01-01T06:30:00Z"), prefix)) {
      shared.initGenesis(Genesis.empty());
      shared.channels().add("channel-1", "osmosis-1");
      shared.bank().set("uatom", 1000);
      shared.keeper().addRateLimit(shared.ctx(), new Path("uatom", "channel-1"), new Quota(5, 5, 1));
      RateLimitQueryServer s = new RateLimitQueryServer(shared.keeper());
      assertEquals(1, s.allRateLimits(shared.ctx(), QueryAllRateLimitsRequest.getDefaultInstance())
          .getRateLimitsCount());
      BlockContext view = BlockContext.of(shared.height(), shared.time(),
          new PrefixKvStore(store, prefix), EventSink.discarding());
      RateLimitException e = assertThrows(RateLimitException.class,
          () -> s.query(view, ALL, new byte[0]));
      assertEquals(ErrorCode.HOUR_EPOCH_INVALID, e.code());
      assertEquals("hour epoch missing or invalid: the store holds no hour epoch of the module:"
          + " InitGenesis never ran on it, or it is not the store the keeper reads (give the"
          + " chain's whole store; the keeper adds its prefix)", e.getMessage());
    }
  }

  @Test
  void unknownFieldsInARequest_areIgnored_asProtobufReadsThem() throws Exception {
    QueryRateLimitsByChannelOrClientIdRequest req = QueryRateLimitsByChannelOrClientIdRequest
        .newBuilder()
        .setChannelOrClientId("channel-11")
        .setUnknownFields(UnknownFieldSet.newBuilder()
            .addField(9, UnknownFieldSet.Field.newBuilder()
                .addLengthDelimited(ByteString.copyFromUtf8("x")).build())
            .build())
        .build();
    byte[] answer = server.query(chain.ctx(), BY_CHANNEL, req.toByteArray());
    assertEquals(List.of(wire("uatom", "channel-11", 50, 50, 6, 1000)),
        QueryRateLimitsByChannelOrClientIdResponse.parseFrom(answer).getRateLimitsList());
  }

  @Test
  void abciQuery_answersTheBytes_orTheModuleErrorAsCodeCodespaceAndLog() {
    QueryRateLimitRequest one = QueryRateLimitRequest.newBuilder()
        .setDenom("ustrd").setChannelOrClientId("channel-1").build();
    assertEquals(
        new RateLimitQueryServer.AbciAnswer(0, "", "",
            server.query(chain.ctx(), ONE, one.toByteArray())),
        server.abciQuery(chain.ctx(), ONE, one.toByteArray()));

    QueryRateLimitsByChannelOrClientIdRequest bad = QueryRateLimitsByChannelOrClientIdRequest
        .newBuilder().setChannelOrClientId("channel-x").build();
    RateLimitQueryServer.AbciAnswer code8 = server.abciQuery(chain.ctx(), BY_CHANNEL, bad.toByteArray());
    assertEquals(8, code8.code());
    assertEquals("ratelimit", code8.codespace());
    assertTrue(code8.log().startsWith("invalid channel or client id: "), code8.log());
    assertEquals(0, code8.value().length);

    RateLimitQueryServer.AbciAnswer unknown =
        server.abciQuery(chain.ctx(), "/ratelimit.v1.Query/Params", new byte[0]);
    assertEquals(List.of(18, "sdk"), List.of(unknown.code(), unknown.codespace()));
    assertTrue(unknown.log().startsWith("invalid request: unknown query path"), unknown.log());

    try (TestChain bare = TestChain.inMemory(Instant.parse("2024-01-01T00:00:00Z"))) {
      RateLimitQueryServer.AbciAnswer code13 = new RateLimitQueryServer(bare.keeper())
          .abciQuery(bare.ctx(), ALL, new byte[0]);
      assertEquals(List.of(13, "ratelimit"), List.of(code13.code(), code13.codespace()));
    }
  }

  /** An answer is a value: equal by content, the value's bytes included, and never shared. */
  @Test
  void abciAnswer_isAValueOfItsFourFields() {
    byte[] bytes = {1, 2};
    RateLimitQueryServer.AbciAnswer a = new RateLimitQueryServer.AbciAnswer(0, "", "", bytes);
    bytes[0] = 9;
    assertArrayEquals(new byte[] {1, 2}, a.value(), "copied in");
    a.value()[0] = 9;
    assertArrayEquals(new byte[] {1, 2}, a.value(), "copied out");
    RateLimitQueryServer.AbciAnswer same =
        new RateLimitQueryServer.AbciAnswer(0, "", "", new byte[] {1, 2});
    assertEquals(a, same);
    assertEquals(a.hashCode(), same.hashCode());
    for (RateLimitQueryServer.AbciAnswer other : List.of(
        new RateLimitQueryServer.AbciAnswer(2, "", "", new byte[] {1, 2}),
        new RateLimitQueryServer.AbciAnswer(0, "sdk", "", new byte[] {1, 2}),
        new RateLimitQueryServer.AbciAnswer(0, "", "x", new byte[] {1, 2}),
        new RateLimitQueryServer.AbciAnswer(0, "", "", new byte[] {1, 3}))) {
      assertNotEquals(a, other, other.toString());
    }
    assertNotEquals(a, "AbciAnswer");
    assertEquals(
        "AbciAnswer[code=2, codespace=ratelimit, log=rate limit not found, value=0 bytes]",
        new RateLimitQueryServer.AbciAnswer(2, "ratelimit", "rate limit not found", new byte[0])
            .toString());
    assertEquals("code must not be negative: -1", assertThrows(IllegalArgumentException.class,
        () -> new RateLimitQueryServer.AbciAnswer(-1, "", "", new byte[0])).getMessage());
  }

  @Test
  void anUnknownPath_isInvalidRequest_listingTheKnownOnes() {
    RateLimitException e = assertFailsWith(ErrorCode.INVALID_REQUEST,
        () -> server.query(chain.ctx(), "/ratelimit.v1.Query/Params", new byte[0]));
    assertEquals("invalid request: unknown query path \"/ratelimit.v1.Query/Params\"; known: "
        + String.join(", ", server.paths()), e.getMessage());
    assertFailsWith(ErrorCode.INVALID_REQUEST,
        () -> server.query(chain.ctx(), "ratelimit.v1.Query/AllRateLimits", new byte[0]));
  }

  @Test
  void bytesThatAreNotTheRequestMessage_areInvalidRequest() {
    RateLimitException e = assertFailsWith(ErrorCode.INVALID_REQUEST,
        () -> server.query(chain.ctx(), BY_CHAIN, new byte[] {0x0a, 0x05, 'o'})); // cut short
    assertTrue(e.getMessage().startsWith(
        "invalid request: request of RateLimitsByChainId is not a QueryRateLimitsByChainIdRequest: "),
        e.getMessage());
    // a string field holding bytes that are not UTF-8
    assertFailsWith(ErrorCode.INVALID_REQUEST,
        () -> server.query(chain.ctx(), BY_CHAIN, new byte[] {0x0a, 0x01, (byte) 0xff}));
  }

  @Test
  void anInvalidChannelOrClientId_isCode8() {
    for (String id : List.of("", "channel-x", "channel-1 ", "07-tendermint-0/x")) {
      assertFailsWith(ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID, () -> server.rateLimit(chain.ctx(),
          QueryRateLimitRequest.newBuilder().setDenom("uatom").setChannelOrClientId(id).build()));
      assertFailsWith(ErrorCode.INVALID_CHANNEL_OR_CLIENT_ID,
          () -> server.rateLimitsByChannelOrClientId(chain.ctx(),
              QueryRateLimitsByChannelOrClientIdRequest.newBuilder().setChannelOrClientId(id).build()));
    }
  }

  @Test
  void anEmptyDenomOrABlankChainId_isInvalidRequest() {
    assertFailsWith(ErrorCode.INVALID_REQUEST, () -> server.rateLimit(chain.ctx(),
        QueryRateLimitRequest.newBuilder().setChannelOrClientId("channel-1").build()));
    for (String blank : List.of("", " ", "\t\n")) {
      assertFailsWith(ErrorCode.INVALID_REQUEST, () -> server.rateLimitsByChainId(chain.ctx(),
          QueryRateLimitsByChainIdRequest.newBuilder().setChainId(blank).build()));
    }
  }

  @Test
  void nullArguments_areRefusedByEveryMethod() {
    List<Executable> calls = List.of(
        () -> server.allRateLimits(chain.ctx(), null),
        () -> server.rateLimit(chain.ctx(), null),
        () -> server.rateLimitsByChainId(chain.ctx(), null),
        () -> server.rateLimitsByChannelOrClientId(chain.ctx(), null),
        () -> server.allBlacklistedDenoms(chain.ctx(), null),
        () -> server.allWhitelistedAddresses(chain.ctx(), null),
        () -> server.allRateLimits(null, QueryAllRateLimitsRequest.getDefaultInstance()),
        () -> server.query(chain.ctx(), ALL, null),
        () -> server.query(chain.ctx(), null, new byte[0]),
        () -> server.query(null, ALL, new byte[0]));
    for (Executable call : calls) {
      assertThrows(NullPointerException.class, call);
    }
  }

  @Test
  void queries_writeNothing() throws Exception {
    String before = chain.digest();
    for (String path : server.paths()) {
      assertTrue(server.query(chain.ctx(), path, sampleRequest(path)).length > 0, path);
    }
    assertEquals(before, chain.digest());
  }
}
