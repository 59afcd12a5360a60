package dev.ratelimit.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.cli.query.FakeCometRpc;
import dev.ratelimit.cli.query.FakeCometRpc.Call;
import dev.ratelimit.cli.query.FakeCometRpc.Reply;
import dev.ratelimit.cli.query.HomeSnapshot;
import dev.ratelimit.core.query.RateLimitQueryServer;
import dev.ratelimit.proto.v1.QueryRateLimitRequest;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The operator queries asking a running node ({@code --node}) through its CometBFT RPC: a node
 * whose app routes {@code abci_query} to the query service over a home answers exactly what the
 * same query over that home ({@code --home}) prints; the node's failures are one line each.
 */
class NodeQueriesTest {
  @TempDir static Path tmp;
  static Path home;
  static HomeSnapshot snapshot;
  static RateLimitQueryServer queries;
  static FakeCometRpc node;

  @BeforeAll
  static void aNodeOverAHome() throws IOException {
    home = tmp.resolve("home");
    Cli made = Cli.run("simulate", "--home", home.toString(),
        Cli.resource("/query/node-home.json").toString());
    assertEquals(0, made.exit(), made.toString());
    snapshot = HomeSnapshot.open(home);
    queries = new RateLimitQueryServer(snapshot.keeper());
    node = FakeCometRpc.serving(queries, snapshot.context(Instant.EPOCH));
  }

  @AfterAll
  static void close() {
    node.close();
    snapshot.close();
  }

  private static Cli run(List<String> args, String... more) {
    List<String> all = new ArrayList<>(args);
    all.addAll(List.of(more));
    return Cli.run(all.toArray(String[]::new));
  }

  static Stream<List<String>> everyQuery() {
    return Stream.of(
        List.of("list-rate-limits"),
        List.of("rate-limit", "channel-0"),
        List.of("rate-limit", "07-tendermint-9", "--denom", "ustrd"),
        List.of("rate-limit", "channel-9"),
        List.of("rate-limits-by-chain", "osmosis-1"),
        List.of("rate-limits-by-chain", "nowhere-1"),
        List.of("list-blacklisted-denoms"),
        List.of("list-whitelisted-addresses"));
  }

  @ParameterizedTest
  @MethodSource("everyQuery")
  void theNodePrintsWhatTheHomePrints(List<String> query) {
    for (String output : List.of("text", "json")) {
      Cli fromHome = run(query, "--output", output, "--home", home.toString());
      Cli fromNode = run(query, "--output", output, "--node", node.uri().toString());
      assertEquals(0, fromHome.exit(), fromHome.toString());
      assertEquals(0, fromNode.exit(), fromNode.toString());
      assertEquals(fromHome.out(), fromNode.out(), output);
      assertEquals("", fromNode.err()); // the home's notes read its channels file; a node has none
    }
  }

  @Test
  void theNodesAnswer_isTheState() {
    Cli text = Cli.run("list-rate-limits", "--node", node.uri().toString());
    assertEquals(List.of(
        "CHANNEL_OR_CLIENT_ID  DENOM  SEND_%  RECV_%  HOURS  INFLOW  OUTFLOW  CHANNEL_VALUE",
        "07-tendermint-9       ustrd  50      50      1      0       0        1000000",
        "channel-0             ustrd  10      20      24     0       25000    1000000",
        "channel-5             uatom  5       5       6      1200    0        500000"),
        text.outLines());
    Cli byChain = Cli.run("rate-limits-by-chain", "cosmoshub-4", "--node", node.uri().toString());
    assertEquals(List.of(
        "CHANNEL_OR_CLIENT_ID  DENOM  SEND_%  RECV_%  HOURS  INFLOW  OUTFLOW  CHANNEL_VALUE",
        "channel-5             uatom  5       5       6      1200    0        500000"),
        byChain.outLines());
    Cli pairs = Cli.run("list-whitelisted-addresses", "--output", "json",
        "--node", node.uri().toString());
    assertEquals("""
        {
          "address_pairs": [{
            "sender": "stride1other",
            "receiver": "cosmos1receiver"
          }, {
            "sender": "stride1sender",
            "receiver": "osmo1receiver"
          }]
        }
        """, pairs.out());
    Cli textPairs = Cli.run("list-whitelisted-addresses", "--node", node.uri().toString());
    assertEquals(List.of(
        "SENDER         RECEIVER",
        "stride1other   cosmos1receiver",
        "stride1sender  osmo1receiver"), textPairs.outLines());
  }

