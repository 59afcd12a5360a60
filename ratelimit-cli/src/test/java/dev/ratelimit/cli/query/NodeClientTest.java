package dev.ratelimit.cli.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.ratelimit.cli.query.FakeCometRpc.Reply;
import dev.ratelimit.proto.v1.Flow;
import dev.ratelimit.proto.v1.Path;
import dev.ratelimit.proto.v1.QueryAllRateLimitsResponse;
import dev.ratelimit.proto.v1.Quota;
import dev.ratelimit.proto.v1.RateLimit;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The transport: addresses, answer shapes, and limits in time and size. */
class NodeClientTest {
  private static final String ALL = "/ratelimit.v1.Query/AllRateLimits";
  private static final byte[] EMPTY_REQUEST = new byte[0];

  @ParameterizedTest
  @CsvSource({
    "http://localhost:26657, http://localhost:26657",
    "https://rpc.example.org, https://rpc.example.org",
    "http://10.0.0.5:26657/rpc, http://10.0.0.5:26657/rpc",
    "http://[::1]:26657, http://[::1]:26657",
    "tcp://localhost:26657, http://localhost:26657",
    "TCP://127.0.0.1:26657, http://127.0.0.1:26657",
    "' http://localhost:26657 ', http://localhost:26657",
    "tcp://h:1/a%20b, http://h:1/a%20b",
    "tcp://h:1/?k=v, http://h:1/?k=v",
  })
  void nodeAddresses_taken(String given, String asked) {
    assertEquals(URI.create(asked), NodeClient.endpoint(given));
  }

