package dev.ratelimit.cli.query;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
      assertEquals("node " + rpc.uri() + ", " + ALL + ": field max_percent_send of Quota has"
          + " another type in the answer than in ratelimit.v1 (a node of another release of the"
          + " module?)", e.getMessage());
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
  void anAnswerLargerThanTheLimit_isRefused_withoutReadingItAll() throws IOException {
    byte[] chunk = new byte[4096];
    Arrays.fill(chunk, (byte) ' ');
    try (RawServer server = RawServer.start(out -> {
      for (int i = 0; i < 1024; i++) { // 4 MiB of white space, chunked
        out.write(chunk);
      }
    })) {
      NodeClient client = new NodeClient(server.uri(), 0, Duration.ofSeconds(10), 64 * 1024);
      NodeException e =
          assertThrows(NodeException.class, () -> client.query(ALL, EMPTY_REQUEST));
      assertEquals("node " + server.uri() + ", " + ALL + ": the answer is larger than 65536"
          + " bytes", e.getMessage());
    }
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