  @Test
  void aPathWithoutALimit_isCode2_afterTheServicesEmptyResponse_asFromAHome() {
    List<String> q = List.of("rate-limit", "channel-0", "--denom", "uatom", "--output", "json");
    Cli fromNode = run(q, "--node", node.uri().toString());
    Cli fromHome = run(q, "--home", home.toString());
    assertEquals(1, fromNode.exit(), fromNode.toString());
    assertEquals("{}\n", fromNode.out());
    assertEquals(fromHome.out(), fromNode.out());
    assertEquals(List.of("ratelimit: rate limit not found: no rate limit on channel-0/uatom (code 2)"),
        fromNode.errLines());
  }

  @Test
  void eachQueryIsOneJsonRpcAbciQuery_withTheRequestAsHex_atTheHeightAsked() throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> Reply.value(new byte[0], 42))) {
      Cli r = Cli.run("rate-limit", "channel-0", "--denom", "ustrd",
          "--node", rpc.uri().toString(), "--height", "42");
      assertEquals(1, r.exit(), r.toString()); // the empty response: no limit

      List<Call> calls = rpc.calls();
      assertEquals(1, calls.size());
      Call call = calls.get(0);
      assertEquals("POST", call.httpMethod());
      assertEquals("application/json", call.contentType());
      assertEquals("2.0", call.body().path("jsonrpc").asText());
      assertEquals("abci_query", call.body().path("method").asText());
      assertEquals("/ratelimit.v1.Query/RateLimit", call.params().path("path").asText());
      byte[] request = QueryRateLimitRequest.newBuilder()
          .setDenom("ustrd").setChannelOrClientId("channel-0").build().toByteArray();
      assertEquals(HexFormat.of().withUpperCase().formatHex(request),
          call.params().path("data").asText());
      assertEquals("42", call.params().path("height").textValue()); // a string, as CometBFT's
      assertTrue(call.params().path("prove").isBoolean());
      assertEquals(false, call.params().path("prove").booleanValue());
    }
  }

  @Test
  void withoutHeight_theNodesLatest_andTcpIsHttp() throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> Reply.value(new byte[0], 7))) {
      String tcp = "tcp://127.0.0.1:" + rpc.uri().getPort();
      Cli r = Cli.run("list-rate-limits", "--output", "json", "--node", tcp);
      assertEquals(0, r.exit(), r.toString());
      assertEquals("{\n  \"rate_limits\": []\n}\n", r.out()); // a null value is the empty message
      assertEquals("0", rpc.calls().get(0).params().path("height").asText());
      assertEquals("/ratelimit.v1.Query/AllRateLimits", rpc.calls().get(0).params().path("path").asText());
      assertEquals("", rpc.calls().get(0).params().path("data").asText());
      // --height 0 is CometBFT's "latest" too, so it is taken (only a negative height is refused)
      Cli zero = Cli.run("list-rate-limits", "--node", tcp, "--height", "0");
      assertEquals(0, zero.exit(), zero.toString());
      assertEquals("0", rpc.calls().get(1).params().path("height").asText());
    }
  }

  @Test
  void aModuleErrorTheNodeAnswers_isThatError() throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) ->
        Reply.failed(13, "ratelimit", "the store holds no hour epoch of the module"))) {
      Cli r = Cli.run("list-rate-limits", "--node", rpc.uri().toString());
      assertEquals(2, r.exit(), r.toString());
      assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/AllRateLimits:"
          + " the store holds no hour epoch of the module (code 13)"), r.errLines());
      assertEquals("", r.out());
    }
  }

  @Test
  void aRequestTheNodeRefused_isUsage() throws IOException {
    String pruned = "failed to load state at height 3; version does not exist (latest height:"
        + " 50): invalid request";
    String future = "cannot query with height in the future; please provide a valid height:"
        + " invalid height";
    for (Map.Entry<Integer, String> refusal : Map.of(18, pruned, 26, future).entrySet()) {
      try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) ->
          Reply.failed(refusal.getKey(), "sdk", refusal.getValue()))) {
        Cli r = Cli.run("list-rate-limits", "--node", rpc.uri().toString(), "--height", "3");
        assertEquals(2, r.exit(), r.toString());
        assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/AllRateLimits:"
            + " code " + refusal.getKey() + " in codespace \"sdk\": " + refusal.getValue()),
            r.errLines());
        assertEquals(1, rpc.calls().size()); // not an unknown path: no other service is asked
      }
    }
  }

  @Test
  void aGoModulesQueryError_isTheNodesFailure() throws IOException {
    // baseapp turns a module's query error into sdk 6 "unknown request" (gRPC code Unknown)
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> Reply.failed(6, "sdk",
        "unable to determine client state from channel id: unknown request"))) {
      Cli r = Cli.run("rate-limits-by-chain", "osmosis-1", "--node", rpc.uri().toString());
      assertEquals(3, r.exit(), r.toString());
      assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/RateLimitsByChainId:"
          + " code 6 in codespace \"sdk\": unable to determine client state from channel id:"
          + " unknown request"), r.errLines());
      assertEquals(1, rpc.calls().size());
    }
  }

  @Test
  void onlyBaseappsUnknownPath_asksAnotherService() throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) ->
        Reply.failed(18, "sdk", "invalid request: unknown query path \"" + path + "\""))) {
      Cli r = Cli.run("list-rate-limits", "--node", rpc.uri().toString());
      assertEquals(2, r.exit(), r.toString()); // refused, as sdk 18 is
      assertEquals(List.of("/ratelimit.v1.Query/AllRateLimits"), rpc.paths());
    }
  }

  @Test
  void aChainWithoutTheModule_isAskedUnderEveryService_thenSaysSo() throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> FakeCometRpc.unknownPath())) {
      Cli r = Cli.run("list-blacklisted-denoms", "--node", rpc.uri().toString());
      assertEquals(3, r.exit(), r.toString());
      List<String> tried = List.of("/ratelimit.v1.Query/AllBlacklistedDenoms",
          "/ibc.applications.rate_limiting.v1.Query/AllBlacklistedDenoms",
          "/stride.ratelimit.Query/AllBlacklistedDenoms");
      assertEquals(tried, rpc.paths());
      assertEquals(List.of("ratelimit: node " + rpc.uri() + ": no rate-limit query service answers"
          + " /ratelimit.v1.Query/AllBlacklistedDenoms (tried " + String.join(", ", tried)
          + "; each is an unknown query path there): does the chain run the rate-limit module?"),
          r.errLines());
    }
  }

  @Test
  void ibcGosService_answersWhatTheHomePrints() throws IOException {
    String ibcGo = "/ibc.applications.rate_limiting.v1.Query/";
    String ours = "/ratelimit.v1.Query/";
    Map<String, String> renamed = Map.of(
        ibcGo + "AllRateLimits", ours + "AllRateLimits",
        ibcGo + "RateLimitsByChainID", ours + "RateLimitsByChainId",
        ibcGo + "RateLimitsByChannelOrClientID", ours + "RateLimitsByChannelOrClientId");
    try (FakeCometRpc ibcGoNode =
        FakeCometRpc.servingUnder(renamed, queries, snapshot.context(Instant.EPOCH))) {
      for (List<String> q : List.of(List.of("list-rate-limits"),
          List.of("rate-limits-by-chain", "osmosis-1"), List.of("rate-limit", "channel-0"))) {
        Cli fromNode = run(q, "--output", "json", "--node", ibcGoNode.uri().toString());
        Cli fromHome = run(q, "--output", "json", "--home", home.toString());
        assertEquals(0, fromNode.exit(), fromNode.toString());
        assertEquals(fromHome.out(), fromNode.out());
      }
      assertEquals(List.of(ours + "AllRateLimits", ibcGo + "AllRateLimits",
          ours + "RateLimitsByChainId", ibcGo + "RateLimitsByChainID",
          ours + "RateLimitsByChannelOrClientId", ours + "RateLimitsByChannelId",
          ibcGo + "RateLimitsByChannelOrClientID"), ibcGoNode.paths());
    }
  }

  @Test
  void oldStrideAndIbcAppsNames_areAskedToo() throws IOException {
    String ours = "/ratelimit.v1.Query/";
    Map<String, String> stride = Map.of(
        "/stride.ratelimit.Query/RateLimitsByChannelId", ours + "RateLimitsByChannelOrClientId");
    try (FakeCometRpc strideNode =
        FakeCometRpc.servingUnder(stride, queries, snapshot.context(Instant.EPOCH))) {
      Cli fromNode = Cli.run("rate-limit", "channel-5", "--node", strideNode.uri().toString());
      assertEquals(0, fromNode.exit(), fromNode.toString());
      assertEquals(List.of(
          "CHANNEL_OR_CLIENT_ID  DENOM  SEND_%  RECV_%  HOURS  INFLOW  OUTFLOW  CHANNEL_VALUE",
          "channel-5             uatom  5       5       6      1200    0        500000"),
          fromNode.outLines());
      assertEquals(List.of(ours + "RateLimitsByChannelOrClientId", ours + "RateLimitsByChannelId",
          "/ibc.applications.rate_limiting.v1.Query/RateLimitsByChannelOrClientID",
          "/stride.ratelimit.Query/RateLimitsByChannelOrClientId",
          "/stride.ratelimit.Query/RateLimitsByChannelId"), strideNode.paths());
    }
  }

  @Test
  void aJsonRpcErrorsText_isEscaped() throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> new Reply(200,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32603,\"message\":\"bad\\u001b[2J\","
            + "\"data\":\"x\\u202ey\\u009b\"}}"))) {
      Cli r = Cli.run("list-rate-limits", "--node", rpc.uri().toString());
      assertEquals(3, r.exit(), r.toString());
      assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/AllRateLimits:"
          + " JSON-RPC error -32603: \"bad\\u001b[2J\": \"x\\u202ey\\u009b\""), r.errLines());
    }
  }

  @Test
  void aCodespaceWithUnsafeCharacters_isEscaped() throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) ->
        Reply.failed(5, "cs\u202eevil\u009b31m", "log"))) {
      Cli r = Cli.run("list-rate-limits", "--node", rpc.uri().toString());
      assertEquals(3, r.exit(), r.toString());
      assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/AllRateLimits:"
          + " code 5 in codespace \"cs\\u202eevil\\u009b31m\": log"), r.errLines());
    }
  }

  /** Protobuf's printer escapes C0 only; C1 controls and bidi overrides are escaped too. */
  @Test
  void jsonOutput_escapesWhatIsUnsafeOnATerminal_andStaysTheSameJson() throws IOException {
    byte[] answer = dev.ratelimit.proto.v1.QueryAllBlacklistedDenomsResponse.newBuilder()
        .addDenoms("c1\u009b31m").addDenoms("bidi\u202eevil").addDenoms("tag\udb40\udc41")
        .addDenoms("ok \u00e9 \ud83d\ude80").build().toByteArray();
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> Reply.value(answer, 1))) {
      Cli json = Cli.run("list-blacklisted-denoms", "--output", "json",
          "--node", rpc.uri().toString());
      assertEquals(0, json.exit(), json.toString());
      assertEquals("{\n  \"denoms\": [\"c1\\u009b31m\", \"bidi\\u202eevil\","
          + " \"tag\\udb40\\udc41\", \"ok \u00e9 \ud83d\ude80\"]\n}\n", json.out());
      Cli text = Cli.run("list-blacklisted-denoms", "--node", rpc.uri().toString());
      assertEquals(List.of("DENOM", "\"c1\\u009b31m\"", "\"bidi\\u202eevil\"",
          "\"tag\\udb40\\udc41\"", "ok \u00e9 \ud83d\ude80"), text.outLines());
    }
  }

  /** Before, a record without them printed as a blank row (HOURS 0), and JSON as {}. */
  @ParameterizedTest(name = "without its {0}")
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"path", "denom", "channel_or_client_id", "quota", "flow"})
  void aRateLimitWithoutAPart_isRefused_notPrintedEmpty(String part) throws IOException {
    dev.ratelimit.proto.v1.RateLimit.Builder rl = dev.ratelimit.proto.v1.RateLimit.newBuilder()
        .setPath(dev.ratelimit.proto.v1.Path.newBuilder().setDenom("uatom")
            .setChannelOrClientId("channel-2"))
        .setQuota(dev.ratelimit.proto.v1.Quota.newBuilder().setMaxPercentSend("10")
            .setMaxPercentRecv("10").setDurationHours(24))
        .setFlow(dev.ratelimit.proto.v1.Flow.newBuilder().setInflow("0").setOutflow("0")
            .setChannelValue("100"));
    switch (part) {
      case "path" -> rl.clearPath();
      case "denom" -> rl.getPathBuilder().clearDenom();
      case "channel_or_client_id" -> rl.getPathBuilder().clearChannelOrClientId();
      case "quota" -> rl.clearQuota();
      default -> rl.clearFlow();
    }
    byte[] answer = dev.ratelimit.proto.v1.QueryAllRateLimitsResponse.newBuilder()
        .addRateLimits(rl).build().toByteArray();
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> Reply.value(answer, 1))) {
      for (String output : new String[] {"text", "json"}) {
        Cli r = Cli.run("list-rate-limits", "--output", output, "--node", rpc.uri().toString());
        assertEquals(3, r.exit(), r.toString());
        assertEquals("", r.out());
        assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/AllRateLimits:"
            + " a rate limit in the answer has no " + part + " (a node of another release of the"
            + " module?)"), r.errLines());
      }
    }
  }

  /** The three other queries that answer limits check each limit as list-rate-limits does. */
  @ParameterizedTest(name = "{0}")
  @org.junit.jupiter.params.provider.ValueSource(
      strings = {"RateLimit", "RateLimitsByChannelOrClientId", "RateLimitsByChainId"})
  void everyQueryOfLimits_refusesALimitWithoutItsQuota(String method) throws IOException {
    dev.ratelimit.proto.v1.RateLimit quotaless = dev.ratelimit.proto.v1.RateLimit.newBuilder()
        .setPath(dev.ratelimit.proto.v1.Path.newBuilder().setDenom("uatom")
            .setChannelOrClientId("channel-2"))
        .setFlow(dev.ratelimit.proto.v1.Flow.newBuilder().setInflow("0").setOutflow("0")
            .setChannelValue("100"))
        .build();
    byte[] answer = switch (method) {
      case "RateLimit" -> dev.ratelimit.proto.v1.QueryRateLimitResponse.newBuilder()
          .setRateLimit(quotaless).build().toByteArray();
      case "RateLimitsByChannelOrClientId" ->
          dev.ratelimit.proto.v1.QueryRateLimitsByChannelOrClientIdResponse.newBuilder()
              .addRateLimits(quotaless).build().toByteArray();
      default -> dev.ratelimit.proto.v1.QueryRateLimitsByChainIdResponse.newBuilder()
          .addRateLimits(quotaless).build().toByteArray();
    };
    String[] args = switch (method) {
      case "RateLimit" -> new String[] {"rate-limit", "channel-2", "--denom", "uatom"};
      case "RateLimitsByChannelOrClientId" -> new String[] {"rate-limit", "channel-2"};
      default -> new String[] {"rate-limits-by-chain", "osmosis-1"};
    };
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> Reply.value(answer, 1))) {
      List<String> command = new ArrayList<>(List.of(args));
      command.addAll(List.of("--node", rpc.uri().toString()));
      Cli r = Cli.run(command.toArray(String[]::new));
      assertEquals(3, r.exit(), r.toString());
      assertEquals("", r.out());
      assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/" + method
          + ": a rate limit in the answer has no quota (a node of another release of the"
          + " module?)"), r.errLines());
    }
  }

  /** A failure names the service that answered (before: the method alone, whichever it was). */
  @Test
  void aBadAnswerOfAnotherService_namesThatServicesPath() throws IOException {
    byte[] pathless = dev.ratelimit.proto.v1.QueryAllRateLimitsResponse.newBuilder()
        .addRateLimits(dev.ratelimit.proto.v1.RateLimit.getDefaultInstance()).build().toByteArray();
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) ->
        path.startsWith("/ratelimit.v1.") ? FakeCometRpc.unknownPath() : Reply.value(pathless, 1))) {
      Cli r = Cli.run("list-rate-limits", "--node", rpc.uri().toString());
      assertEquals(3, r.exit(), r.toString());
      assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ibc.applications.rate_limiting.v1"
          + ".Query/AllRateLimits: a rate limit in the answer has no path (a node of another"
          + " release of the module?)"), r.errLines());
    }
  }

  @Test
  void theLimitOfAnotherPathThanTheOneAsked_isRefused() throws IOException {
    byte[] answer = dev.ratelimit.proto.v1.QueryRateLimitResponse.newBuilder()
        .setRateLimit(dev.ratelimit.proto.v1.RateLimit.newBuilder()
            .setPath(dev.ratelimit.proto.v1.Path.newBuilder().setDenom("uosmo")
                .setChannelOrClientId("channel-2"))
            .setQuota(dev.ratelimit.proto.v1.Quota.newBuilder().setMaxPercentSend("10")
                .setMaxPercentRecv("10").setDurationHours(24))
            .setFlow(dev.ratelimit.proto.v1.Flow.newBuilder().setInflow("0").setOutflow("0")
                .setChannelValue("100")))
        .build().toByteArray();
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> Reply.value(answer, 1))) {
      Cli r = Cli.run("rate-limit", "channel-2", "--denom", "uatom", "--node", rpc.uri().toString());
      assertEquals(3, r.exit(), r.toString());
      assertEquals("", r.out());
      assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/RateLimit: the"
          + " answer is the limit of another path (\"channel-2\", \"uosmo\") than the one asked"),
          r.errLines());
    }
  }

  @Test
  void aNodesTextWithControlCharacters_isEscaped() throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) ->
        Reply.failed(13, "ratelimit", "\u001b[31mno epoch\u0007"))) {
      Cli r = Cli.run("list-rate-limits", "--node", rpc.uri().toString());
      assertEquals(2, r.exit(), r.toString());
      assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/AllRateLimits:"
          + " \"\\u001b[31mno epoch\\u0007\" (code 13)"), r.errLines());
    }
  }

  /** A node's log is shown as it is up to 300 characters; a longer one is quoted and cut. */
  @Test
  void aNodesLongLog_isCutAt300Characters() throws IOException {
    String fits = "x".repeat(300);
    String longer = fits + "y";
    for (String log : List.of(fits, longer)) {
      try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) ->
          Reply.failed(13, "ratelimit", log))) {
        Cli r = Cli.run("list-rate-limits", "--node", rpc.uri().toString());
        assertEquals(2, r.exit(), r.toString());
        String shown = log.equals(fits) ? fits : "\"" + fits + "\"... (301 chars)";
        assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/AllRateLimits: "
            + shown + " (code 13)"), r.errLines());
      }
    }
  }

  static Stream<Object[]> answersThatAreNone() {
    return Stream.of(
        // CometBFT answers a method's error with HTTP 200, one it cannot parse with 500
        new Object[] {new Reply(200, "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,"
            + "\"message\":\"Invalid params\",\"data\":\"error converting json params to"
            + " arguments: height: invalid 64-bit integer encoding\"}}"),
            "JSON-RPC error -32602: Invalid params: error converting json params to arguments:"
                + " height: invalid 64-bit integer encoding"},
        new Object[] {new Reply(500, "{\"jsonrpc\":\"2.0\",\"id\":-1,\"error\":{\"code\":-32700,"
            + "\"message\":\"Parse error. Invalid JSON\",\"data\":\"error unmarshaling request\"}}"),
            "JSON-RPC error -32700: Parse error. Invalid JSON: error unmarshaling request"},
        new Object[] {new Reply(200, "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32601,"
            + "\"message\":\"Method not found\"}}"),
            "JSON-RPC error -32601: Method not found"},
        new Object[] {new Reply(502, "<html>Bad Gateway</html>"),
            "HTTP 502, not a JSON-RPC answer (line 1 column 1: expected a JSON value, got '<'):"
                + " \"<html>Bad Gateway</html>\""},
        new Object[] {new Reply(200, "[1]"), "HTTP 200, not a JSON-RPC answer (not an object): \"[1]\""},
        new Object[] {new Reply(503, "{\"message\":\"down for maintenance\"}"),
            "HTTP 503: \"{\\\"message\\\":\\\"down for maintenance\\\"}\""},
        new Object[] {new Reply(200, ""), "HTTP 200, not a JSON-RPC answer: (empty body)"},
        new Object[] {new Reply(200, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}"),
            "the answer has no result.response: "
                + "\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":1,\\\"result\\\":{}}\""},
        new Object[] {new Reply(200, "{\"result\":{\"response\":{\"code\":\"x\"}}}"),
            "the answer's code is not a number: \"x\""},
        new Object[] {new Reply(200, "{\"result\":{\"response\":{\"code\":0,\"value\":\"@@@@\"}}}"),
            "the answer's value is not base64: Illegal base64 character 40"},
        new Object[] {new Reply(200, "{\"result\":{\"response\":{\"code\":0,\"value\":7}}}"),
            "the answer's value is not a base64 string: 7"});
  }

  @ParameterizedTest
  @MethodSource("answersThatAreNone")
  void anAnswerThatIsNone_isOneLine_exit3(Reply reply, String problem) throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> reply)) {
      Cli r = Cli.run("list-rate-limits", "--node", rpc.uri().toString());
      assertEquals(3, r.exit(), r.toString());
      assertEquals(List.of("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/AllRateLimits: "
          + problem), r.errLines());
      assertEquals("", r.out());
    }
  }

  @Test
  void responseBytesOfAnotherMessage_areNoAnswer() throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) ->
        Reply.value(new byte[] {(byte) 0xFF}, 1))) {
      Cli r = Cli.run("list-rate-limits", "--node", rpc.uri().toString());
      assertEquals(3, r.exit(), r.toString());
      assertTrue(r.err().startsWith("ratelimit: node " + rpc.uri() + ", /ratelimit.v1.Query/AllRateLimits: the answer"
          + " is not a QueryAllRateLimitsResponse: "), r.err());
    }
  }

  @Test
  void aNodeNoOneListensOn_cannotBeReached() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Cli r = Cli.run("list-rate-limits", "--node", "http://127.0.0.1:" + port);
    assertEquals(3, r.exit(), r.toString());
    assertTrue(r.err().startsWith("ratelimit: cannot reach node http://127.0.0.1:" + port + ": "),
        r.err());
    assertEquals(1, r.errLines().size());
  }

  @Test
  void wrongUse_isUsage_andAsksNothing() throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> Reply.value(new byte[0], 1))) {
      String uri = rpc.uri().toString();
      assertUsage("ratelimit: Error: --home=DIR, --node=URL are mutually exclusive (specify only"
          + " one) (see 'ratelimit list-rate-limits --help')",
          "list-rate-limits", "--node", uri, "--home", home.toString());
      assertUsage("ratelimit: Error: Missing required argument (specify one of these):"
          + " (--home=DIR | --node=URL) (see 'ratelimit list-rate-limits --help')",
          "list-rate-limits");
      assertUsage("ratelimit: --height needs --node (a home answers as of its last block)",
          "list-rate-limits", "--home", home.toString(), "--height", "3");
      assertUsage("ratelimit: --height must not be negative: -1",
          "list-rate-limits", "--node", uri, "--height", "-1");
      assertUsage("ratelimit: --node \"localhost:26657\": expected a URL such as"
          + " http://localhost:26657 (tcp:// is taken as http://)",
          "list-rate-limits", "--node", "localhost:26657");
      assertUsage("ratelimit: --node \"http://localhost:99999\": port 99999 is out of range",
          "list-rate-limits", "--node", "http://localhost:99999");
      assertUsage("ratelimit: --node: a user name or password in the URL is not supported (the"
          + " client sends no credentials)",
          "list-rate-limits", "--node", "http://op:secret@localhost:26657");
      assertUsage("ratelimit: --node \"http://my_node:26657\": \"my_node:26657\" is not a host and"
          + " port Java's HTTP client takes (give a host name with '_' as its address; a port is 1"
          + " to 65535)",
          "list-rate-limits", "--node", "http://my_node:26657");
      // only a home answers it (its help says why)
      assertUsage("ratelimit: Missing required option: '--home=DIR' (see 'ratelimit"
          + " remaining-capacity --help')",
          "remaining-capacity", "channel-0", "--denom", "ustrd", "--node", uri);
      assertUsage("ratelimit: Unknown option: '--node=" + uri + "' (see 'ratelimit"
          + " remaining-capacity --help')",
          "remaining-capacity", "channel-0", "--denom", "ustrd", "--node=" + uri, "--home", "h");
      assertUsage("ratelimit: invalid channel or client id: not a channel or client id: \"channel-x\" (expected channel-N or a"
          + " client id) (code 8)", "rate-limit", "channel-x", "--node", uri);
      assertUsage("ratelimit: --denom must not be empty",
          "rate-limit", "channel-0", "--denom", "", "--node", uri);
      assertUsage("ratelimit: CHAIN_ID must not be blank",
          "rate-limits-by-chain", " ", "--node", uri);
      assertEquals(List.of(), rpc.calls());
    }
  }

  private static void assertUsage(String line, String... args) {
    Cli r = Cli.run(args);
    assertEquals(2, r.exit(), r.toString());
    assertEquals(List.of(line), r.errLines());
    assertEquals("", r.out());
  }
}