  @ParameterizedTest
  @ValueSource(strings = {"localhost:26657", "localhost", "ftp://localhost", "http://", "",
      "http//x", "unix:///var/run/rpc.sock", "http:/localhost:26657"})
  void nodeAddresses_refused(String given) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> NodeClient.endpoint(given));
    assertTrue(e.getMessage().endsWith(
        "expected a URL such as http://localhost:26657 (tcp:// is taken as http://)"),
        e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://localhost:0", "http://localhost:65536", "tcp://h:70000"})
  void portsOutOfRange_refused(String given) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> NodeClient.endpoint(given));
    assertTrue(e.getMessage().contains("is out of range"), e.getMessage());
  }

  @ParameterizedTest
  @ValueSource(strings = {"http://op:s3cret@localhost:26657", "http://op:s3cret@node_1:26657",
      "tcp://op:s3cret@my_node", "http://op:s3cret@host:70000000000",
      "ftp://op:s3cret@host:26657", "http://op:s3cret@host:26657 x", "op:s3cret@host:26657",
      "https://%6Fp:s3cret@host"})
  void credentialsInTheUrl_refused_withoutRepeatingThem(String given) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> NodeClient.endpoint(given));
    assertEquals("--node: a user name or password in the URL is not supported (the client sends"
        + " no credentials)", e.getMessage());
  }

  /**
   * A password holding '/', '?' or '#', or a mistyped scheme, hides the credential from the
   * authority: whatever is refused or asked, no message repeats it.
   */
  @ParameterizedTest
  @ValueSource(strings = {"http://alice:pa/SECRET@host:1", "https://alice:SECRET#t@rpc.example.com",
      "http://alice:pa?SECRET@host:1", "http:/user:SECRET@host:1", "http//user:SECRET@host:1",
      "http://alice:SECRET/x@host:1"})
  void credentialsTheAuthorityHides_areNeverRepeated(String given) {
    String shown;
    try {
      shown = new NodeClient(NodeClient.endpoint(given), 0, Duration.ofSeconds(1)).name();
    } catch (IllegalArgumentException refused) {
      shown = refused.getMessage();
    }
    assertTrue(!shown.contains("SECRET"), shown);
  }

  /** The address a message shows instead: the scheme, *** up to the last '@', no query. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "http://alice:pa/SECRET@host:1          | http://***@host:1",
      "https://alice:SECRET#t@rpc.example.com | https://***@rpc.example.com",
      "http://alice:pa?SECRET@host:1          | http://***@host:1",
      "http://alice:SECRET/x@host:1           | http://***@host:1",
      "http:/user:SECRET@host:1               | ***@host:1",
      "http//user:SECRET@host:1               | ***@host:1",
      "ftp//a:SECRET@b://c                    | ***@b://c",
      "://x/SECRET@b                          | ://***@b",
      "http://host:1?key=SECRET x             | http://host:1",
      "http://127.0.0.1:99999/apikey/SECRET   | http://127.0.0.1:99999/...",
      "https://rpc.example.com:0/v3/SECRET    | https://rpc.example.com:0/...",
      "ftp://host:1/                          | ftp://host:1/"})
  void aRefusedAddress_isShownRedacted(String given, String shown) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> NodeClient.endpoint(given));
    assertTrue(e.getMessage().startsWith("--node \"" + shown + "\""), e.getMessage());
    assertTrue(!e.getMessage().contains("SECRET"), e.getMessage());
  }

  /**
   * Reading a large answer on a small heap runs out in the HTTP client's thread: before, that was
   * "the exchange failed: Java heap space", without the CLI's advice for out of memory.
   */
  @Test
  void runningOutOfMemoryInTheExchange_staysOutOfMemory() {
    NodeClient client = new NodeClient(NodeClient.endpoint("http://h:1"), 0, Duration.ofSeconds(1));
    OutOfMemoryError oom = new OutOfMemoryError("Java heap space");

    assertSame(oom, assertThrows(OutOfMemoryError.class,
        () -> client.exchangeFailed("node http://h:1, /p", new java.io.IOException("read", oom))));
    assertEquals("node http://h:1, /p: the exchange failed: reset",
        client.exchangeFailed("node http://h:1, /p", new java.io.IOException("reset")).getMessage());
  }

  @Test
  void aPathOrQueryWithAnAt_isTaken() {
    assertEquals(URI.create("http://host:1/a@b"), NodeClient.endpoint("http://host:1/a@b"));
    assertEquals(URI.create("http://host:1/?x=a@b"), NodeClient.endpoint("http://host:1/?x=a@b"));
  }

  @Test
  void theNodesName_leavesThePathAndQueryOut() {
    NodeClient client = new NodeClient(
        NodeClient.endpoint("https://rpc.example.org:443/KEY123?apikey=SECRET"), 0,
        Duration.ofSeconds(1));
    assertEquals("node https://rpc.example.org:443", client.name());
    assertEquals("node http://h:1", new NodeClient(NodeClient.endpoint("HTTP://h:1"), 0,
        Duration.ofSeconds(1)).name());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> NodeClient.endpoint("ftp://rpc.example.org/?apikey=SECRET"));
    assertEquals("--node \"ftp://rpc.example.org/\": expected a URL such as http://localhost:26657"
        + " (tcp:// is taken as http://)", e.getMessage());
  }

  @Test
  void cometBftsShape_withEveryZeroFieldLeftOut_isASuccess() throws IOException {
    byte[] value = QueryAllRateLimitsResponse.newBuilder().addRateLimits(limit()).build()
        .toByteArray();
    for (Reply reply : new Reply[] {
        new Reply(200, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"response\":{\"height\":\"42\"}}}"),
        new Reply(200, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"response\":{\"code\":0,"
            + "\"log\":\"\",\"info\":\"\",\"index\":\"0\",\"key\":null,\"value\":null,"
            + "\"proof_ops\":null,\"height\":\"42\",\"codespace\":\"\"}}}")}) {
      try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> reply)) {
        assertArrayEquals(new byte[0], client(rpc).query(ALL, EMPTY_REQUEST));
      }
    }
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> Reply.value(value, 9))) {
      assertArrayEquals(value, client(rpc).query(ALL, EMPTY_REQUEST));
    }
  }

  /** Stride's first releases: amounts as uint64 where ratelimit.v1 has decimal strings. */
  @Test
  void anAnswerWhoseKnownFieldsHaveAnotherType_isRefused_notPrintedAsZeros() throws IOException {
    byte[] quotaAsNumbers = {0x08, 10, 0x10, 10, 0x18, 24}; // fields 1-3 as varints
    byte[] rateLimit = concat(new byte[] {0x12, (byte) quotaAsNumbers.length}, quotaAsNumbers);
    byte[] response = concat(new byte[] {0x0A, (byte) rateLimit.length}, rateLimit);
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> Reply.value(response, 1))) {
      Queries queries = new Queries(client(rpc));
      NodeException e = assertThrows(NodeException.class, queries::allRateLimits);
      assertEquals("node " + rpc.uri() + ", /ratelimit.v1.Query/AllRateLimits: field max_percent_send of Quota has"
          + " another wire type in the answer than in this library's messages (a node of another"
          + " release of the module?)", e.getMessage());
    }
  }

  /** A record with a field it lacks would print as empty: refused. */
  @Test
  void aRecordWithAFieldThisLibraryLacks_isRefused() throws IOException {
    byte[] quota = {0x3A, 3, '1', '0', '%'}; // field 7, a string: no field of Quota
    byte[] rateLimit = concat(new byte[] {0x12, (byte) quota.length}, quota);
    byte[] response = concat(new byte[] {0x0A, (byte) rateLimit.length}, rateLimit);
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> Reply.value(response, 1))) {
      NodeException e =
          assertThrows(NodeException.class, new Queries(client(rpc))::allRateLimits);
      assertEquals("node " + rpc.uri() + ", /ratelimit.v1.Query/AllRateLimits: Quota in the answer has a field 7 this"
          + " library's messages do not have (a node of another release of the module?)",
          e.getMessage());
    }
  }

  @Test
  void fieldsOfANewerRelease_areIgnored() throws IOException {
    byte[] known = QueryAllRateLimitsResponse.newBuilder().addRateLimits(limit()).build()
        .toByteArray();
    byte[] pagination = {0x12, 0x02, 0x08, 0x01}; // field 2: a message this library lacks
    try (FakeCometRpc rpc = FakeCometRpc.answering(
        (path, data, height) -> Reply.value(concat(known, pagination), 1))) {
      assertEquals(1, new Queries(client(rpc)).allRateLimits().getRateLimitsCount());
    }
  }

  /**
   * An answer is one JSON text in UTF-8 or refused: Jackson alone took the first of two values,
   * the last of two equal names, a byte-order mark, UTF-16 and malformed UTF-8 (found by
   * NodeAnswerFuzzTest), so one answer could read one way here and another elsewhere.
   */
  @Test
  void aBodyThatIsNotOneJsonTextInUtf8_isRefused() {
    String where = "node x, " + ALL + ": HTTP 200, not a JSON-RPC answer (";
    assertEquals(where + "line 1 column 28: unexpected '{' after the JSON value): "
        + "\"{\\\"result\\\":{\\\"response\\\":{}}} {}\"",
        refusal("{\"result\":{\"response\":{}}} {}"));
    assertEquals(where + "line 1 column 33: duplicate key \"code\"): "
        + "\"{\\\"result\\\":{\\\"response\\\":{\\\"code\\\":5,\\\"code\\\":0}}}\"",
        refusal("{\"result\":{\"response\":{\"code\":5,\"code\":0}}}"));
    assertEquals(where + "line 1 column 1: expected a JSON value, got U+FEFF): "
        + "\"\\ufeff{\\\"result\\\":{\\\"response\\\":{}}}\"",
        refusal("\ufeff{\"result\":{\"response\":{}}}"));
    assertEquals(where + "line 1 column 1: expected a JSON value, got U+0000): "
        + "\"\\u0000{\\u0000}\"",
        refusal("{}".getBytes(StandardCharsets.UTF_16BE)));
    byte[] overlongNul = {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0x80, '"', '}'};
    assertEquals(where + "not valid UTF-8): \"{\\\"a\\\":\\\"\ufffd\ufffd\\\"}\"",
        refusal(overlongNul));
  }

  /** RFC 4648 base64 is padded, as CometBFT writes it; java.util.Base64 alone took it without. */
  @Test
  void aValueWithoutItsPadding_isRefused() {
    assertEquals("node x, " + ALL + ": the answer's value is not base64: its length, 2, is not a"
        + " multiple of 4", refusal("{\"result\":{\"response\":{\"value\":\"QQ\"}}}"));
    assertEquals("node x, " + ALL + ": the answer's value is not base64: Input byte array has"
        + " wrong 4-byte ending unit", refusal("{\"result\":{\"response\":{\"value\":\"QQ=A\"}}}"));
    assertArrayEquals(new byte[] {'A'}, NodeClient.AbciAnswer.parse("node x, " + ALL, 200,
        "{\"result\":{\"response\":{\"value\":\"QQ==\"}}}".getBytes(StandardCharsets.UTF_8))
        .value());
  }

  private static String refusal(String body) {
    return refusal(body.getBytes(StandardCharsets.UTF_8));
  }

  private static String refusal(byte[] body) {
    return assertThrows(NodeException.class,
        () -> NodeClient.AbciAnswer.parse("node x, " + ALL, 200, body)).getMessage();
  }

  @Test
  void aNodeThatDoesNotAnswerInTime_timesOut() throws IOException {
    CountDownLatch release = new CountDownLatch(1);
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> {
      await(release);
      return Reply.value(new byte[0], 1);
    })) {
      NodeClient client = new NodeClient(rpc.uri(), 0, Duration.ofMillis(300));
      NodeException e =
          assertThrows(NodeException.class, () -> client.query(ALL, EMPTY_REQUEST));
      assertEquals("node " + rpc.uri() + ", " + ALL + ": no whole answer within 300 ms",
          e.getMessage());
    } finally {
      release.countDown();
    }
  }

  /** The request timeout of java.net.http ends when the headers arrive; ours covers the body. */
  @Test
  void aNodeThatStallsAfterTheHeaders_timesOut() throws IOException {
    CountDownLatch release = new CountDownLatch(1);
    try (RawServer server = RawServer.start(out -> {
      out.write("{\"jsonrpc\":\"2.0\",".getBytes(StandardCharsets.UTF_8));
      out.flush();
      await(release);
    })) {
      NodeClient client = new NodeClient(server.uri(), 0, Duration.ofMillis(300));
      NodeException e =
          assertThrows(NodeException.class, () -> client.query(ALL, EMPTY_REQUEST));
      assertEquals("node " + server.uri() + ", " + ALL + ": no whole answer within 300 ms",
          e.getMessage());
    } finally {
      release.countDown();
    }
  }

  @Test
  void anAnswerLargerThanTheLimit_isRefused_withoutReadingItAll() throws Exception {
    byte[] chunk = new byte[4096];
    Arrays.fill(chunk, (byte) ' ');
    java.util.concurrent.CompletableFuture<Boolean> sentAll =
        new java.util.concurrent.CompletableFuture<>();
    try (RawServer server = RawServer.start(out -> {
      try {
        for (int i = 0; i < 8192; i++) { // 32 MiB of white space, chunked
          out.write(chunk);
        }
        sentAll.complete(true);
      } catch (IOException e) {
        sentAll.complete(false); // the client stopped reading and closed
        throw e;
      }
    })) {
      NodeClient client = new NodeClient(server.uri(), 0, Duration.ofSeconds(10), 64 * 1024);
      NodeException e =
          assertThrows(NodeException.class, () -> client.query(ALL, EMPTY_REQUEST));
      assertEquals("node " + server.uri() + ", " + ALL + ": the answer is larger than 65536"
          + " bytes", e.getMessage());
      assertEquals(false, sentAll.get(10, TimeUnit.SECONDS));
    }
  }

  /** Jackson refuses strings over 20 M characters by default; an answer's value may be one. */
  @Test
  void aValueLongerThanJacksonsDefaultStringLimit_isRead() throws IOException {
    byte[] value = new byte[15_300_000]; // 20.4 M characters of base64
    Arrays.fill(value, (byte) 7);
    String body = Reply.value(value, 1).body();
    try (RawServer server = RawServer.start(out -> out.write(body.getBytes(StandardCharsets.UTF_8)))) {
      NodeClient client =
          new NodeClient(server.uri(), 0, Duration.ofSeconds(20), NodeClient.MAX_ANSWER_BYTES * 2);
      assertArrayEquals(value, client.query(ALL, EMPTY_REQUEST));
    }
  }

  @Test
  void oneDeadline_coversEveryPathTried() throws IOException {
    try (FakeCometRpc rpc = FakeCometRpc.answering((path, data, height) -> {
      sleep(250);
      return FakeCometRpc.unknownPath();
    })) {
      NodeClient client = new NodeClient(rpc.uri(), 0, Duration.ofMillis(600));
      NodeException e = assertThrows(NodeException.class,
          () -> client.query("/ratelimit.v1.Query/RateLimitsByChannelOrClientId", EMPTY_REQUEST));
      assertTrue(e.getMessage().endsWith(": no whole answer within 600 ms"), e.getMessage());
      assertTrue(rpc.calls().size() < 5, rpc.paths().toString()); // 5 paths, 250 ms each
    }
  }

  @Test
  void anUnknownHost_isNamed() {
    URI uri = URI.create("http://no-such-host.invalid:26657");
    NodeException e = assertThrows(NodeException.class,
        () -> new NodeClient(uri, 0, Duration.ofSeconds(20)).query(ALL, EMPTY_REQUEST));
    assertEquals("cannot reach node http://no-such-host.invalid:26657: unknown host"
        + " \"no-such-host.invalid\"", e.getMessage());
  }

  @Test
  void anAnswerAtTheLimit_isRead() throws IOException {
    String answer = "{\"result\":{\"response\":{}}}";
    try (RawServer server = RawServer.start(out -> out.write(answer.getBytes(StandardCharsets.UTF_8)))) {
      NodeClient client = new NodeClient(server.uri(), 0, Duration.ofSeconds(10), answer.length());
      assertArrayEquals(new byte[0], client.query(ALL, EMPTY_REQUEST));
    }
  }

  @Test
  void aNodeThatClosesWithoutAnswering_failedTheExchange() throws IOException {
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      Thread closer = new Thread(() -> {
        try (java.net.Socket s = socket.accept()) {
          s.getInputStream().read(new byte[1024]); // take the request, answer nothing
        } catch (IOException ignored) {
          // the test reads the client's side
        }
      });
      closer.setDaemon(true);
      closer.start();
      URI uri = URI.create("http://127.0.0.1:" + socket.getLocalPort());
      NodeException e = assertThrows(NodeException.class,
          () -> new NodeClient(uri, 0, Duration.ofSeconds(10)).query(ALL, EMPTY_REQUEST));
      assertTrue(e.getMessage().startsWith("node " + uri + ", " + ALL + ": the exchange failed: "),
          e.getMessage());
    }
  }

  private static NodeClient client(FakeCometRpc rpc) {
    return new NodeClient(rpc.uri(), 0, Duration.ofSeconds(10));
  }

  private static RateLimit limit() {
    return RateLimit.newBuilder()
        .setPath(Path.newBuilder().setDenom("ustrd").setChannelOrClientId("channel-0"))
        .setQuota(Quota.newBuilder().setMaxPercentSend("10").setMaxPercentRecv("10")
            .setDurationHours(24))
        .setFlow(Flow.newBuilder().setInflow("0").setOutflow("5").setChannelValue("100"))
        .build();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** An HTTP server that sends 200 with a chunked body, written by {@code body}. */
  private record RawServer(HttpServer server) implements AutoCloseable {
    interface Body {
      void write(OutputStream out) throws IOException;
    }

    static RawServer start(Body body) throws IOException {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/", exchange -> {
        try (exchange) {
          exchange.getRequestBody().readAllBytes();
          exchange.sendResponseHeaders(200, 0); // chunked: the length is not known
          OutputStream out = exchange.getResponseBody();
          body.write(out);
          out.close();
        } catch (IOException ignored) {
          // the client went away: what it saw is the test's
        }
      });
      server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "raw-http");
        t.setDaemon(true);
        return t;
      }));
      server.start();
      return new RawServer(server);
    }

    URI uri() {
      return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
