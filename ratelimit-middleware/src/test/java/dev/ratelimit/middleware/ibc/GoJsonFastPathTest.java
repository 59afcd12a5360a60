package dev.ratelimit.middleware.ibc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link GoJson#readStringObject} and {@link GoJson#readStringFields} answer simple objects
 * without the general parser: for every input, their result (the entries, or the exception's code
 * and message) must equal the general parser's. Seeded inputs built around the simple grammar's edges.
 */
class GoJsonFastPathTest {
  private static final Set<String> KEYS = Set.of("denom", "amount", "sender", "receiver", "memo");
  private static final List<String> FIELDS = List.of("denom", "amount", "sender", "receiver", "memo");
  private static final List<String> PIECES = List.of(
      "{", "}", "\"", ":", ",", " ", "\t", "\n", "\r", "\u000b", "\\", "\\\"", "\\u0041", "\\n",
      "\"denom\"", "\"amount\"", "\"sender\"", "\"receiver\"", "\"memo\"", "\"other\"", "\"Denom\"",
      "\"uatom\"", "\"10\"", "\"\"", "10", "null", "true", "[]", "{}", "\u007f", "\u0001", "é",
      "\ud83d\ude00", "x", "/", "ibc/ABC", "\"transfer/channel-0/uatom\"");

  @Test
  void fastPathAndGeneralParser_agreeOnEveryInput() {
    Random r = new Random(0x15_0F_2026L);
    int simpleAccepted = 0;
    for (int i = 0; i < 20_000; i++) {
      String text = i % 2 == 0 ? mutatedPacket(r) : randomPieces(r);
      byte[] json = text.getBytes(StandardCharsets.UTF_8);
      String fast = outcome(() -> GoJson.readStringObject(json, KEYS, ErrorCode.INVALID_PACKET_DATA));
      String general = outcome(
          () -> GoJson.readStringObjectGeneral(json, KEYS, ErrorCode.INVALID_PACKET_DATA));
      assertEquals(general, fast, "input " + text);
      assertEquals(
          fieldsOutcome(() -> GoJson.readStringObjectGeneral(json, KEYS, ErrorCode.INVALID_PACKET_DATA)),
          fieldsOutcome(() -> fieldsAsMap(json, FIELDS)),
          "fields of input " + text);
      if (fast.startsWith("{")) {
        simpleAccepted++;
      }
    }
    assertEquals(true, simpleAccepted > 1_000, "accepted inputs: " + simpleAccepted);
  }

  @Test
  void simpleObjects_keepDocumentOrder() {
    byte[] json = " {\"memo\" : \"m\",\n\"denom\":\"uatom\"}\r\n".getBytes(StandardCharsets.US_ASCII);
    Map<String, String> m = GoJson.readStringObject(json, KEYS, ErrorCode.INVALID_PACKET_DATA);
    assertEquals(List.of("memo", "denom"), List.copyOf(m.keySet()));
    assertEquals(List.of("m", "uatom"), List.copyOf(m.values()));
  }

  /** No allowed key: the fast path has no key to expect first, and agrees with the parser. */
  @Test
  void noAllowedKeys_agreeWithTheGeneralParser() {
    for (String text : List.of("{\"denom\":\"uatom\"}", "{}", " { } ")) {
      byte[] json = text.getBytes(StandardCharsets.US_ASCII);
      assertEquals(
          outcome(() -> GoJson.readStringObjectGeneral(json, Set.of(), ErrorCode.INVALID_PACKET_DATA)),
          outcome(() -> GoJson.readStringObject(json, Set.of(), ErrorCode.INVALID_PACKET_DATA)),
          text);
    }
  }

  /**
   * Keys the fast path cannot spell in place (a quote, a backslash, non-ASCII: written escaped or
   * as UTF-8) and keys that are prefixes of others: read as the general parser reads them.
   */
  @Test
  void unusualKeys_agreeWithTheGeneralParser() {
    List<String> keys = List.of("den", "denom", "a\"b", "x\\y", "d\u00e9", "", "tab\t");
    List<String> literals = List.of(
        "\"den\"", "\"denom\"", "\"deno\"", "\"denomm\"", "\"a\\\"b\"", "\"x\\\\y\"",
        "\"d\u00e9\"", "\"d\\u00e9\"", "\"\"", "\"tab\\t\"", "\"tab\t\"", "\"a\"b\"");
    Random r = new Random(0x4B_E7_2026L);
    for (int i = 0; i < 5_000; i++) {
      StringBuilder sb = new StringBuilder("{");
      int n = 1 + r.nextInt(3);
      for (int e = 0; e < n; e++) {
        sb.append(e == 0 ? "" : ",").append(literals.get(r.nextInt(literals.size())))
            .append(":\"v").append(e).append('"');
      }
      String text = sb.append('}').toString();
      byte[] json = text.getBytes(StandardCharsets.UTF_8);
      String general = fieldsOutcome(
          () -> GoJson.readStringObjectGeneral(json, Set.copyOf(keys), ErrorCode.INVALID_PACKET_DATA));
      String fields = fieldsOutcome(() -> fieldsAsMap(json, keys));
      assertEquals(general, fields, "input " + text);
    }
  }

