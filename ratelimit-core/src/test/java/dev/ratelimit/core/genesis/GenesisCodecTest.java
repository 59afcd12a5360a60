package dev.ratelimit.core.genesis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.RateLimit;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.testing.TestChain;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Genesis JSON import/export and every validation rule of SPEC §7 (code 12). */
class GenesisCodecTest {
  private static final String MAX = Amounts.LIMIT.subtract(BigInteger.ONE).toString();
  private static final String LIMIT = Amounts.LIMIT.toString();

  // ---------------------------------------------------------------- JSON builders

  private static String rl(String denom, String id, String send, String recv, String hours,
      String inflow, String outflow, String cv) {
    return """
        {"path":{"denom":"%s","channel_or_client_id":"%s"},
         "quota":{"max_percent_send":"%s","max_percent_recv":"%s","duration_hours":%s},
         "flow":{"inflow":"%s","outflow":"%s","channel_value":"%s"}}"""
        .formatted(denom, id, send, recv, hours, inflow, outflow, cv);
  }

  private static String okRl(String denom, String id) {
    return rl(denom, id, "10", "20", "\"24\"", "1", "2", "1000");
  }

  private static String genesis(String rateLimits) {
    return "{\"rate_limits\":[" + rateLimits + "]}";
  }

  private static String withPending(String field, String... ids) {
    StringBuilder sb = new StringBuilder("{\"" + field + "\":[");
    for (int i = 0; i < ids.length; i++) {
      sb.append(i == 0 ? "" : ",").append('"').append(ids[i]).append('"');
    }
    return sb.append("]}").toString();
  }

  private static String withEpoch(String epochJson) {
    return "{\"hour_epoch\":" + epochJson + "}";
  }

  private static void assertInvalid(String json) {
    RateLimitException e =
        assertThrows(RateLimitException.class, () -> GenesisCodec.fromJson(json), json);
    assertEquals(ErrorCode.INVALID_GENESIS, e.code(), json);
  }

  private static GenesisCodec.Decoded ok(String json) {
    return GenesisCodec.fromJson(json);
  }

  private static BigInteger n(long v) {
    return BigInteger.valueOf(v);
  }

  private static Genesis full() {
    return new Genesis(
        List.of(
            new RateLimit(new Path("uatom", "07-tendermint-0"), new Quota(5, 0, 1),
                new Flow(n(0), n(0), n(7))),
            new RateLimit(new Path("ibc/ABC", "channel-1"), new Quota(10, 20, 24),
                new Flow(n(8), n(12), n(100))),
            new RateLimit(new Path("ustrd", "channel-1"), new Quota(100, 100, 48),
                new Flow(new BigInteger(MAX), n(0), new BigInteger(MAX)))),
        List.of(new WhitelistedAddressPair("stride1a", "osmo1b"), new WhitelistedAddressPair("stride1a", "osmo1a")),
        List.of("ustrd", "uatom"),
        List.of(new PendingPacket("channel-1", "ustrd", 5), new PendingPacket("channel-1", "ibc/ABC", -1L)),
        List.of(new PendingPacket("07-tendermint-0", "uatom", 9)),
        Optional.of(new HourEpoch(23, Instant.parse("2024-01-01T23:00:00Z"), 1234)));
  }

  // ---------------------------------------------------------------- round trip

  @Test
  void emptyGenesis_printsEveryListAndNumber_asTheGoModulesExportDoes() {
    Genesis empty =
        new Genesis(
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            Optional.of(new HourEpoch(0, Instant.parse("2024-01-01T00:00:00Z"), 1)));

    String json = GenesisCodec.toJson(empty);

    // the Cosmos SDK's JSON export emits defaults: an empty list is [], a zero number "0"
    for (String list :
        List.of(
            "rate_limits",
            "whitelisted_address_pairs",
            "blacklisted_denoms",
            "pending_send_packet_sequence_numbers",
            "pending_recv_packet_sequence_numbers")) {
      assertTrue(json.contains("\"" + list + "\": []"), list + " in " + json);
    }
    assertTrue(json.contains("\"epoch_number\": \"0\""), json);
    assertTrue(json.startsWith("{\n  \"params\": {},\n"), json); // an empty message as {}
    // read back: the same lists; an epoch numbered 0 is initialised again on import (SPEC §4)
    Genesis back = GenesisCodec.fromJson(json).genesis();
    assertEquals(
        new Genesis(List.of(), List.of(), List.of(), List.of(), List.of(), Optional.empty()), back);
  }

