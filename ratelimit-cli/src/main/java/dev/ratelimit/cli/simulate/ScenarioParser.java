package dev.ratelimit.cli.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.Any;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;
import dev.ratelimit.cli.StrictJson;
import dev.ratelimit.core.genesis.ProtoJson;
import dev.ratelimit.middleware.ibc.GoJson;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.proto.v1.GenesisState;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads scenario files strictly (docs/SCENARIOS.md): unknown keys anywhere, an unknown op, a
 * value of the wrong type, both {@code time} and {@code advance_seconds}, or time or height going
 * backwards fail with a {@link MalformedScenarioException} naming the file, the scenario and the
 * step. Everything a run needs is checked here, before anything runs.
 */
public final class ScenarioParser {
  static final String DEFAULT_CHAIN_ID = "testchain-1";
  static final String DEFAULT_AUTHORITY = "authority";
  static final Instant DEFAULT_START_TIME = Instant.parse("2024-01-01T00:00:00Z");
  static final String DEFAULT_PORT = "transfer";
  static final String DEFAULT_COUNTERPARTY_CHANNEL = "channel-0";
  static final String DEFAULT_COUNTERPARTY_CHAIN = "counterparty-1";

  /** Every op of the format, in the order docs/SCENARIOS.md lists them. */
  public static final List<String> OPS =
      List.of(
          "begin_block", "set_supply", "add_channel", "add_client", "msg", "proposal", "send",
          "recv", "write_ack", "ack", "timeout", "blacklist_add", "blacklist_remove",
          "whitelist_add", "whitelist_remove", "check_rate_limit", "check_pending", "check_epoch",
          "check_blacklist", "check_whitelist", "check_export", "check_query");

  /** Ops whose {@code expect} is {@code {ok, code}}. */
  private static final Set<String> OUTCOME_OPS =
      Set.of(
          "begin_block", "set_supply", "add_channel", "add_client", "msg", "proposal", "send",
          "write_ack", "ack", "timeout", "blacklist_add", "blacklist_remove", "whitelist_add",
          "whitelist_remove");

  /** Ops whose {@code expect} may say whether the stand-in app was called. */
  private static final Set<String> APP_CALLED_OPS = Set.of("recv", "ack", "timeout", "write_ack");

  private static final Set<String> QUERIES =
      Set.of("all_rate_limits", "rate_limits_by_channel", "rate_limits_by_chain", "remaining_capacity");

  private static final List<String> SCENARIO_KEYS =
      List.of(
          "name", "chain_id", "authority", "start_time", "start_height", "channels", "clients",
          "supply", "genesis", "expect_genesis", "steps");
  private static final List<String> CHANNEL_KEYS =
      List.of(
          "channel_id", "port_id", "counterparty_channel_id", "counterparty_port_id",
          "counterparty_chain_id");
  private static final List<String> CLIENT_KEYS = List.of("client_id", "counterparty_chain_id");
  private static final List<String> PACKET_KEYS =
      List.of(
          "sequence", "source_port", "source_channel", "destination_port", "destination_channel",
          "data", "data_raw", "timeout_height", "timeout_timestamp");
  private static final List<String> DATA_KEYS =
      List.of("denom", "amount", "sender", "receiver", "memo");

  /** The keys a step of this op may have. */
  private static List<String> stepKeys(String op) {
    List<String> keys = new ArrayList<>(List.of("op", "expect_events", "expect_no_events", "expect"));
    keys.addAll(
        switch (op) {
          case "begin_block" -> List.of("time", "advance_seconds", "height");
          case "set_supply" -> List.of("denom", "amount");
          case "add_channel" -> CHANNEL_KEYS;
          case "add_client" -> CLIENT_KEYS;
          case "msg" -> List.of("msg");
          case "proposal" -> List.of("messages");
          case "send", "timeout" -> List.of("packet");
          case "recv" -> List.of("packet", "app_ack");
          case "write_ack" -> List.of("packet", "ack");
          case "ack" -> List.of("packet", "acknowledgement", "acknowledgement_base64");
          case "blacklist_add", "blacklist_remove" -> List.of("denom");
          case "whitelist_add", "whitelist_remove" -> List.of("sender", "receiver");
          case "check_rate_limit" ->
              List.of("denom", "channel_or_client_id", "flow", "quota", "absent");
          case "check_pending" ->
              List.of("channel_or_client_id", "denom", "send_sequences", "recv_sequences");
          case "check_epoch" -> List.of("epoch_number", "epoch_start_time", "epoch_start_height");
          case "check_blacklist" -> List.of("denoms");
          case "check_whitelist" -> List.of("pairs");
          case "check_export" -> List.of("genesis");
          case "check_query" -> List.of("query", "denom", "channel_or_client_id", "chain_id");
          default -> List.of();
        });
    return keys;
  }

  private static final String PROTOBUF_TYPE_URL_PREFIX = "type.googleapis.com/";

  private static final JsonFormat.Parser MSG_PARSER =
      JsonFormat.parser().usingTypeRegistry(MsgTypes.REGISTRY);
  // check_export's expected genesis: lenient on purpose (FORMAT.md: numbers in checks compare
  // numerically, so "48" and 48 are one expectation), unlike the genesis a scenario loads
  private static final JsonFormat.Parser GENESIS_PARSER = JsonFormat.parser();

  private ScenarioParser() {}

