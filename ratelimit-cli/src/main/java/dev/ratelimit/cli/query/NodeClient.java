package dev.ratelimit.cli.query;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ratelimit.cli.StrictJson;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.model.JsonSyntax;
import dev.ratelimit.core.model.Texts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpConnectTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * Asks a running node through its CometBFT RPC: each query is a JSON-RPC {@code abci_query}
 * POSTed to the node's RPC address, with the method path and the request as hex, as the Cosmos
 * SDK's {@code --node} queries are. A node that does not serve this library's path ({@code
 * /ratelimit.v1.Query/...}) is asked the same query under the module's other services ({@link
 * QueryPaths}): ibc-go's and Stride's.
 *
 * <p>Every failure is a {@link NodeException}: one line naming the node and the path asked, with
 * what the node said escaped and cut ({@link Texts#quote}), since it is another machine's text.
 */
public final class NodeClient implements QuerySource {
  /** How long a query may take, connecting and reading the whole answer included. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

  /**
   * The largest answer read: some 60,000 limits (as base64 in JSON), where chains have hundreds.
   * Reading one takes about ten times as much memory (body, text, tree, bytes).
   */
  static final int MAX_ANSWER_BYTES = 16 << 20;

  private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
      // the answer's size is bounded above; Jackson's own 20 M-character string limit is not ours
      .streamReadConstraints(StreamReadConstraints.builder()
          .maxStringLength(Integer.MAX_VALUE).build())
      .build());
  private static final int SHOWN = 300; // characters of the node's own text in a message
  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  private static final String HINT =
      "expected a URL such as http://localhost:26657 (tcp:// is taken as http://)";

  private final URI endpoint;
  private final long height;
  private final Duration timeout;
  private final Duration connectTimeout;
  private final int maxAnswerBytes;
  private final HttpClient http;

  /**
   * @param endpoint the node's RPC address, from {@link #endpoint(String)}
   * @param height the block height to answer at; 0 is the node's latest
   * @param timeout how long one query may take, its answer read to the end
   */
  public NodeClient(URI endpoint, long height, Duration timeout) {
    this(endpoint, height, timeout, MAX_ANSWER_BYTES);
  }

  NodeClient(URI endpoint, long height, Duration timeout, int maxAnswerBytes) {
    this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    if (height < 0) {
      throw new IllegalArgumentException("height must not be negative: " + height);
    }
    this.height = height;
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.connectTimeout = timeout.compareTo(CONNECT_TIMEOUT) < 0 ? timeout : CONNECT_TIMEOUT;
    this.maxAnswerBytes = maxAnswerBytes;
    this.http = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1) // no h2c upgrade: proxies in front of RPC refuse it
        .connectTimeout(connectTimeout)
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
    String raw = node.strip();
    if (authority(raw).contains("@")) { // checked first: no message below may repeat it
      throw new IllegalArgumentException("--node: a user name or password in the URL is not"
          + " supported (the client sends no credentials)");
    }
    String named = "--node " + Texts.quote(redacted(raw));
    URI uri;
    try {
      uri = new URI(raw);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(named + " is not a URL: " + e.getReason() + "; " + HINT);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!List.of("http", "https", "tcp").contains(scheme) || uri.getRawAuthority() == null) {
      throw new IllegalArgumentException(named + ": " + HINT);
    }
    if (uri.getHost() == null) { // java.net.URI found no host and port in the authority
      String authority = raw.contains("@") ? "its authority" : Texts.quote(uri.getRawAuthority());
      throw new IllegalArgumentException(named + ": " + authority + " is not a host and port"
          + " Java's HTTP client takes (give a host name with '_' as its address; a port is 1 to"
          + " 65535)");
    }
    if (uri.getPort() == 0 || uri.getPort() > 65535) {
      throw new IllegalArgumentException(named + ": port " + uri.getPort() + " is out of range");
    }
    // tcp:// is HTTP: the rest of the text as given (its escapes and query untouched)
    return scheme.equals("tcp") ? URI.create("http" + raw.substring("tcp".length())) : uri;
  }

  /**
   * {@code raw} fit to repeat in a message: with everything before its last '@' but the scheme
   * replaced by {@code ***} (a password holding '/', '?' or '#', or a mistyped scheme, hides a
   * credential from {@link #authority}), and without its query and fragment, and its path shown
   * as {@code /...} (any of them may hold a key: RPC providers put one in the path). What a
   * refusal is about (the scheme, the host, the port) stays.
   */
  private static String redacted(String raw) {
    int at = raw.lastIndexOf('@');
    int start = raw.indexOf("://");
    String scheme = start < 0 || (at >= 0 && start > at) ? "" : raw.substring(0, start + 3);
    String text = (at < 0 ? raw : scheme + "***" + raw.substring(at)).split("[?#]", 2)[0];
    int hostAt = text.indexOf("://");
    int path = text.indexOf('/', hostAt < 0 ? 0 : hostAt + 3);
    return path < 0 || path == text.length() - 1 ? text : text.substring(0, path) + "/...";
  }

  /** The text between "://" and the path, query or fragment (all of it when no "://"). */
  private static String authority(String raw) {
    int start = raw.indexOf("://");
    String rest = start < 0 ? raw : raw.substring(start + 3);
    int end = rest.length();
    for (char c : new char[] {'/', '?', '#'}) {
      int at = rest.indexOf(c);
      if (at >= 0 && at < end) {
        end = at;
      }
    }
    return rest.substring(0, end);
  }

  /** The RPC address asked. */
  public URI endpoint() {
    return endpoint;
  }

  /** {@code node scheme://host:port}: the path and query (which may hold a key) left out. */
  @Override
  public String name() {
    return "node " + endpoint.getScheme().toLowerCase(Locale.ROOT) + "://"
        + endpoint.getRawAuthority();
  }

  @Override
  public byte[] query(String path, byte[] request) {
    return answer(path, request).value();
  }

  @Override
  public Answer answer(String path, byte[] request) {
    long deadline = System.nanoTime() + timeout.toNanos(); // one for the query, every path tried
    return firstServed(name(), path, p -> ask(p, request, deadline));
  }

  /**
   * The first of {@code path}'s paths ({@link QueryPaths}) that the node {@code name} serves, with
   * its value, given its answer to each: what {@link #answer} makes of the answers, apart from the
   * exchange (so a fuzz test can give it answers without a server).
   */
  static Answer firstServed(String name, String path, Function<String, AbciAnswer> answerTo) {
    List<String> paths = QueryPaths.candidates(path);
    for (String p : paths) {
      AbciAnswer answer = answerTo.apply(p);
      if (answer.code() == 0) {
        return new Answer(p, answer.value());
      }
      if (!answer.unknownPath()) {
        throw failure(name + ", " + p, answer);
      }
    }
    throw new NodeException(name + ": no rate-limit query service answers " + path + " (tried "
        + String.join(", ", paths) + "; each is an unknown query path there): does the chain run"
        + " the rate-limit module?");
  }

  private AbciAnswer ask(String path, byte[] request, long deadline) {
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
    HttpResponse<byte[]> response =
        post(path, call.toString().getBytes(StandardCharsets.UTF_8), deadline);
    return AbciAnswer.parse(name() + ", " + path, response.statusCode(), response.body());
  }

  /**
   * The exchange, bounded in time and size as a whole (java.net.http's own request timeout would
   * end when the headers arrive, so the wait for the whole answer is the bound).
   */
  private HttpResponse<byte[]> post(String path, byte[] body, long deadline) {
    String where = name() + ", " + path;
    HttpRequest request;
    try {
      request = HttpRequest.newBuilder(endpoint)
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofByteArray(body))
          .build();
    } catch (IllegalArgumentException e) { // endpoint() refuses what this would
      throw new NodeException(where + ": cannot ask: " + e.getMessage(), e);
    }
    CompletableFuture<HttpResponse<byte[]>> exchange =
        http.sendAsync(request, info -> new LimitedBody(maxAnswerBytes));
    try {
      return exchange.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      exchange.cancel(true);
      throw new NodeException(where + ": no whole answer within " + timeout.toMillis() + " ms", e);
    } catch (InterruptedException e) {
      exchange.cancel(true);
      Thread.currentThread().interrupt();
      throw new NodeException(where + ": interrupted", e);
    } catch (ExecutionException e) {
      throw exchangeFailed(where, e.getCause());
    }
  }

  /** What a failed exchange says; an out-of-memory error in it stays one (the CLI says what to do). */
  NodeException exchangeFailed(String where, Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof OutOfMemoryError oom) { // the HTTP client's thread ran out reading
        throw oom;
      }
    }
    if (cause instanceof AnswerTooLarge) {
      return new NodeException(where + ": the answer is larger than " + sizeOf(maxAnswerBytes),
          cause);
    }
    if (cause instanceof HttpConnectTimeoutException) {
      return new NodeException("cannot reach " + name() + ": no connection within "
          + connectTimeout.toMillis() + " ms", cause);
    }
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof UnresolvedAddressException || t instanceof UnknownHostException) {
        return new NodeException(
            "cannot reach " + name() + ": unknown host " + Texts.quote(endpoint.getHost()), cause);
      }
    }
    for (Throwable t = cause; t != null; t = t.getCause()) {
      if (t instanceof ConnectException) {
        return new NodeException("cannot reach " + name() + ": " + shown(message(cause))
            + " (is the node running, with its RPC listening on that address?)", cause);
      }
    }
    return new NodeException(where + ": the exchange failed: " + shown(message(cause)), cause);
  }

  private static String sizeOf(int bytes) {
    return bytes % (1 << 20) == 0 ? (bytes >> 20) + " MiB" : bytes + " bytes";
  }

  /** The first message in the chain, or the exception's name (java.net.http often has none). */
  private static String message(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t.getMessage() != null) {
        return t.getMessage();
      }
    }
    return e.getClass().getSimpleName();
  }

  /** A non-zero code: the module's own error, a request the node refused, or a node failure. */
  private static NodeException failure(String where, AbciAnswer a) {
    boolean module = a.codespace().equals(ErrorCode.Codespace.RATELIMIT.id());
    if (module && a.code() <= Integer.MAX_VALUE) {
      try {
        ErrorCode known = ErrorCode.ofRateLimitCode((int) a.code());
        return NodeException.moduleError(
            where + ": " + shown(a.log()) + " (code " + known.label() + ")", known);
      } catch (IllegalArgumentException unknownCode) {
        // a code of a newer release of the module: a node failure like any other below
      }
    }
    String text = where + ": code " + a.code()
        + (a.codespace().isEmpty()
            ? ""
            : " in codespace " + Texts.quote(a.codespace(), SHOWN, TerminalText::unsafe)) + ": "
        + shown(a.log());
    // the SDK's invalid request (18: a pruned or negative height, a malformed request) and
    // invalid height (26: a height in the future) are the request's fault, as from a home
    boolean refused = a.codespace().equals(ErrorCode.Codespace.SDK.id())
        && (a.code() == ErrorCode.INVALID_REQUEST.code() || a.code() == 26);
    return refused ? NodeException.refused(text) : new NodeException(text);
  }

  /** Another machine's text in one of our lines: as it is, or escaped and cut. */
  static String shown(String text) {
    return TerminalText.shown(text, SHOWN);
  }

  /**
   * The part of an {@code abci_query} answer read: CometBFT leaves out every field at its zero
   * value ({@code {"response": {"height": "42"}}} is a success with an empty value). The reading
   * side of what a host fills from {@code RateLimitQueryServer.AbciAnswer}; kept apart because it
   * takes any node's code (uint32) and does not copy a value of up to 16 MiB, as that defensive
   * record does.
   */
  record AbciAnswer(long code, String codespace, String log, byte[] value) {
    private static final String EMPTY = "(empty body)";

    /** The node does not serve the path (baseapp: "unknown query path", sdk code 6). */
    boolean unknownPath() {
      return code == 6 && codespace.equals(ErrorCode.Codespace.SDK.id())
          && log.contains("unknown query path");
    }

    static AbciAnswer parse(String where, int status, byte[] body) {
      JsonNode root = null;
      String problem = "not an object";
      try {
        // strict UTF-8 and JSON's syntax first (JsonSyntax, as for every JSON text the library
        // reads): Jackson alone reads UTF-16 and malformed UTF-8, stops after the first value
        // and keeps the last of two equal names, so one answer could read one way here and
        // another elsewhere
        Optional<String> text = StrictJson.strictUtf8(body); // RFC 8259 §8.1
        Optional<String> syntax =
            text.isEmpty() ? Optional.of("not valid UTF-8") : JsonSyntax.problem(text.get());
        if (syntax.isPresent()) {
          problem = syntax.get();
        } else {
          root = JSON.readTree(text.get()); // decoded once, above
        }
      } catch (JsonProcessingException e) { // readTree of a String throws no other IOException
        problem = e.getOriginalMessage();
      }
      if (root == null || !root.isObject()) {
        String excerpt = excerpt(body);
        throw new NodeException(where + ": HTTP " + status + ", not a JSON-RPC answer"
            + (excerpt.equals(EMPTY) ? "" : " (" + shown(problem) + ")") + ": " + excerpt);
      }
      JsonNode error = root.get("error");
      if (error != null && !error.isNull()) {
        String data = error.path("data").asText("");
        throw new NodeException(where + ": JSON-RPC error " + shown(error.path("code").asText("?"))
            + ": " + shown(error.path("message").asText(""))
            + (data.isEmpty() ? "" : ": " + shown(data)));
      }
      if (status != 200) {
        throw new NodeException(where + ": HTTP " + status + ": " + excerpt(body));
      }
      JsonNode answer = root.path("result").path("response");
      if (!answer.isObject()) {
        throw new NodeException(where + ": the answer has no result.response: " + excerpt(body));
      }
      JsonNode code = answer.path("code");
      if (!code.isMissingNode() && !code.isNull()
          && !(code.isIntegralNumber() && code.canConvertToLong())) {
        throw new NodeException(where + ": the answer's code is not a number: "
            + shown(code.toString()));
      }
      return new AbciAnswer(code.asLong(0), answer.path("codespace").asText(""),
          answer.path("log").asText(""), value(where, answer.get("value")));
    }

    private static byte[] value(String where, JsonNode value) {
      if (value == null || value.isNull()) { // left out at its zero value: an empty message
        return new byte[0];
      }
      if (!value.isTextual()) {
        throw new NodeException(where + ": the answer's value is not a base64 string: "
            + shown(value.toString()));
      }
      String text = value.textValue();
      // RFC 4648 §3.2 pads, as CometBFT does; java.util.Base64 alone takes a value unpadded
      if (text.length() % 4 != 0) {
        throw new NodeException(where + ": the answer's value is not base64: its length, "
            + text.length() + ", is not a multiple of 4");
      }
      try {
        return Base64.getDecoder().decode(text);
      } catch (IllegalArgumentException e) {
        throw new NodeException(where + ": the answer's value is not base64: " + e.getMessage());
      }
    }

    private static String excerpt(byte[] body) {
      String text = new String(body, StandardCharsets.UTF_8).strip();
      return text.isEmpty() ? EMPTY : Texts.quote(text, SHOWN, TerminalText::unsafe);
    }
  }

  /** The answer is larger than {@link #MAX_ANSWER_BYTES}. */
  private static final class AnswerTooLarge extends IOException {
    private static final long serialVersionUID = 1L;
  }

  /** Collects a body up to a size; beyond it, stops reading and fails with AnswerTooLarge. */
  private static final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {
    private final CompletableFuture<byte[]> body = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final int limit;
    private Flow.Subscription subscription;

    LimitedBody(int limit) {
      this.limit = limit;
    }

    @Override
    public CompletionStage<byte[]> getBody() {
      return body;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> buffers) {
      if (body.isDone()) {
        return;
      }
      for (ByteBuffer b : buffers) {
        if (b.remaining() > limit - bytes.size()) {
          subscription.cancel();
          body.completeExceptionally(new AnswerTooLarge());
          return;
        }
        byte[] chunk = new byte[b.remaining()];
        b.get(chunk);
        bytes.write(chunk, 0, chunk.length);
      }
    }

    @Override
    public void onError(Throwable t) {
      body.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
      body.complete(bytes.toByteArray());
    }
  }
}
