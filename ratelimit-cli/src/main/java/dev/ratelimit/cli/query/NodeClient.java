package dev.ratelimit.cli.query;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.model.Texts;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;

/**
 * Asks a running node through its CometBFT RPC: each query is a JSON-RPC {@code abci_query}
 * (POST to the node's RPC address) with the method path and the request as hex, as the Cosmos
 * SDK's {@code --node} queries do. It works against any chain that serves {@code ratelimit.v1}
 * queries through ABCI: a Java host that routes {@code abci_query} to {@code
 * RateLimitQueryServer}, or a Go chain with the rate-limiting module.
 *
 * <p>Every failure is a {@link NodeException}. One the node answers in the module's codespace, or
 * in an SDK class the module uses, carries that {@link ErrorCode} (so the command exits as for
 * the same error from a home).
 */
public final class NodeClient implements QuerySource {
  /** How long a query may take, connecting included. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int SHOWN = 200; // characters of a body that is no answer, in a message

  private final URI endpoint;
  private final long height;
  private final Duration timeout;
  private final HttpClient http;

  /**
   * @param endpoint the node's RPC address, from {@link #endpoint(String)}
   * @param height the block height to answer at; 0 is the node's latest
   * @param timeout how long one query may take
   */
  public NodeClient(URI endpoint, long height, Duration timeout) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    if (height < 0) {
      throw new IllegalArgumentException("height must not be negative: " + height);
    }
    this.height = height;
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1) // no h2c upgrade: proxies in front of RPC refuse it
        .connectTimeout(timeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  /**
   * The RPC address an operator gives: {@code http://} or {@code https://} with a host, or
   * CometBFT's {@code tcp://host:port}, which is HTTP.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  public static URI endpoint(String node) {
    Objects.requireNonNull(node, "node");
    String hint = "expected a URL such as http://localhost:26657 (tcp:// is taken as http://)";
    URI uri;
    try {
      uri = new URI(node.strip());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "--node " + Texts.quote(node) + " is not a URL: " + e.getReason() + "; " + hint);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https") && !scheme.equals("tcp")
        || uri.getHost() == null) {
      throw new IllegalArgumentException("--node " + Texts.quote(node) + ": " + hint);
    }
    if (scheme.equals("tcp")) {
      try {
        return new URI("http", uri.getRawAuthority(), uri.getRawPath(), null, null);
      } catch (URISyntaxException e) {
        throw new IllegalArgumentException("--node " + Texts.quote(node) + ": " + hint);
      }
    }
    return uri;
  }

  /** The RPC address asked. */
  public URI endpoint() {
    return endpoint;
  }

  @Override
  public byte[] query(String path, byte[] request) {
    ObjectNode params = JSON.createObjectNode();
    params.put("path", path);
    params.put("data", HexFormat.of().withUpperCase().formatHex(request));
    params.put("height", Long.toString(height)); // CometBFT reads 64-bit numbers as strings
    params.put("prove", false);
    ObjectNode call = JSON.createObjectNode();
    call.put("jsonrpc", "2.0");
    call.put("id", 1);
    call.put("method", "abci_query");
    call.set("params", params);

    HttpResponse<byte[]> response = post(path, call.toString().getBytes(StandardCharsets.UTF_8));
    return value(path, response.statusCode(), response.body());
  }

  private HttpResponse<byte[]> post(String path, byte[] body) {
    HttpRequest request = HttpRequest.newBuilder(endpoint)
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body))
        .build();
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (HttpTimeoutException e) {
      throw new NodeException("node " + endpoint + " did not answer " + path + " within "
          + timeout.toMillis() + " ms", e);
    } catch (IOException e) {
      throw new NodeException("cannot reach node " + endpoint + ": " + describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new NodeException("interrupted while asking node " + endpoint, e);
    }
  }

  /** The response bytes of a JSON-RPC answer, or what is wrong with the answer. */
  private byte[] value(String path, int status, byte[] body) {
    String where = "node " + endpoint + ", " + path;
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      root = null;
    }
    if (root == null || !root.isObject()) {
      throw new NodeException(where + ": HTTP " + status + ", not a JSON-RPC answer: "
          + excerpt(body));
    }
    JsonNode error = root.get("error");
    if (error != null && !error.isNull()) {
      String data = error.path("data").asText("");
      throw new NodeException(where + ": JSON-RPC error " + error.path("code").asText("?") + ": "
          + error.path("message").asText("") + (data.isEmpty() ? "" : ": " + data));
    }
    if (status != 200) {
      throw new NodeException(where + ": HTTP " + status + ": " + excerpt(body));
    }
    JsonNode answer = root.path("result").path("response");
    if (!answer.isObject()) {
      throw new NodeException(where + ": the answer has no result.response: " + excerpt(body));
    }
    JsonNode code = answer.path("code");
    if (!code.isMissingNode() && !code.isNull() && !code.canConvertToLong()) {
      throw new NodeException(where + ": the answer's code is not a number: " + code);
    }
    long c = code.asLong(0);
    if (c != 0) {
      throw failure(where, c, answer.path("codespace").asText(""), answer.path("log").asText(""));
    }
    JsonNode value = answer.get("value");
    if (value == null || value.isNull()) { // an empty response message: Go writes nil bytes as null
      return new byte[0];
    }
    if (!value.isTextual()) {
      throw new NodeException(where + ": the answer's value is not a base64 string: " + value);
    }
    try {
      return Base64.getDecoder().decode(value.textValue());
    } catch (IllegalArgumentException e) {
      throw new NodeException(where + ": the answer's value is not base64: " + e.getMessage());
    }
  }

  /** A non-zero code: the module's own error (its label shown, as for a home), or another. */
  static NodeException failure(String where, long code, String codespace, String log) {
    for (ErrorCode known : ErrorCode.values()) {
      if (known.codespace().id().equals(codespace) && known.code() == code) {
        return NodeException.answered(
            where + ": " + log + " (code " + known.label() + ")", known);
      }
    }
    String hint = codespace.equals("sdk") && code == 6 // baseapp's "unknown query path"
        ? " (does the chain run the rate-limit module, ratelimit.v1?)"
        : "";
    return new NodeException(where + ": code " + code
        + (codespace.isEmpty() ? "" : " in codespace " + Texts.quote(codespace)) + ": " + log
        + hint);
  }

  private static String excerpt(byte[] body) {
    String text = new String(body, StandardCharsets.UTF_8).strip();
    if (text.isEmpty()) {
      return "(empty body)";
    }
    return Texts.quote(text, SHOWN);
  }

  private static String describe(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null) { // java.net.http often wraps a refused connection without one
        return t.getMessage();
      }
    }
    return e.getClass().getSimpleName()
        + (e instanceof java.net.ConnectException
            ? " (is the node running, with its RPC listening on that address?)"
            : "");
  }
}