  private static byte[] read(Path file, String displayName) {
    try {
      return Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      throw new MalformedScenarioException(displayName + ": no such file", e);
    } catch (IOException e) {
      throw new MalformedScenarioException(
          displayName + ": cannot read the file: " + e.getClass().getSimpleName() + ": "
              + e.getMessage(), e);
    }
  }

  /**
   * A file's scenarios that are well formed, and a problem for each one that is not (or one for
   * the whole file, when it is not JSON or not a scenario file at all).
   */
  public record Parsed(List<Scenario> scenarios, List<MalformedScenarioException> malformed) {
    public Parsed {
      scenarios = List.copyOf(scenarios);
      malformed = List.copyOf(malformed);
    }

    /**
     * The scenarios, for a caller that takes a file whole or not at all.
     *
     * @throws MalformedScenarioException the first problem, when any scenario is malformed
     */
    public List<Scenario> requireWellFormed() {
      if (!malformed.isEmpty()) {
        throw malformed.get(0);
      }
      return scenarios;
    }
  }

  /**
   * Reads and parses one file, scenario by scenario: a malformed scenario does not hide the
   * file's others.
   *
   * @param displayName how failure lines name the file
   * @throws MalformedScenarioException when the file cannot be read (no such file)
   */
  public static Parsed parseFile(Path file, String displayName) {
    return parse(displayName, read(file, displayName));
  }