  /**
   * Keys of 0 to 20 bytes (matched with one word, two words or a range compare), spelled exactly,
   * with any one byte of the key or its closing quote changed, one byte short or long, and near
   * the input's end (where a word read would pass it): read as the general parser reads them.
   */
  @Test
  void keysOfEveryLength_areMatchedAsTheParserReadsThem() {
    String alphabet = "abcdefghijklmnopqrstu";
    int cases = 0;
    for (int n = 0; n <= 20; n++) {
      String key = alphabet.substring(0, n);
      List<String> keys = List.of(key, "other");
      List<String> spellings = new java.util.ArrayList<>();
      spellings.add(key);
      spellings.add(key + "v");
      if (n > 0) {
        spellings.add(key.substring(0, n - 1));
      }
      for (int at = 0; at < n; at++) {
        spellings.add(key.substring(0, at) + 'z' + key.substring(at + 1));
      }
      for (String spelled : spellings) {
        List<String> texts = new java.util.ArrayList<>(List.of(
            "{\"" + spelled + "\":\"v\"}",
            "{\"other\":\"w\",\"" + spelled + "\":\"v\"}",
            "{\"" + spelled + "\":\"v\",\"other\":\"" + "w".repeat(20) + "\"}"));
        for (String tail : List.of(
            "", "\"", "\"x\"}", ":\"a long value to read words from\"}", "z:\"v\"}")) {
          texts.add("{\"" + spelled + tail); // truncated, or broken right after the key
        }
        for (String text : texts) {
          byte[] json = text.getBytes(StandardCharsets.US_ASCII);
          assertEquals(
              fieldsOutcome(() -> GoJson.readStringObjectGeneral(
                  json, Set.copyOf(keys), ErrorCode.INVALID_PACKET_DATA)),
              fieldsOutcome(() -> fieldsAsMap(json, keys)),
              "keys " + keys + ", input " + text);
          cases++;
        }
      }
    }
    assertEquals(2_176, cases);
  }

  @Test
  void fieldNames_areDistinct() {
    IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
        IllegalArgumentException.class, () -> GoJson.FieldNames.of(List.of("denom", "denom")));
    assertEquals("keys must be distinct, got [denom, denom]", e.getMessage());
    assertEquals(List.of("denom", "memo"), GoJson.FieldNames.of(List.of("denom", "memo")).keys());
  }

  private static String mutatedPacket(Random r) {
    String packet = "{\"denom\":\"transfer/channel-0/uatom\",\"amount\":\"100\","
        + "\"sender\":\"cosmos1abc\",\"receiver\":\"osmo1xyz\",\"memo\":\"hi\"}";
    StringBuilder sb = new StringBuilder(packet);
    int edits = r.nextInt(3);
    for (int e = 0; e < edits; e++) {
      int at = r.nextInt(sb.length() + 1);
      switch (r.nextInt(3)) {
        case 0 -> sb.insert(at, PIECES.get(r.nextInt(PIECES.size())));
        case 1 -> {
          if (at < sb.length()) {
            sb.deleteCharAt(at);
          }
        }
        default -> {
          if (at < sb.length()) {
            sb.setCharAt(at, PIECES.get(r.nextInt(PIECES.size())).charAt(0));
          }
        }
      }
    }
    return sb.toString();
  }

  private static String randomPieces(Random r) {
    StringBuilder sb = new StringBuilder("{");
    int n = r.nextInt(12);
    for (int i = 0; i < n; i++) {
      sb.append(PIECES.get(r.nextInt(PIECES.size())));
    }
    return sb.toString();
  }

  /** readStringFields' array for {@code keys}, as a map (absent keys left out). */
  private static Map<String, String> fieldsAsMap(byte[] json, List<String> keys) {
    String[] values = GoJson.readStringFields(json, keys, ErrorCode.INVALID_PACKET_DATA);
    Map<String, String> m = new java.util.TreeMap<>();
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        m.put(keys.get(i), values[i]);
      }
    }
    return m;
  }

  private static String fieldsOutcome(java.util.function.Supplier<Map<String, String>> read) {
    try {
      return new java.util.TreeMap<>(read.get()).toString();
    } catch (RateLimitException e) {
      return "code " + e.code() + ": " + e.getMessage();
    }
  }

  private static String outcome(java.util.function.Supplier<Map<String, String>> read) {
    try {
      return read.get().toString();
    } catch (RateLimitException e) {
      return "code " + e.code() + ": " + e.getMessage();
    }
  }
}
