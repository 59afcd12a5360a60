package dev.ratelimit.cli.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.query.RateLimitQueryServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A node's CometBFT RPC in the test JVM: answers JSON-RPC {@code abci_query} (POST) in
 * CometBFT's shape, as {@code answer} decides, and records every call it gets.
 */
public final class FakeCometRpc implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One JSON-RPC call as it arrived. */
  public record Call(String httpMethod, String contentType, JsonNode body) {
    public JsonNode params() {
      return body.path("params");
    }

    public String path() {
      return params().path("path").asText();
    }
  }

  /** What the node answers one query with. */
  @FunctionalInterface
  public interface Answer {
    Reply answer(String path, byte[] data, long height) throws IOException;
  }

  /** An HTTP status and body. */
  public record Reply(int status, String body) {
    /**
     * CometBFT's answer to a query that succeeded. Its JSON leaves out every field at its zero
     * value (code 0, an empty value, an empty log), so an empty response is just the height.
     */
    public static Reply value(byte[] value, long height) {
      return new Reply(200, envelope(response(0, "", "", value, height)));
    }

    /** CometBFT's answer to a query the app failed: the app's code, codespace and log. */
    public static Reply failed(int code, String codespace, String log) {
      return new Reply(200, envelope(response(code, codespace, log, new byte[0], 7)));
    }

    static ObjectNode response(int code, String codespace, String log, byte[] value, long height) {
      ObjectNode r = JSON.createObjectNode();
      if (code != 0) {
        r.put("code", code);
      }
      if (!log.isEmpty()) {
        r.put("log", log);
      }
      if (value.length > 0) {
        r.put("value", Base64.getEncoder().encodeToString(value));
      }
      if (height != 0) {
        r.put("height", Long.toString(height));
      }
      if (!codespace.isEmpty()) {
        r.put("codespace", codespace);
      }
      return r;
    }

    static String envelope(ObjectNode response) {
      ObjectNode root = JSON.createObjectNode();
      root.put("jsonrpc", "2.0");
      root.put("id", 1);
      root.putObject("result").set("response", response);
      return root.toString();
    }
  }

  /** Baseapp's answer to a path no module serves. */
  public static Reply unknownPath() {
    return Reply.failed(6, "sdk", "unknown query path: unknown request");
  }

  private final HttpServer server;
  private final List<Call> calls = new CopyOnWriteArrayList<>();

  private FakeCometRpc(Answer answer) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> handle(exchange, answer));
    server.setExecutor(Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "fake-comet-rpc");
      t.setDaemon(true); // a handler a test left sleeping never holds the JVM
      return t;
    }));
    server.start();
  }

  /** A node that answers with {@code answer}. */
  public static FakeCometRpc answering(Answer answer) throws IOException {
    return new FakeCometRpc(answer);
  }

  /**
   * A node whose app routes {@code abci_query} to the query service's {@code abciQuery}, as a
   * Java host would.
   */
  public static FakeCometRpc serving(RateLimitQueryServer queries, BlockContext ctx)
      throws IOException {
    return servingUnder(Map.of(), queries, ctx);
  }

  /**
   * A node whose app serves the query service's methods under other paths only, as a Go chain of
   * another service does: {@code renamed} maps each to this library's ({@code
   * /ratelimit.v1.Query/...}); every other path is unknown.
   */
  public static FakeCometRpc servingUnder(
      Map<String, String> renamed, RateLimitQueryServer queries, BlockContext ctx)
      throws IOException {
    return answering((path, data, height) -> {
      String ours = renamed.isEmpty() ? path : renamed.get(path);
      if (ours == null) {
        return unknownPath();
      }
      RateLimitQueryServer.AbciAnswer a = queries.abciQuery(ctx, ours, data);
      return a.code() == 0
          ? Reply.value(a.value(), ctx.height())
          : Reply.failed(a.code(), a.codespace(), a.log());
    });
  }

  private void handle(HttpExchange exchange, Answer answer) throws IOException {
    try (exchange) {
      byte[] in = exchange.getRequestBody().readAllBytes();
      JsonNode body = JSON.readTree(in);
      calls.add(new Call(exchange.getRequestMethod(),
          exchange.getRequestHeaders().getFirst("Content-Type"), body));
      JsonNode p = body.path("params");
      Reply reply = answer.answer(
          p.path("path").asText(),
          HexFormat.of().parseHex(p.path("data").asText()),
          Long.parseLong(p.path("height").asText("0")));
      byte[] out = reply.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(reply.status(), out.length == 0 ? -1 : out.length);
      if (out.length > 0) {
        try (OutputStream o = exchange.getResponseBody()) {
          o.write(out);
        }
      }
    }
  }

  /** The RPC address, {@code http://127.0.0.1:<port>}. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  public List<Call> calls() {
    return List.copyOf(calls);
  }

  /** The paths asked, in order. */
  public List<String> paths() {
    return calls.stream().map(Call::path).toList();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
