package dev.ratelimit.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.ratelimit.core.RateLimitException;
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
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A node's CometBFT RPC in the test JVM: answers JSON-RPC {@code abci_query} (POST) in
 * CometBFT's shape, as {@code answer} decides, and records every call it gets.
 */
final class FakeCometRpc implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** One JSON-RPC call as it arrived. */
  record Call(String httpMethod, String contentType, JsonNode body) {
    JsonNode params() {
      return body.path("params");
    }
  }

  /** What the node answers one query with. */
  @FunctionalInterface
  interface Answer {
    Reply answer(String path, byte[] data, long height);
  }

  /** An HTTP status and body. */
  record Reply(int status, String body) {
    /** CometBFT's answer to a query that succeeded: the response bytes in {@code value}. */
    static Reply value(byte[] value, long height) {
      return new Reply(200, envelope(response(0, "", "", value, height)));
    }

    /** CometBFT's answer to a query the app failed: the app's code, codespace and log. */
    static Reply failed(int code, String codespace, String log) {
      return new Reply(200, envelope(response(code, codespace, log, null, 0)));
    }

    static ObjectNode response(int code, String codespace, String log, byte[] value, long height) {
      ObjectNode r = JSON.createObjectNode();
      r.put("code", code);
      r.put("log", log);
      r.put("info", "");
      r.put("index", "0");
      r.putNull("key");
      if (value == null || value.length == 0) {
        r.putNull("value"); // Go writes empty bytes as null
      } else {
        r.put("value", Base64.getEncoder().encodeToString(value));
      }
      r.putNull("proofOps");
      r.put("height", Long.toString(height));
      r.put("codespace", codespace);
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

  private final HttpServer server;
  private final List<Call> calls = new CopyOnWriteArrayList<>();

  private FakeCometRpc(Answer answer) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> handle(exchange, answer));
    server.start();
  }

  /** A node that answers with {@code answer}. */
  static FakeCometRpc answering(Answer answer) throws IOException {
    return new FakeCometRpc(answer);
  }

  /**
   * A node whose app routes {@code abci_query} to the query service, as a Java host would: a
   * module error becomes the ABCI response's code, codespace and log.
   */
  static FakeCometRpc serving(RateLimitQueryServer queries, BlockContext ctx) throws IOException {
    return answering((path, data, height) -> {
      try {
        return Reply.value(queries.query(ctx, path, data), ctx.height());
      } catch (RateLimitException e) {
        return Reply.failed(e.code().code(), e.code().codespace().id(), e.getMessage());
      }
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
  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  List<Call> calls() {
    return List.copyOf(calls);
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