  @Test
  void fullGenesis_roundTripsThroughJson() {
    Genesis g = full();
    String json = GenesisCodec.toJson(g);
    GenesisCodec.Decoded back = GenesisCodec.fromJson(json);
    assertEquals(g, back.genesis());
    assertEquals(List.of(), back.warnings());
    assertEquals(json, GenesisCodec.toJson(back.genesis()));
    // snake_case names, decimals as strings, G's pending id form
    assertTrue(json.contains("\"channel_or_client_id\": \"channel-1\""), json);
    assertTrue(json.contains("\"max_percent_send\": \"10\""), json);
    assertTrue(json.contains("\"channel-1/18446744073709551615/ibc/ABC\""), json);
    assertTrue(json.contains("\"pending_recv_packet_sequence_numbers\""), json);
    assertTrue(json.contains("\"duration\": \"3600s\""), json);
  }

  @Test
  void emptyGenesis_decodesToEmpty() {
    GenesisCodec.Decoded d = ok("{}");
    assertEquals(Genesis.empty(), d.genesis());
    assertEquals(List.of(), d.warnings());
    assertEquals(Genesis.empty(), ok("{\"params\":{}}").genesis());
  }

  @Test
  void uint64Fields_acceptStringOrNumber() {
    assertEquals(24, ok(genesis(rl("u", "channel-1", "1", "1", "24", "0", "0", "1")))
        .genesis().rateLimits().get(0).quota().durationHours());
    assertEquals(24, ok(genesis(rl("u", "channel-1", "1", "1", "\"24\"", "0", "0", "1")))
        .genesis().rateLimits().get(0).quota().durationHours());
  }

  /** One limit with raw JSON values for four of its fields, the others valid strings. */
  private static String rawLimit(String denom, String send, String hours, String channelValue) {
    return genesis("""
        {"path":{"denom":%s,"channel_or_client_id":"channel-1"},
         "quota":{"max_percent_send":%s,"max_percent_recv":"1","duration_hours":%s},
         "flow":{"inflow":"0","outflow":"0","channel_value":%s}}"""
        .formatted(denom, send, hours, channelValue));
  }