  /**
   * Parses a file's content scenario by scenario: one scenario object, {@code {"scenarios":
   * [...]}} or (a generator's shortcut) a bare list of scenarios.
   */
  public static Parsed parse(String file, byte[] content) {
    Where where = Where.file(file);
    JsonNode root;
    try {
      root = StrictJson.parse(StrictJson.utf8(content));
    } catch (StrictJson.Malformed e) {
      return new Parsed(List.of(), List.of(where.malformed(e.getMessage())));
    }
    List<JsonNode> nodes;
    try {
      if (root.isArray()) {
        nodes = new ArrayList<>();
        root.forEach(nodes::add);
      } else if (!root.isObject()) {
        throw where.malformed(
            "expected a scenario object or {\"scenarios\": [...]}, got "
                + StrictObject.kind(root));
      } else if (root.has("scenarios")) {
        StrictObject top = StrictObject.of(root, where, "").allowOnly(List.of("scenarios"));
        nodes = top.array("scenarios");
        top.done();
      } else {
        nodes = List.of(root);
      }
    } catch (MalformedScenarioException e) {
      return new Parsed(List.of(), List.of(e));
    }
    List<Scenario> out = new ArrayList<>();
    List<MalformedScenarioException> malformed = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      try {
        out.add(scenario(nodes.get(i), where, i + 1));
      } catch (MalformedScenarioException e) {
        malformed.add(e);
      }
    }
    return new Parsed(out, malformed);
  }

  // ---------------------------------------------------------------- scenario

  private static Scenario scenario(JsonNode node, Where fileWhere, int index) {
    Where anonymous = fileWhere.scenario("scenario #" + index);
    JsonNode nameNode = node == null ? null : node.get("name");
    Where named =
        nameNode != null && nameNode.isTextual() && !nameNode.textValue().isEmpty()
            ? fileWhere.scenario(nameNode.textValue())
            : anonymous;
    String name = StrictObject.of(node, named, "").allowOnly(SCENARIO_KEYS).string("name");
    Where where = fileWhere.scenario(name.isEmpty() ? "scenario #" + index : name);
    StrictObject o = StrictObject.of(node, where, "").allowOnly(SCENARIO_KEYS);
    o.string("name");
    String chainId = o.optString("chain_id").orElse(DEFAULT_CHAIN_ID);
    String authority = o.optString("authority").orElse(DEFAULT_AUTHORITY);
    if (authority.isBlank()) {
      throw o.fail("authority", "must not be blank");
    }
    Instant startTime = o.optTime("start_time").orElse(DEFAULT_START_TIME);
    long startHeight =
        o.optInteger("start_height", false).map(h -> height(o, "start_height", h)).orElse(1L);
    if (startHeight < 1) {
      throw o.fail("start_height", "must be at least 1, got " + startHeight);
    }
    List<Scenario.ChannelSpec> channels = new ArrayList<>();
    List<JsonNode> channelNodes = o.optArray("channels").orElse(List.of());
    for (int i = 0; i < channelNodes.size(); i++) {
      StrictObject c =
          StrictObject.of(channelNodes.get(i), where, "channels[" + i + "]").allowOnly(CHANNEL_KEYS);
      channels.add(channel(c));
      c.done();
    }
    List<Scenario.ClientSpec> clients = new ArrayList<>();
    List<JsonNode> clientNodes = o.optArray("clients").orElse(List.of());
    for (int i = 0; i < clientNodes.size(); i++) {
      StrictObject c =
          StrictObject.of(clientNodes.get(i), where, "clients[" + i + "]").allowOnly(CLIENT_KEYS);
      clients.add(client(c));
      c.done();
    }
    Map<String, BigInteger> supply = new LinkedHashMap<>();
    JsonNode supplyNode = o.raw("supply");
    if (supplyNode != null) {
      StrictObject s = StrictObject.of(supplyNode, where, "supply");
      supplyNode
          .properties()
          .forEach(
              e -> supply.put(e.getKey(), s.integer(e.getValue(), s.child(e.getKey()), false)));
    }
    Optional<String> genesis =
        Optional.ofNullable(o.raw("genesis"))
            .map(
                g -> {
                  if (!g.isObject()) {
                    throw o.fail("genesis", "expected an object, got " + StrictObject.kind(g));
                  }
                  return g.toString();
                });
    Outcome expectGenesis =
        o.optObject("expect_genesis")
            .map(e -> outcome(e.allowOnly(List.of("ok", "code")), true))
            .orElse(Outcome.OK);
    // "steps" is required, except that a scenario whose genesis must be rejected runs none
    List<JsonNode> stepNodes =
        expectGenesis.expectsSuccess() ? o.array("steps") : o.optArray("steps").orElse(List.of());
    o.done();

    List<Step> steps = new ArrayList<>();
    Clock clock = new Clock(startTime, startHeight);
    Map<String, Scenario.ChannelSpec> open = new HashMap<>(); // looked up, never iterated
    channels.forEach(c -> open.put(channelKey(c.portId(), c.channelId()), c));
    for (int i = 0; i < stepNodes.size(); i++) {
      steps.add(step(stepNodes.get(i), where, i + 1, clock, open));
    }
    return new Scenario(
        fileWhere.file(), where.scenario(), chainId, authority, startTime, startHeight, channels,
        clients, supply, genesis, expectGenesis, steps);
  }

  private static long height(StrictObject o, String key, BigInteger h) {
    if (h.bitLength() > 63) {
      throw o.fail(key, "is too large: " + h);
    }
    return h.longValue();
  }

  private static Scenario.ChannelSpec channel(StrictObject c) {
    return new Scenario.ChannelSpec(
        c.string("channel_id"),
        c.optString("port_id").orElse(DEFAULT_PORT),
        c.optString("counterparty_channel_id").orElse(DEFAULT_COUNTERPARTY_CHANNEL),
        c.optString("counterparty_port_id").orElse(DEFAULT_PORT),
        c.optString("counterparty_chain_id").orElse(DEFAULT_COUNTERPARTY_CHAIN));
  }

  private static String channelKey(String port, String channel) {
    return port + "\u0000" + channel;
  }

  private static Scenario.ClientSpec client(StrictObject c) {
    return new Scenario.ClientSpec(
        c.string("client_id"),
        c.optString("counterparty_chain_id").orElse(DEFAULT_COUNTERPARTY_CHAIN));
  }

  /** The block time and height as the steps move them, to catch them going backwards. */
  private static final class Clock {
    Instant time;
    long height;

    Clock(Instant time, long height) {
      this.time = time;
      this.height = height;
    }
  }

  // ---------------------------------------------------------------- steps

  private static Step step(JsonNode node, Where scenarioWhere, int number, Clock clock,
      Map<String, Scenario.ChannelSpec> open) {
    Where anonymous = scenarioWhere.step(number, null);
    StrictObject probe = StrictObject.of(node, anonymous, "");
    String op = probe.string("op");
    if (!OPS.contains(op)) {
      throw anonymous.malformed("unknown op \"" + op + "\"; known ops: " + String.join(", ", OPS));
    }
    Where where = scenarioWhere.step(number, op);
    StrictObject o = StrictObject.of(node, where, "").allowOnly(stepKeys(op));
    o.string("op");

    Step.Action action =
        switch (op) {
          case "begin_block" -> beginBlock(o, clock);
          case "set_supply" -> new Step.SetSupply(o.string("denom"), o.integer("amount", false));
          case "add_channel" -> {
            Scenario.ChannelSpec c = channel(o);
            open.put(channelKey(c.portId(), c.channelId()), c);
            yield new Step.AddChannel(c);
          }
          case "add_client" -> new Step.AddClient(client(o));
          case "msg" -> msgStep(o);
          case "proposal" -> proposal(o);
          case "send" -> new Step.Send(packet(o.object("packet"), true, open));
          case "recv" -> new Step.Recv(packet(o.object("packet"), false, open), appAck(o));
          case "write_ack" ->
              new Step.WriteAck(packet(o.object("packet"), false, open), writeAck(o));
          case "ack" -> ackPacket(o, open);
          case "timeout" -> new Step.Timeout(packet(o.object("packet"), true, open));
          case "blacklist_add" -> new Step.BlacklistAdd(o.string("denom"));
          case "blacklist_remove" -> new Step.BlacklistRemove(o.string("denom"));
          case "whitelist_add" -> new Step.WhitelistAdd(o.string("sender"), o.string("receiver"));
          case "whitelist_remove" ->
              new Step.WhitelistRemove(o.string("sender"), o.string("receiver"));
          case "check_rate_limit" -> checkRateLimit(o);
          case "check_pending" -> checkPending(o);
          case "check_epoch" -> checkEpoch(o);
          case "check_blacklist" -> checkBlacklist(o);
          case "check_whitelist" -> checkWhitelist(o);
          case "check_export" -> checkExport(o);
          case "check_query" -> checkQuery(o);
          default -> throw new IllegalStateException("op list and switch disagree: " + op);
        };

    Step.Expect expect = Step.Expect.NONE;
    if (OUTCOME_OPS.contains(op) || op.equals("recv")) {
      Optional<StrictObject> e = o.optObject("expect");
      if (e.isPresent()) {
        expect = expect(e.get(), op);
      }
    } else if (!op.equals("check_query")) {
      // a generator may give every step {"ok": true}; a check has no other outcome to expect
      o.optObject("expect").ifPresent(e -> {
        e.allowOnly(List.of("ok", "code"));
        Outcome given = outcome(e, true); // {"ok": true, "code": 0} is success too
        if (!given.ok().orElse(true) || given.code().isPresent()) {
          throw e.where().malformed(
              "expect: a check has no failure to expect: give what it should find");
        }
      });
    }
    List<Step.EventExpect> events = new ArrayList<>();
    JsonNode eventsGiven = o.raw("expect_events");
    List<JsonNode> eventNodes = eventsGiven != null && eventsGiven.isObject()
        ? List.of(eventsGiven) // one event written without its list
        : o.optArray("expect_events").orElse(List.of());
    for (int i = 0; i < eventNodes.size(); i++) {
      JsonNode n = eventNodes.get(i);
      events.add(n.isTextual() // a bare type, as in expect_no_events
          ? new Step.EventExpect(n.textValue(), Map.of())
          : eventExpect(StrictObject.of(n, where, "expect_events[" + i + "]")));
    }
    List<String> noEvents = new ArrayList<>();
    List<JsonNode> noEventNodes = o.optArray("expect_no_events").orElse(List.of());
    for (int i = 0; i < noEventNodes.size(); i++) {
      JsonNode t = noEventNodes.get(i);
      if (!t.isTextual()) {
        throw where.malformed(
            "expect_no_events[" + i + "]: expected an event type (a string), got "
                + StrictObject.kind(t));
      }
      noEvents.add(t.textValue());
    }
    o.done();
    return new Step(number, op, action, expect, events, noEvents);
  }

  private static Step.BeginBlock beginBlock(StrictObject o, Clock clock) {
    Optional<Instant> time = o.optTime("time");
    Optional<BigInteger> advance = o.optInteger("advance_seconds", false);
    if (time.isPresent() && advance.isPresent()) {
      throw o.where().malformed("give either \"time\" or \"advance_seconds\", not both");
    }
    Instant next = clock.time;
    if (time.isPresent()) {
      next = time.get();
      if (next.isBefore(clock.time)) {
        throw o.fail(
            "time", "block time goes backwards: " + next + " is before " + clock.time);
      }
    } else if (advance.isPresent()) {
      if (advance.get().bitLength() > 40) {
        throw o.fail("advance_seconds", "is too large: " + advance.get());
      }
      next = clock.time.plusSeconds(advance.get().longValueExact());
      if (!StrictObject.isTimestamp(next)) {
        throw o.fail(
            "advance_seconds", "takes the block time past " + StrictObject.LAST_TIME + ": " + next);
      }
    }
    long height = clock.height + 1;
    Optional<BigInteger> h = o.optInteger("height", false);
    if (h.isPresent()) {
      height = height(o, "height", h.get());
      if (height < clock.height) {
        throw o.fail(
            "height", "block height goes backwards: " + height + " is below " + clock.height);
      }
    }
    clock.time = next;
    clock.height = height;
    return new Step.BeginBlock(next, height);
  }

  private static Step.Action msgStep(StrictObject o) {
    try {
      return new Step.Msg(msg(o.raw("msg"), o, "msg"));
    } catch (Undecodable e) {
      return new Step.Undecodable(e.getMessage());
    }
  }

  private static Step.Action proposal(StrictObject o) {
    List<JsonNode> nodes = o.array("messages");
    List<Any> msgs = new ArrayList<>();
    Optional<String> undecodable = Optional.empty();
    for (int i = 0; i < nodes.size(); i++) {
      try {
        msgs.add(msg(nodes.get(i), o, "messages[" + i + "]"));
      } catch (Undecodable e) { // the first; later messages are still checked for malformation
        undecodable = undecodable.or(() -> Optional.of(e.getMessage()));
      }
    }
    return undecodable.<Step.Action>map(Step.Undecodable::new).orElseGet(() -> new Step.Proposal(msgs));
  }

  /**
   * A known type URL whose field values no chain could receive: a failed step, not a malformed
   * file (thrown only inside this parser, caught by {@link #msgStep} and {@link #proposal}).
   */
  private static final class Undecodable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Undecodable(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * A governance message in protobuf JSON with {@code "@type"}. A type URL the runner does not
   * know is passed on as an {@link Any} with that URL and no bytes, so the message router rejects
   * it ({@code invalid_request}) as a chain would; the other fields of such a message are ignored.
   * A known type with a field it lacks, or whose field values do not decode (a uint64 of {@code
   * "-1"}, a percent as a JSON number: see {@link ProtoJson}), throws {@link Undecodable}: the step
   * fails as {@code invalid_request} too, as a chain rejects a message with an unknown field, so
   * one such message does not stop a file of test vectors (a typo shows as that step's failure,
   * naming the field and the fields there are). What cannot be a message at all (no object, no
   * {@code "@type"}) makes the scenario malformed.
   */
  private static Any msg(JsonNode node, StrictObject parent, String at) {
    if (node == null) {
      throw parent.where().malformed(at + ": is required");
    }
    if (!node.isObject()) {
      throw parent.where().malformed(at + ": expected an object, got " + StrictObject.kind(node));
    }
    JsonNode type = node.get("@type");
    if (type == null || !type.isTextual()) {
      throw parent
          .where()
          .malformed(at + ": \"@type\" is required (e.g. \"/ratelimit.v1.MsgAddRateLimit\")");
    }
    String typeUrl = type.textValue();
    Optional<Descriptor> known = MsgTypes.descriptor(typeUrl);
    if (known.isEmpty() && typeUrl.startsWith(PROTOBUF_TYPE_URL_PREFIX)) {
      // protobuf's own form (Python's Any.Pack writes it); the chain's form is "/" + the name.
      // Any other prefix is passed on as given, and the router refuses it as a chain would.
      String chainForm = typeUrl.substring(PROTOBUF_TYPE_URL_PREFIX.length() - 1);
      Optional<Descriptor> shortForm = MsgTypes.descriptor(chainForm);
      if (shortForm.isPresent()) {
        typeUrl = chainForm;
        known = shortForm;
      }
    }
    if (known.isEmpty()) {
      return Any.newBuilder().setTypeUrl(typeUrl).build();
    }
    Descriptor msgType = known.get();
    for (Iterator<String> keys = node.fieldNames(); keys.hasNext(); ) {
      String key = keys.next();
      if (!key.equals("@type") && ProtoJson.field(msgType, key).isEmpty()) {
        throw new Undecodable(
            at + ": " + typeUrl + " has no field \"" + key + "\" (fields: "
                + msgType.getFields().stream().map(FieldDescriptor::getName).toList() + ")");
      }
    }
    String json = node.toString();
    Optional<String> problem = ProtoJson.problem(json, msgType);
    if (problem.isPresent()) {
      throw new Undecodable(at + ": not a valid " + typeUrl + ": " + problem.get());
    }
    Any.Builder b = Any.newBuilder();
    try {
      MSG_PARSER.merge(json, b);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw new Undecodable(at + ": not a valid " + typeUrl + ": " + e.getMessage());
    }
    return b.setTypeUrl(typeUrl).build();
  }

  private static String appAck(StrictObject o) {
    String v = o.optString("app_ack").orElse("success");
    if (!Set.of("success", "error", "async").contains(v)) {
      throw o.fail("app_ack", "expected \"success\", \"error\" or \"async\", got \"" + v + "\"");
    }
    return v;
  }

  /** {@code "success"}, {@code "error"}, or {@code null}: the missing ack SPEC §5 names. */
  private static Step.WrittenAck writeAck(StrictObject o) {
    if (o.hasNull("ack")) {
      o.raw("ack");
      return Step.WrittenAck.MISSING;
    }
    String v = o.string("ack");
    return switch (v) {
      case "success" -> Step.WrittenAck.SUCCESS;
      case "error" -> Step.WrittenAck.ERROR;
      default -> throw o.fail(
          "ack", "expected \"success\", \"error\" or null (a missing ack), got \"" + v + "\"");
    };
  }

  private static Step.AckPacket ackPacket(
      StrictObject o, Map<String, Scenario.ChannelSpec> open) {
    Step.PacketSpec packet = packet(o.object("packet"), true, open);
    Optional<String> utf8 = o.optString("acknowledgement");
    Optional<String> b64 = o.optString("acknowledgement_base64");
    if (utf8.isPresent() == b64.isPresent()) {
      throw o.where()
          .malformed("give exactly one of \"acknowledgement\" and \"acknowledgement_base64\"");
    }
    byte[] ack;
    if (utf8.isPresent()) {
      ack = RawBytes.of(utf8.get());
    } else {
      // as a generator writes it: line breaks (Python's base64.encodebytes), either alphabet
      String text = b64.get().replaceAll("[\\s]", "");
      boolean urlSafe = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
      try {
        ack = (urlSafe ? Base64.getUrlDecoder() : Base64.getDecoder()).decode(text);
      } catch (IllegalArgumentException e) {
        throw o.fail("acknowledgement_base64", "not valid base64: " + e.getMessage());
      }
    }
    return new Step.AckPacket(packet, ack);
  }

  // ---------------------------------------------------------------- packets

  /**
   * A packet; {@code sourceIsOurs} for one this chain sent (send, ack, timeout), else one it
   * receives. The other chain's side may be left out when this chain's channel is among the
   * scenario's: it is that channel's counterparty, as IBC core would fill it in.
   */
  private static Step.PacketSpec packet(
      StrictObject p, boolean sourceIsOurs, Map<String, Scenario.ChannelSpec> open) {
    p.allowOnly(PACKET_KEYS);
    BigInteger seq = p.integer("sequence", false);
    if (seq.bitLength() > 64) {
      throw p.fail("sequence", "does not fit 64 bits: " + seq);
    }
    String ours = sourceIsOurs ? "source" : "destination";
    String theirs = sourceIsOurs ? "destination" : "source";
    String ourPort = p.optString(ours + "_port").orElse(DEFAULT_PORT);
    String ourChannel = p.string(ours + "_channel");
    Optional<String> theirChannelGiven = p.optString(theirs + "_channel");
    Optional<Scenario.ChannelSpec> channel =
        Optional.ofNullable(open.get(channelKey(ourPort, ourChannel)));
    String theirChannel = theirChannelGiven.orElseGet(() -> channel
        .map(Scenario.ChannelSpec::counterpartyChannelId)
        .orElseThrow(() -> p.fail(theirs + "_channel", "is required: " + ourChannel + " on port "
            + ourPort + " is not among the scenario's channels, so its counterparty is unknown"
            + " (give the other chain's side)")));
    String theirPort = p.optString(theirs + "_port").orElseGet(() ->
        theirChannelGiven.isPresent()
            ? DEFAULT_PORT
            : channel.map(Scenario.ChannelSpec::counterpartyPortId).orElse(DEFAULT_PORT));
    String sourcePort = sourceIsOurs ? ourPort : theirPort;
    String sourceChannel = sourceIsOurs ? ourChannel : theirChannel;
    String destinationPort = sourceIsOurs ? theirPort : ourPort;
    String destinationChannel = sourceIsOurs ? theirChannel : ourChannel;
    Optional<StrictObject> data = p.optObject("data");
    Optional<String> raw = p.optString("data_raw");
    if (data.isPresent() == raw.isPresent()) {
      throw p.where().malformed("packet: give exactly one of \"data\" and \"data_raw\"");
    }
    byte[] bytes =
        raw.map(RawBytes::of).orElseGet(() -> packetData(data.get()));
    Optional<Height> timeoutHeight = p.optObject("timeout_height").map(ScenarioParser::height);
    Optional<Long> timeoutTimestamp =
        p.optInteger("timeout_timestamp", false).map(t -> uint64(p, "timeout_timestamp", t));
    p.done();
    return new Step.PacketSpec(
        seq.longValue(), sourcePort, sourceChannel, destinationPort, destinationChannel, bytes,
        timeoutHeight, timeoutTimestamp);
  }

  /** An IBC height {@code {"revision_number", "revision_height"}} (each absent is 0). */
  private static Height height(StrictObject h) {
    h.allowOnly(List.of("revision_number", "revision_height"));
    long number = h.optInteger("revision_number", false)
        .map(n -> uint64(h, "revision_number", n)).orElse(0L);
    long height = h.optInteger("revision_height", false)
        .map(n -> uint64(h, "revision_height", n)).orElse(0L);
    h.done();
    return new Height(number, height);
  }

  private static long uint64(StrictObject o, String key, BigInteger n) {
    if (n.bitLength() > 64) {
      throw o.fail(key, "does not fit 64 bits: " + n);
    }
    return n.longValue();
  }

  /**
   * ICS-20 packet data as ibc-go v10+ writes it: keys in field order, memo left out when empty or
   * null. Keys left out of the step (or null) are left out of the JSON (so the middleware sees
   * them missing); a value that is no string (an amount written as a number) and a key of no
   * ICS-20 field are written as given, after the fields, so the step meets the decoder's code 9
   * rather than stopping the file.
   */
  private static byte[] packetData(StrictObject d) {
    List<String> keys = new ArrayList<>(DATA_KEYS);
    d.fieldNames().stream().filter(k -> !DATA_KEYS.contains(k)).forEach(keys::add);
    StringBuilder sb = new StringBuilder("{");
    for (String key : keys) {
      // a null is written as given (the decoder's code 9), but for the optional memo, where it
      // means no memo (as Go's decoder reads a null string: empty)
      JsonNode v = key.equals("memo") ? d.raw(key) : d.rawOrNull(key);
      if (v == null || (key.equals("memo") && v.isTextual() && v.textValue().isEmpty())) {
        continue;
      }
      if (sb.length() > 1) {
        sb.append(',');
      }
      sb.append(GoJson.quote(key)).append(':')
          .append(v.isTextual() ? GoJson.quote(v.textValue()) : v.toString());
    }
    d.done();
    return sb.append('}').toString().getBytes(StandardCharsets.UTF_8);
  }

  // ---------------------------------------------------------------- expectations

  private static Outcome outcome(StrictObject e, boolean closeIt) {
    Optional<Boolean> ok = e.optBoolean("ok");
    Optional<Outcome.Code> code = Optional.ofNullable(e.raw("code")).map(c -> code(e, c));
    if (code.equals(Optional.of(Outcome.Code.of(0)))) {
      // ABCI's code 0 is success: {"ok": true, "code": 0}, as a generator may write every result
      if (ok.equals(Optional.of(false))) {
        throw e.where().malformed(e.child("code") + ": code 0 is success, not \"ok\": false");
      }
      ok = Optional.of(true);
      code = Optional.empty();
    }
    if (ok.orElse(false) && code.isPresent()) {
      throw e.where().malformed(e.child("code") + ": a code needs \"ok\": false");
    }
    if (closeIt) {
      e.done();
    }
    return new Outcome(ok, code);
  }

  private static Outcome.Code code(StrictObject e, JsonNode c) {
    if (c.isTextual() && Set.of("unauthorized", "invalid_address", "invalid_request")
        .contains(c.textValue())) {
      return Outcome.Code.of(c.textValue());
    }
    if (StrictObject.wholeNumber(c).isPresent()
        || (c.isTextual() && c.textValue().matches("[0-9]{1,9}"))) {
      BigInteger n = e.integer(c, e.child("code"), false);
      if (n.bitLength() > 31) {
        throw e.where().malformed(e.child("code") + ": not an error code: " + n);
      }
      return Outcome.Code.of(n.intValue());
    }
    throw e.where()
        .malformed(
            e.child("code") + ": expected a module error code (a number) or \"unauthorized\", "
                + "\"invalid_address\" or \"invalid_request\", got " + c);
  }

  private static Step.Expect expect(StrictObject e, String op) {
    List<String> keys = new ArrayList<>(List.of("ok", "code"));
    if (op.equals("recv")) {
      keys.addAll(List.of("ack", "ack_bytes"));
    }
    if (APP_CALLED_OPS.contains(op)) {
      keys.add("app_called");
    }
    e.allowOnly(keys);
    Outcome outcome = outcome(e, false);
    Optional<String> ack = Optional.empty();
    Optional<String> ackBytes = Optional.empty();
    if (op.equals("recv")) {
      ack = e.optString("ack");
      if (ack.isPresent() && !Set.of("success", "error", "async").contains(ack.get())) {
        throw e.fail("ack", "expected \"success\", \"error\" or \"async\", got \"" + ack.get() + "\"");
      }
      ackBytes = e.optString("ack_bytes");
    }
    Optional<Boolean> appCalled =
        APP_CALLED_OPS.contains(op) ? e.optBoolean("app_called") : Optional.empty();
    e.done();
    return new Step.Expect(outcome, ack, ackBytes, appCalled);
  }

  private static Step.EventExpect eventExpect(StrictObject e) {
    e.allowOnly(List.of("type", "attributes"));
    String type = e.string("type");
    Map<String, Step.AttributeValue> attrs = new LinkedHashMap<>();
    JsonNode given = e.raw("attributes");
    if (given != null && given.isArray()) { // ABCI's form: [{"key": k, "value": v}, ...]
      for (int i = 0; i < given.size(); i++) {
        StrictObject kv = StrictObject.of(given.get(i), e.where(), e.child("attributes[" + i + "]"))
            .allowOnly(List.of("key", "value", "index"));
        kv.optBoolean("index");
        String key = kv.string("key");
        if (attrs.put(key, attributeValue(kv, "value", kv.raw("value"))) != null) {
          throw kv.fail("key", "\"" + key + "\" is listed twice");
        }
        kv.done();
      }
    } else if (given != null) {
      StrictObject a = StrictObject.of(given, e.where(), e.child("attributes"));
      given.properties().forEach(f -> {
        if (!f.getValue().isNull()) { // null: not checked, as a key left out
          attrs.put(f.getKey(), attributeValue(a, f.getKey(), f.getValue()));
        }
      });
    }
    e.done();
    return new Step.EventExpect(type, attrs);
  }

  /** An attribute's expected value: a string, or an integer compared numerically. */
  private static Step.AttributeValue attributeValue(StrictObject o, String key, JsonNode v) {
    Optional<BigInteger> number = v == null ? Optional.empty() : StrictObject.wholeNumber(v);
    if (v != null && v.isTextual()) {
      return new Step.AttributeValue(v.textValue(), false);
    }
    if (number.isPresent()) {
      return new Step.AttributeValue(number.get().toString(), true);
    }
    throw o.fail(key, "expected a string or an integer, got " + StrictObject.kind(v));
  }

  // ---------------------------------------------------------------- checks

  private static Step.CheckRateLimit checkRateLimit(StrictObject o) {
    String denom = o.string("denom");
    String id = o.string("channel_or_client_id");
    Optional<Map<String, BigInteger>> flow =
        o.optObject("flow").map(f -> numbers(f, List.of("inflow", "outflow", "channel_value"), false));
    Optional<Map<String, BigInteger>> quota =
        o.optObject("quota")
            .map(q -> numbers(q, List.of("max_percent_send", "max_percent_recv", "duration_hours"), false));
    boolean absent = o.optBoolean("absent").orElse(false);
    if (absent && (flow.isPresent() || quota.isPresent())) {
      throw o.where().malformed("\"absent\": true cannot come with \"flow\" or \"quota\"");
    }
    return new Step.CheckRateLimit(denom, id, flow, quota, absent);
  }

  private static Map<String, BigInteger> numbers(
      StrictObject o, List<String> keys, boolean signed) {
    Map<String, BigInteger> out = new LinkedHashMap<>();
    for (String k : keys) {
      o.optInteger(k, signed).ifPresent(v -> out.put(k, v));
    }
    o.done();
    return out;
  }

  private static Step.CheckPending checkPending(StrictObject o) {
    return new Step.CheckPending(
        o.string("channel_or_client_id"),
        o.string("denom"),
        sequences(o, "send_sequences"),
        sequences(o, "recv_sequences"));
  }

  private static Optional<Set<BigInteger>> sequences(StrictObject o, String key) {
    return o.optArray(key)
        .map(
            list -> {
              Set<BigInteger> out = new LinkedHashSet<>();
              for (int i = 0; i < list.size(); i++) {
                out.add(o.integer(list.get(i), key + "[" + i + "]", false));
              }
              return out;
            });
  }

  private static Step.CheckEpoch checkEpoch(StrictObject o) {
    return new Step.CheckEpoch(
        o.optInteger("epoch_number", false),
        o.optTime("epoch_start_time"),
        o.optInteger("epoch_start_height", false));
  }

  private static Step.CheckBlacklist checkBlacklist(StrictObject o) {
    List<JsonNode> list = o.array("denoms");
    Set<String> denoms = new LinkedHashSet<>();
    for (int i = 0; i < list.size(); i++) {
      if (!list.get(i).isTextual()) {
        throw o.where()
            .malformed("denoms[" + i + "]: expected a string, got " + StrictObject.kind(list.get(i)));
      }
      denoms.add(list.get(i).textValue());
    }
    return new Step.CheckBlacklist(denoms);
  }

  private static Step.CheckWhitelist checkWhitelist(StrictObject o) {
    List<JsonNode> list = o.array("pairs");
    Set<Step.Pair> pairs = new LinkedHashSet<>();
    for (int i = 0; i < list.size(); i++) {
      StrictObject p = StrictObject.of(list.get(i), o.where(), "pairs[" + i + "]");
      pairs.add(new Step.Pair(p.string("sender"), p.string("receiver")));
      p.done();
    }
    return new Step.CheckWhitelist(pairs);
  }

  private static Step.CheckExport checkExport(StrictObject o) {
    JsonNode g = o.raw("genesis");
    if (g == null) {
      throw o.fail("genesis", "is required");
    }
    if (!g.isObject()) {
      throw o.fail("genesis", "expected an object, got " + StrictObject.kind(g));
    }
    GenesisState.Builder b = GenesisState.newBuilder();
    try {
      GENESIS_PARSER.merge(withEpochAsProtobufJson(g, o).toString(), b);
    } catch (InvalidProtocolBufferException | RuntimeException e) {
      throw o.fail("genesis", "not a GenesisState in protobuf JSON: " + e.getMessage());
    }
    return new Step.CheckExport(b.build());
  }

  /**
   * The expected export with its epoch start time in the form protobuf JSON reads, when given in
   * one of the other forms the format's times take (a space for the T, no offset), and its epoch
   * duration as {@code "3600s"} when given as a number of seconds: it is a check, so it reads
   * times and numbers as the checks do. (A scenario's {@code genesis} is the chain's input, read
   * as protobuf JSON strictly.)
   */
  private static JsonNode withEpochAsProtobufJson(JsonNode genesis, StrictObject o) {
    JsonNode copy = genesis.deepCopy();
    for (String epochKey : List.of("hour_epoch", "hourEpoch")) {
      if (copy.get(epochKey) instanceof ObjectNode epoch) {
        for (String timeKey : List.of("epoch_start_time", "epochStartTime")) {
          JsonNode t = epoch.get(timeKey);
          if (t != null && t.isTextual()) {
            String at = o.child("genesis." + epochKey + "." + timeKey);
            epoch.put(timeKey, o.time(t.textValue(), at).toString());
          }
        }
        JsonNode duration = epoch.get("duration");
        if (duration != null && duration.isNumber()) {
          BigInteger seconds =
              o.integer(duration, o.child("genesis." + epochKey + ".duration"), false);
          epoch.put("duration", seconds + "s");
        }
      }
    }
    return copy;
  }

  private static Step.CheckQuery checkQuery(StrictObject o) {
    String query = o.string("query");
    if (!QUERIES.contains(query)) {
      throw o.fail(
          "query",
          "unknown query \"" + query + "\"; known: all_rate_limits, rate_limits_by_channel, "
              + "rate_limits_by_chain, remaining_capacity");
    }
    Optional<String> denom = Optional.empty();
    Optional<String> id = Optional.empty();
    Optional<String> chain = Optional.empty();
    switch (query) {
      case "rate_limits_by_channel" -> id = Optional.of(o.string("channel_or_client_id"));
      case "rate_limits_by_chain" -> chain = Optional.of(o.string("chain_id"));
      case "remaining_capacity" -> {
        denom = Optional.of(o.string("denom"));
        id = Optional.of(o.string("channel_or_client_id"));
      }
      default -> { }
    }
    Optional<StrictObject> given = o.optObject("expect");
    if (given.isEmpty()) { // replay: the answer is printed with --verbose, nothing is checked
      return new Step.CheckQuery(query, denom, id, chain, Optional.empty());
    }
    StrictObject e = given.get();
    Outcome outcome = outcome(e, false);
    Optional<List<Step.PathRef>> paths = Optional.empty();
    Optional<Step.DirectionExpect> send = Optional.empty();
    Optional<Step.DirectionExpect> recv = Optional.empty();
    Optional<Instant> resetsAt = Optional.empty();
    Optional<BigInteger> seconds = Optional.empty();
    if (query.equals("remaining_capacity")) {
      send = e.optObject("send").map(ScenarioParser::direction);
      recv = e.optObject("recv").map(ScenarioParser::direction);
      resetsAt = e.optTime("window_resets_at");
      seconds = e.optInteger("seconds_until_reset", false);
    } else {
      paths =
          e.optArray("paths")
              .map(
                  list -> {
                    List<Step.PathRef> out = new ArrayList<>();
                    for (int i = 0; i < list.size(); i++) {
                      StrictObject p = StrictObject.of(list.get(i), o.where(), "expect.paths[" + i + "]");
                      out.add(new Step.PathRef(p.string("denom"), p.string("channel_or_client_id")));
                      p.done();
                    }
                    return out;
                  });
    }
    e.done();
    return new Step.CheckQuery(
        query, denom, id, chain,
        Optional.of(new Step.QueryExpect(outcome, paths, send, recv, resetsAt, seconds)));
  }

  private static Step.DirectionExpect direction(StrictObject d) {
    Optional<BigInteger> threshold = d.optInteger("threshold", true);
    Optional<BigInteger> net = d.optInteger("net_flow", true);
    Optional<Optional<BigInteger>> remaining = Optional.empty();
    JsonNode r = d.raw("remaining");
    if (r != null) {
      if (r.isTextual() && r.textValue().equals("unlimited")) {
        remaining = Optional.of(Optional.empty());
      } else {
        remaining = Optional.of(Optional.of(d.integer(r, d.child("remaining"), true)));
      }
    }
    d.done();
    return new Step.DirectionExpect(threshold, net, remaining);
  }
}
