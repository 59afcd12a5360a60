package dev.ratelimit.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Message;
import dev.ratelimit.cli.query.ReferenceAnswer.Answered;
import dev.ratelimit.cli.query.ReferenceAnswer.Failed;
import dev.ratelimit.cli.query.ReferenceAnswer.Flow;
import dev.ratelimit.cli.query.ReferenceAnswer.Limit;
import dev.ratelimit.cli.query.ReferenceAnswer.Outcome;
import dev.ratelimit.cli.query.ReferenceAnswer.Pair;
import dev.ratelimit.cli.query.ReferenceAnswer.Path;
import dev.ratelimit.cli.query.ReferenceAnswer.Quota;
import dev.ratelimit.cli.query.ReferenceAnswer.Rpc;
import dev.ratelimit.proto.v1.QueryAllBlacklistedDenomsResponse;
import dev.ratelimit.proto.v1.QueryAllWhitelistedAddressesResponse;
import dev.ratelimit.proto.v1.QueryRateLimitResponse;
import dev.ratelimit.proto.v1.RateLimit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A node's answers to the CLI's queries ({@code --node}): the node is another machine, so its
 * HTTP body is hostile input. The body goes where the CLI takes it ({@code AbciAnswer.parse} for
 * each path the query may have, then {@link Queries} and {@link QueryOutput}'s text and JSON), and
 * {@link ReferenceAnswer} says what must come of it: the answer printed, or a {@link
 * NodeException} of the right exit. A failure is never another exception, and its message is one
 * bounded line with no character unsafe on a terminal; what prints holds none either (JSON
 * escapes them, a table cell quotes them).
 */
class NodeAnswerFuzzTest {
  private static final String NAME = "node http://127.0.0.1:26657";
  /**
   * The path asked and at most three of the node's texts (a JSON-RPC error's code, message and
   * data), each quoted and cut to 300 characters: under 1,070 in all.
   */
  private static final int MAX_MESSAGE = 1_100;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Any body; its last byte picks the method (so a saved body reads as it is, plus a digit). */
  @FuzzTest(maxDuration = "5m")
  void body_agreesWithTheReference(FuzzedDataProvider in) {
    Rpc rpc = Rpc.values()[in.consumeInt(0, Rpc.values().length - 1)];
    check(rpc, 200, in.consumeRemainingAsBytes());
  }

  /** CometBFT's shape with every field fuzzed, the value a response message well-formed or not. */
  @FuzzTest(maxDuration = "5m")
  void builtAnswer_agreesWithTheReference(FuzzedDataProvider in) {
    Rpc rpc = Rpc.values()[in.consumeInt(0, Rpc.values().length - 1)];
    int status = in.consumeInt(0, 15) == 0 ? in.pickValue(new int[] {204, 404, 500, 503}) : 200;
    check(rpc, status, AnswerBodies.body(in, rpc));
  }

  private static void check(Rpc rpc, int status, byte[] body) {
    Outcome expected = ReferenceAnswer.expected(rpc, status, body);
    QuerySource node = QuerySource.of(NAME, (path, request) -> NodeClient.firstServed(NAME, path,
        p -> NodeClient.AbciAnswer.parse(NAME + ", " + p, status, body)).value());
    Message response;
    try {
      response = ask(new Queries(node), rpc);
    } catch (NodeException e) {
      assertMessage(e.getMessage());
      assertEquals(expected, new Failed(e.moduleCode().map(c -> "module " + c.code())
          .orElse(e.refused() ? "refused" : "node")), e.getMessage());
      return;
    }
    assertEquals(expected, new Answered(items(rpc, response)));
    List<Object> items = ((Answered) expected).items();
    assertJson(QueryOutput.protoJson(response), rpc, items);
    if (!items.isEmpty() || rpc != Rpc.RATE_LIMIT) { // no limit there: code 2, no table
      assertTable(table(rpc, response), items);
    }
  }

  private static Message ask(Queries q, Rpc rpc) {
    return switch (rpc) {
      case ALL_RATE_LIMITS -> q.allRateLimits();
      case RATE_LIMIT -> q.rateLimit("uatom", "channel-0");
      case RATE_LIMITS_BY_CHAIN_ID -> q.rateLimitsByChainId("osmosis-1");
      case RATE_LIMITS_BY_CHANNEL_OR_CLIENT_ID -> q.rateLimitsByChannelOrClientId("channel-0");
      case ALL_BLACKLISTED_DENOMS -> q.allBlacklistedDenoms();
      case ALL_WHITELISTED_ADDRESSES -> q.allWhitelistedAddresses();
    };
  }

  /** The table the command prints (as {@code QueryCommands} picks it). */
  private static String table(Rpc rpc, Message response) {
    return switch (rpc) {
      case RATE_LIMIT ->
          QueryOutput.rateLimitsTable(List.of(((QueryRateLimitResponse) response).getRateLimit()));
      case ALL_BLACKLISTED_DENOMS -> QueryOutput.blacklistTable(
          ((QueryAllBlacklistedDenomsResponse) response).getDenomsList());
      case ALL_WHITELISTED_ADDRESSES -> QueryOutput.whitelistTable(
          ((QueryAllWhitelistedAddressesResponse) response).getAddressPairsList());
      default -> QueryOutput.rateLimitsTable(limits(response));
    };
  }

  /** The response's answer in the reference's terms. */
  private static List<Object> items(Rpc rpc, Message response) {
    return switch (rpc) {
      case RATE_LIMIT -> {
        QueryRateLimitResponse r = (QueryRateLimitResponse) response;
        yield r.hasRateLimit() ? List.of(limit(r.getRateLimit())) : List.of();
      }
      case ALL_BLACKLISTED_DENOMS ->
          List.copyOf(((QueryAllBlacklistedDenomsResponse) response).getDenomsList());
      case ALL_WHITELISTED_ADDRESSES ->
          ((QueryAllWhitelistedAddressesResponse) response).getAddressPairsList().stream()
              .map(p -> (Object) new Pair(p.getSender(), p.getReceiver())).toList();
      default -> limits(response).stream().map(l -> (Object) limit(l)).toList();
    };
  }

  @SuppressWarnings("unchecked")
  private static List<RateLimit> limits(Message response) {
    return (List<RateLimit>) response.getField(
        response.getDescriptorForType().findFieldByName("rate_limits"));
  }

  private static Limit limit(RateLimit l) {
    return new Limit(
        l.hasPath() ? new Path(l.getPath().getDenom(), l.getPath().getChannelOrClientId()) : null,
        l.hasQuota()
            ? new Quota(l.getQuota().getMaxPercentSend(), l.getQuota().getMaxPercentRecv(),
                l.getQuota().getDurationHours())
            : null,
        l.hasFlow()
            ? new Flow(l.getFlow().getInflow(), l.getFlow().getOutflow(),
                l.getFlow().getChannelValue())
            : null);
  }

  /**
   * Protobuf JSON of the answer (proto field names, every scalar and list present, a message
   * present when the answer has it, uint64 as a decimal string): read back, it is the answer.
   */
  private static void assertJson(String printed, Rpc rpc, List<Object> items) {
    assertTrue(printed.endsWith("\n"), printed);
    assertSafe(printed);
    ObjectNode expected = JSON.createObjectNode();
    switch (rpc) {
      case RATE_LIMIT -> items.forEach(l -> expected.set("rate_limit", json((Limit) l)));
      case ALL_BLACKLISTED_DENOMS -> {
        ArrayNode denoms = expected.putArray("denoms");
        items.forEach(d -> denoms.add((String) d));
      }
      case ALL_WHITELISTED_ADDRESSES -> {
        ArrayNode pairs = expected.putArray("address_pairs");
        items.forEach(p -> pairs.addObject().put("sender", ((Pair) p).sender())
            .put("receiver", ((Pair) p).receiver()));
      }
      default -> {
        ArrayNode limits = expected.putArray("rate_limits");
        items.forEach(l -> limits.add(json((Limit) l)));
      }
    }
    JsonNode read;
    try {
      read = JSON.readTree(printed.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(printed, e);
    }
    assertEquals(expected, read, printed);
  }

  private static ObjectNode json(Limit l) {
    ObjectNode o = JSON.createObjectNode();
    if (l.path() != null) {
      o.putObject("path").put("denom", l.path().denom())
          .put("channel_or_client_id", l.path().channelOrClientId());
    }
    if (l.quota() != null) {
      o.putObject("quota").put("max_percent_send", l.quota().maxPercentSend())
          .put("max_percent_recv", l.quota().maxPercentRecv())
          .put("duration_hours", Long.toUnsignedString(l.quota().durationHours()));
    }
    if (l.flow() != null) {
      o.putObject("flow").put("inflow", l.flow().inflow()).put("outflow", l.flow().outflow())
          .put("channel_value", l.flow().channelValue());
    }
    return o;
  }

  /**
   * A header, then one line per item; a cell whose every character is safe shows as it is (the
   * others are quoted with those escaped, which {@link #assertSafe} checks).
   */
  private static void assertTable(String table, List<Object> items) {
    assertSafe(table);
    assertTrue(table.endsWith("\n"), table);
    String[] lines = table.split("\n", -1);
    assertEquals(items.size() + 2, lines.length, table); // the last is after the last newline
    for (int i = 0; i < items.size(); i++) {
      for (String cell : cells(items.get(i))) {
        if (cell.codePoints().noneMatch(NodeAnswerFuzzTest::unsafe)) {
          assertTrue(lines[i + 1].contains(cell.strip()), () -> cell + " in " + table);
        }
      }
    }
  }

  private static List<String> cells(Object item) {
    if (item instanceof String denom) {
      return List.of(denom);
    }
    if (item instanceof Pair p) {
      return List.of(p.sender(), p.receiver());
    }
    Limit l = (Limit) item;
    List<String> cells = new ArrayList<>();
    Path path = l.path() == null ? new Path("", "") : l.path();
    Quota quota = l.quota() == null ? new Quota("", "", 0) : l.quota();
    Flow flow = l.flow() == null ? new Flow("", "", "") : l.flow();
    cells.addAll(List.of(path.channelOrClientId(), path.denom(), quota.maxPercentSend(),
        quota.maxPercentRecv(), Long.toUnsignedString(quota.durationHours())));
    cells.addAll(List.of(flow.inflow(), flow.outflow(), flow.channelValue()));
    return cells;
  }

  /** One line of at most {@link #MAX_MESSAGE} characters, none unsafe on a terminal. */
  private static void assertMessage(String message) {
    if (message == null || message.isBlank() || message.length() > MAX_MESSAGE
        || message.codePoints().anyMatch(NodeAnswerFuzzTest::unsafe)) {
      fail("a failure must be one line of 1-" + MAX_MESSAGE + " safe characters, got "
          + (message == null ? null : message.length() + ": " + escaped(message)));
    }
  }

  /** Printed text: no unsafe character but the newlines that end its lines. */
  private static void assertSafe(String printed) {
    if (printed.codePoints().anyMatch(c -> c != '\n' && unsafe(c))) {
      fail("printed an unsafe character: " + escaped(printed));
    }
  }

  /**
   * Unicode's control (Cc), format (Cf), line and paragraph separator (Zl, Zp) and surrogate (Cs)
   * categories: what may reorder, hide or break a terminal line.
   */
  static boolean unsafe(int c) {
    int type = Character.getType(c);
    return type == Character.CONTROL || type == Character.FORMAT
        || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR
        || type == Character.SURROGATE;
  }

  private static String escaped(String text) {
    StringBuilder sb = new StringBuilder();
    text.chars().limit(2000).forEach(c -> sb.append(unsafe(c)
        ? String.format(java.util.Locale.ROOT, "\\u%04x", c)
        : String.valueOf((char) c)));
    return sb.toString();
  }
}