  /** Go's protojson refuses these; protobuf-java's JsonFormat alone would read them. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "\"u\" | 10    | \"24\"  | \"1000\" | rate_limits[0].quota.max_percent_send: expected a JSON string, got 10",
      "\"u\" | \"1\" | \"24\"  | 1000    | rate_limits[0].flow.channel_value: expected a JSON string, got 1000",
      "true  | \"1\" | \"24\"  | \"1000\" | rate_limits[0].path.denom: expected a JSON string, got true",
      "\"u\" | \"1\" | \"024\" | \"1000\" | rate_limits[0].quota.duration_hours: not an integer: \"024\"",
      "\"u\" | \"1\" | \"+24\" | \"1000\" | rate_limits[0].quota.duration_hours: not an integer: \"+24\"",
      "\"u\" | \"1\" | \" 24\" | \"1000\" | rate_limits[0].quota.duration_hours: not an integer: \" 24\"",
      // a control character is escaped (found by GenesisFuzzTest: it forged log lines), a
      // container is named by its kind and a long value is cut: a file may hold megabytes
      "\"u\" | \"1\" | \"2\u007f4\" | \"1000\" | rate_limits[0].quota.duration_hours: not an integer: \"2\\u007f4\"",
      "\"u\" | \"1\" | \"2\\n4\" | \"1000\" | rate_limits[0].quota.duration_hours: not an integer: \"2\\u000a4\"",
      "{\"a\":1} | \"1\" | \"24\" | \"1000\" | rate_limits[0].path.denom: expected a JSON string, got an object",
      "\"u\" | \"1\" | \"24\" | [1,2] | rate_limits[0].flow.channel_value: expected a JSON string, got an array",
      "\"u\" | 1234567890123456789012345678901234567890123456789012345678901234 | \"24\" | \"1000\" | rate_limits[0].quota.max_percent_send: expected a JSON string, got 1234567890123456789012345678901234567890123456789012345678901234",
      "\"u\" | 1234567890123456789012345678901234567890123456789012345678901234567890 | \"24\" | \"1000\" | rate_limits[0].quota.max_percent_send: expected a JSON string, got 1234567890123456789012345678901234567890123456789012345678901234... (70 chars)",
      "\"u\" | \"1\" | \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\" | \"1000\" | rate_limits[0].quota.duration_hours: not an integer: \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"... (70 chars)"})
  void goProtojsonRules_areCode12NamingTheField(
      String denom, String send, String hours, String channelValue, String problem) {
    String json = rawLimit(denom, send, hours, channelValue);
    RateLimitException e =
        assertThrows(RateLimitException.class, () -> GenesisCodec.fromJson(json), json);
    assertEquals(ErrorCode.INVALID_GENESIS, e.code());
    assertEquals("invalid genesis: not a GenesisState in protobuf JSON: " + problem, e.getMessage());
  }

  /** A field name no message has, with where it is and what fields there are (a typo, mostly). */
  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "{\"app_state\": {}} | unknown field \"app_state\" (ratelimit.v1.GenesisState has params,"
          + " rate_limits, whitelisted_address_pairs, blacklisted_denoms,"
          + " pending_send_packet_sequence_numbers, hour_epoch, pending_recv_packet_sequence_numbers)",
      "{\"rate_limits\": [{}, {\"quota\": {\"max_percent_sned\": \"1\"}}]} | rate_limits[1].quota:"
          + " unknown field \"max_percent_sned\" (ratelimit.v1.Quota has max_percent_send,"
          + " max_percent_recv, duration_hours)",
      "{\"hour_epoch\": {\"epoch\\nnumber\": 1}} | hour_epoch: unknown field \"epoch\\u000anumber\""
          + " (ratelimit.v1.HourEpoch has epoch_number, duration, epoch_start_time,"
          + " epoch_start_height)"})
  void unknownField_isCode12NamingWhereAndTheFields(String json, String problem) {
    RateLimitException e = assertThrows(RateLimitException.class, () -> GenesisCodec.fromJson(json));
    assertEquals(ErrorCode.INVALID_GENESIS, e.code());
    assertEquals("invalid genesis: not a GenesisState in protobuf JSON: " + problem, e.getMessage());
  }

  /** Strict JSON first (JsonSyntax): protobuf's parser reads through Gson, leniently. */
  @ParameterizedTest
  @ValueSource(
      strings = {
        "{\"blacklisted_denoms\": [\"a\"], \"blacklisted_denoms\": [\"b\"]}|line 1 column 31: duplicate key",
        "{} garbage|line 1 column 4: unexpected 'g' after the JSON value",
        "{'params': {}}|line 1 column 2: expected a string key",
        "{\"blacklisted_denoms\": [NaN]}|line 1 column 25: expected a JSON value, got 'N'",
        "\uFEFF{}|line 1 column 1: expected a JSON value, got U+FEFF"
      })
  void lenientJson_isCode12WithLineAndColumn(String testCase) {
    String[] parts = testCase.split("\\|", 2);
    RateLimitException e =
        assertThrows(RateLimitException.class, () -> GenesisCodec.fromJson(parts[0]));
    assertEquals(ErrorCode.INVALID_GENESIS, e.code());
    assertTrue(
        e.getMessage().startsWith("invalid genesis: not a GenesisState in protobuf JSON: " + parts[1]),
        e.getMessage());
  }

  /** Found by GenesisFuzzTest: the parser's message quoted a whole JSON value. */
  @Test
  void parserMessage_isCutTo200Characters() {
    String json = "{\"hour_epoch\": [\"" + "x".repeat(1_000_000) + "\"]}";
    RateLimitException e =
        assertThrows(RateLimitException.class, () -> GenesisCodec.fromJson(json));
    assertEquals(ErrorCode.INVALID_GENESIS, e.code());
    String m = e.getMessage();
    assertTrue(m.length() < 300 && m.endsWith(" chars)"), m.substring(0, Math.min(m.length(), 400)));
  }

  @Test
  void goProtojsonRules_stillTakeWhatGoTakes() {
    // a uint64 as a number, or as a string holding a JSON number that is an integer
    for (String hours : List.of("24", "\"24\"", "\"2.4e1\"", "24.0")) {
      assertEquals(24, ok(rawLimit("\"u\"", "\"1\"", hours, "\"1000\""))
          .genesis().rateLimits().get(0).quota().durationHours(), hours);
    }
    // null is the field's default; camelCase names are checked too
    assertEquals(Genesis.empty(), ok("{\"blacklisted_denoms\":null}").genesis());
    String camel = rawLimit("5", "\"1\"", "\"24\"", "\"1000\"").replace("rate_limits", "rateLimits");
    assertInvalid(camel);
    assertEquals(1, ok(camel.replace(":5,", ":\"5\",")).genesis().rateLimits().size());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "{", "[]", "{\"unknown_field\":1}", "{\"rate_limits\":{}}", "null"})
  void notAGenesisState_isCode12(String json) {
    assertInvalid(json);
  }

  // ---------------------------------------------------------------- rate limit rules

  @Test
  void missingPathQuotaOrFlow_isCode12() {
    String path = "\"path\":{\"denom\":\"u\",\"channel_or_client_id\":\"channel-1\"}";
    String quota = "\"quota\":{\"max_percent_send\":\"1\",\"max_percent_recv\":\"1\",\"duration_hours\":1}";
    String flow = "\"flow\":{\"inflow\":\"0\",\"outflow\":\"0\",\"channel_value\":\"1\"}";
    ok(genesis("{" + path + "," + quota + "," + flow + "}"));
    assertInvalid(genesis("{" + quota + "," + flow + "}"));
    assertInvalid(genesis("{" + path + "," + flow + "}"));
    assertInvalid(genesis("{" + path + "," + quota + "}"));
    assertInvalid(genesis("{}"));
  }

  @Test
  void emptyDenom_isCode12() {
    assertInvalid(genesis(okRl("", "channel-1")));
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "channel-", "channel-x", "transfer/channel-1", "-1", "channel-18446744073709551616", "a b-1"})
  void invalidChannelOrClientId_isCode12(String id) {
    assertInvalid(genesis(okRl("uatom", id)));
  }

  @ParameterizedTest
  @ValueSource(strings = {"channel-0", "channel-18446744073709551615", "07-tendermint-0", "09-localhost", "hannel-11"})
  void validChannelOrClientId_isAccepted(String id) {
    assertEquals(new Path("uatom", id), ok(genesis(okRl("uatom", id))).genesis().rateLimits().get(0).path());
  }

  @ParameterizedTest
  @ValueSource(strings = {"010", "-1", "101", "abc", "", "+5", " 5", "1000", "1e1", "٥"})
  void nonCanonicalPercent_isCode12(String pct) {
    assertInvalid(genesis(rl("u", "channel-1", pct, "10", "1", "0", "0", "1")));
    assertInvalid(genesis(rl("u", "channel-1", "10", pct, "1", "0", "0", "1")));
  }

  @Test
  void percentBounds_0and100_areAccepted_butNotBoth0() {
    assertEquals(new Quota(0, 100, 1),
        ok(genesis(rl("u", "channel-1", "0", "100", "1", "0", "0", "1"))).genesis().rateLimits().get(0).quota());
    assertEquals(new Quota(100, 0, 1),
        ok(genesis(rl("u", "channel-1", "100", "0", "1", "0", "0", "1"))).genesis().rateLimits().get(0).quota());
    assertInvalid(genesis(rl("u", "channel-1", "0", "0", "1", "0", "0", "1")));
  }

  @Test
  void durationZero_isCode12_andEveryOtherUint64IsAWindowLength() {
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "0", "0", "0", "1")));
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "\"0\"", "0", "0", "1")));
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "\"18446744073709551616\"", "0", "0", "1")));
    assertEquals(-1L, // 2^64 - 1, unsigned
        ok(genesis(rl("u", "channel-1", "1", "1", "\"18446744073709551615\"", "0", "0", "1")))
            .genesis().rateLimits().get(0).quota().durationHours());
    assertEquals(Long.MIN_VALUE, // 2^63
        ok(genesis(rl("u", "channel-1", "1", "1", "\"9223372036854775808\"", "0", "0", "1")))
            .genesis().rateLimits().get(0).quota().durationHours());
    assertEquals(Long.MAX_VALUE,
        ok(genesis(rl("u", "channel-1", "1", "1", "\"9223372036854775807\"", "0", "0", "1")))
            .genesis().rateLimits().get(0).quota().durationHours());
  }

  @ParameterizedTest
  @ValueSource(strings = {"010", "+5", "1e3", "", " 1", "0x10", "1_000", "-0", "١"})
  void nonCanonicalFlow_isCode12(String amount) {
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "1", amount, "0", "1")));
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "1", "0", amount, "1")));
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "1", "0", "0", amount)));
  }

  @Test
  void flowAtOrAbove2pow256_isCode12_justBelowIsAccepted() {
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "1", LIMIT, "0", "1")));
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "1", "0", LIMIT, "1")));
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "1", "0", "0", LIMIT)));
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "1", "0", "0", "9".repeat(100))));
    Flow f = ok(genesis(rl("u", "channel-1", "1", "1", "1", MAX, MAX, MAX))).genesis().rateLimits().get(0).flow();
    assertEquals(new Flow(new BigInteger(MAX), new BigInteger(MAX), new BigInteger(MAX)), f);
  }

  @Test
  void negativeInflowOrOutflow_isClampedToZeroWithAWarning() {
    GenesisCodec.Decoded d = ok(genesis(rl("u", "channel-1", "1", "1", "1", "-5", "-7", "100")));
    assertEquals(new Flow(n(0), n(0), n(100)), d.genesis().rateLimits().get(0).flow());
    assertEquals(2, d.warnings().size());
    // a negative channel value is not something A's undo produces: invalid
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "1", "0", "0", "-100")));
    // the clamped form must still be a canonical decimal after the sign
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "1", "-05", "0", "100")));
    assertInvalid(genesis(rl("u", "channel-1", "1", "1", "1", "--5", "0", "100")));
  }

  @Test
  void duplicatePath_isCode12_butSameDenomOnAnotherChannelIsNot() {
    assertInvalid(genesis(okRl("uatom", "channel-1") + "," + okRl("uatom", "channel-1")));
    assertEquals(2, ok(genesis(okRl("uatom", "channel-1") + "," + okRl("uatom", "channel-11")))
        .genesis().rateLimits().size());
  }

  // ---------------------------------------------------------------- pending ids

  @Test
  void pendingIds_gForm_areParsed() {
    for (String field : List.of("pending_send_packet_sequence_numbers", "pending_recv_packet_sequence_numbers")) {
      Genesis g = ok(withPending(field, "channel-0/5/ustrd", "07-tendermint-3/18446744073709551615/transfer/channel-1/uatom")).genesis();
      List<PendingPacket> expected = List.of(
          new PendingPacket("channel-0", "ustrd", 5),
          new PendingPacket("07-tendermint-3", "transfer/channel-1/uatom", -1L));
      assertEquals(expected,
          field.startsWith("pending_send") ? g.pendingSendPackets() : g.pendingRecvPackets());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {
    "channel-0/0/ustrd", "channel-0/05/ustrd", "bad/5/x", "channel-0/5/", "channel-0/x",
    "channel-0", "channel-0/", "/5/ustrd", "channel-0/-1/ustrd", "channel-0/18446744073709551616/u",
    "channel-0/+5/ustrd", "", "channel-0/0"})
  void pendingIds_malformed_areCode12(String id) {
    assertInvalid(withPending("pending_send_packet_sequence_numbers", id));
    assertInvalid(withPending("pending_recv_packet_sequence_numbers", id));
  }

  @Test
  void pendingIds_aForm_areDroppedWithAWarning() {
    GenesisCodec.Decoded d =
        ok(withPending("pending_send_packet_sequence_numbers", "channel-0/5", "channel-0/6/ustrd"));
    assertEquals(List.of(new PendingPacket("channel-0", "ustrd", 6)), d.genesis().pendingSendPackets());
    assertEquals(1, d.warnings().size());
  }

  // ---------------------------------------------------------------- hour epoch

  @Test
  void hourEpoch_validIsKept_absentDurationMeans3600s() {
    HourEpoch e = new HourEpoch(23, Instant.parse("2024-01-01T23:00:00Z"), 7);
    assertEquals(Optional.of(e), ok(withEpoch(
        "{\"epoch_number\":\"23\",\"duration\":\"3600s\",\"epoch_start_time\":\"2024-01-01T23:00:00Z\",\"epoch_start_height\":\"7\"}"))
        .genesis().hourEpoch());
    assertEquals(Optional.of(e), ok(withEpoch(
        "{\"epoch_number\":23,\"epoch_start_time\":\"2024-01-01T23:00:00Z\",\"epoch_start_height\":7}"))
        .genesis().hourEpoch());
  }

  /** Valid, yet the chain would halt within a century: a warning, exactly at the boundary. */
  @ParameterizedTest
  @CsvSource({
      "18446744073709551615, hour_epoch.epoch_number 18446744073709551615 is 0 hours from 2^64 - 1",
      "18446744073708675016, hour_epoch.epoch_number 18446744073708675016 is 876599 hours from 2^64 - 1",
      "18446744073708675015, ",
      "23, "})
  void hourEpoch_nearTheLargestNumber_isKeptWithAWarning(String number, String warning) {
    GenesisCodec.Decoded d = ok(withEpoch("{\"epoch_number\":\"" + number + "\","
        + "\"epoch_start_time\":\"2024-01-01T23:00:00Z\",\"epoch_start_height\":\"7\"}"));

    assertEquals(Long.parseUnsignedLong(number), d.genesis().hourEpoch().orElseThrow().epochNumber());
    if (warning == null) {
      assertEquals(List.of(), d.warnings());
    } else {
      assertEquals(List.of(warning + ": the first block that would advance the epoch past it"
          + " fails with code 13, and the chain halts"), d.warnings());
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"7200s", "0s", "3600.5s", "-3600s", "60s", "3600.000000001s", "3599.999s",
          "-0.5s"})
  void hourEpoch_durationOtherThan3600s_isCode12_namedExactly(String duration) {
    assertInvalid(withEpoch("{\"epoch_number\":\"23\",\"duration\":\"" + duration
        + "\",\"epoch_start_time\":\"2024-01-01T23:00:00Z\",\"epoch_start_height\":\"7\"}"));
    RateLimitException e = assertThrows(RateLimitException.class,
        () -> GenesisCodec.fromJson(withEpoch("{\"epoch_number\":\"0\",\"duration\":\"" + duration + "\"}")));
    assertEquals(ErrorCode.INVALID_GENESIS, e.code());
    assertTrue(e.getMessage().endsWith("hour_epoch.duration must be 3600s, got " + duration),
        e.getMessage());
  }

  @Test
  void hourEpoch_positiveNumber_needsStartTimeAndHeight() {
    assertInvalid(withEpoch("{\"epoch_number\":\"5\",\"duration\":\"3600s\",\"epoch_start_height\":\"7\"}"));
    assertInvalid(withEpoch("{\"epoch_number\":\"5\",\"duration\":\"3600s\","
        + "\"epoch_start_time\":\"0001-01-01T00:00:00Z\",\"epoch_start_height\":\"7\"}"));
    assertInvalid(withEpoch("{\"epoch_number\":\"5\",\"duration\":\"3600s\","
        + "\"epoch_start_time\":\"2024-01-01T05:00:00Z\",\"epoch_start_height\":\"0\"}"));
    assertInvalid(withEpoch("{\"epoch_number\":\"5\",\"duration\":\"3600s\","
        + "\"epoch_start_time\":\"2024-01-01T05:00:00Z\"}"));
    assertInvalid(withEpoch("{\"epoch_number\":\"5\",\"duration\":\"3600s\","
        + "\"epoch_start_time\":\"2024-01-01T05:00:00Z\",\"epoch_start_height\":\"-3\"}"));
  }

  @Test
  void hourEpoch_numberZero_meansInitialiseAtGenesis() {
    assertEquals(Optional.empty(), ok(withEpoch("{\"epoch_number\":\"0\",\"duration\":\"3600s\","
        + "\"epoch_start_time\":\"2024-01-01T05:00:00Z\",\"epoch_start_height\":\"9\"}")).genesis().hourEpoch());
    assertEquals(Optional.empty(), ok(withEpoch("{}")).genesis().hourEpoch());
  }

  // ---------------------------------------------------------------- lists

  @Test
  void duplicateBlacklistAndWhitelistEntries_areMerged() {
    Genesis g = ok("""
        {"blacklisted_denoms":["ustrd","uatom","ustrd"],
         "whitelisted_address_pairs":[{"sender":"a","receiver":"b"},{"sender":"b","receiver":"a"},
                                      {"sender":"a","receiver":"b"}]}""").genesis();
    assertEquals(List.of("ustrd", "uatom"), g.blacklistedDenoms());
    assertEquals(
        List.of(new WhitelistedAddressPair("a", "b"), new WhitelistedAddressPair("b", "a")),
        g.whitelistedAddressPairs());
  }

  @Test
  void emptyBlacklistDenomOrWhitelistAddress_isCode12() {
    assertInvalid("{\"blacklisted_denoms\":[\"\"]}");
    assertInvalid("{\"whitelisted_address_pairs\":[{\"sender\":\"\",\"receiver\":\"b\"}]}");
    assertInvalid("{\"whitelisted_address_pairs\":[{\"sender\":\"a\"}]}");
  }

  // ---------------------------------------------------------------- with the keeper

  @Test
  void initThenExport_givesTheSameGenesisInCanonicalOrder() {
    try (TestChain chain = TestChain.inMemory(Instant.parse("2024-01-02T00:30:00Z"))) {
      Genesis imported = GenesisCodec.fromJson(GenesisCodec.toJson(full())).genesis();
      chain.initGenesis(imported);
      Genesis exported = chain.keeper().exportGenesis(chain.ctx());

      Genesis canonical = new Genesis(
          List.of(full().rateLimits().get(0), full().rateLimits().get(1), full().rateLimits().get(2)),
          List.of(new WhitelistedAddressPair("stride1a", "osmo1a"), new WhitelistedAddressPair("stride1a", "osmo1b")),
          List.of("uatom", "ustrd"),
          List.of(new PendingPacket("channel-1", "ibc/ABC", -1L), new PendingPacket("channel-1", "ustrd", 5)),
          List.of(new PendingPacket("07-tendermint-0", "uatom", 9)),
          full().hourEpoch()); // the imported epoch is kept, not re-initialised
      assertEquals(canonical, exported);
      assertEquals(GenesisCodec.toJson(canonical), GenesisCodec.toJson(exported));

      // export -> import into a fresh chain -> export is a fixed point
      try (TestChain other = TestChain.inMemory(Instant.parse("2030-06-01T12:00:00Z"))) {
        other.initGenesis(GenesisCodec.fromJson(GenesisCodec.toJson(exported)).genesis());
        assertEquals(exported, other.keeper().exportGenesis(other.ctx()));
        assertEquals(chain.digest(), other.digest());
      }
    }
  }

  @Test
  void initGenesisWithoutEpoch_at0010_givesEpochZero() {
    try (TestChain chain = new TestChain(new dev.ratelimit.core.store.MemoryKvStore(), 42,
        Instant.parse("2024-01-01T00:10:00Z"))) {
      chain.initGenesis(GenesisCodec.fromJson("{}").genesis());
      assertEquals(
          Optional.of(new HourEpoch(0, Instant.parse("2024-01-01T00:00:00Z"), 42)),
          chain.keeper().getHourEpoch(chain.ctx()));
      // the epoch is stored although its number is 0, so BeginBlock works
      chain.beginBlock(Instant.parse("2024-01-01T01:00:00.5Z"));
      assertEquals(1, chain.keeper().getHourEpoch(chain.ctx()).orElseThrow().epochNumber());
      // an export at epoch 0 re-imports as "initialise" (SPEC §4: epoch_number 0 is not kept)
    }
  }
}
