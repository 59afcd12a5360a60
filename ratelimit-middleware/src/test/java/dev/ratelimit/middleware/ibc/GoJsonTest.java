package dev.ratelimit.middleware.ibc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GoJsonTest {

  /** What Go's json.Marshal writes for a string (Go 1.22+, HTML escaping on). */
  static Stream<Arguments> goEscapes() {
    return Stream.of(
        arguments("empty", "", "\"\""),
        arguments("plain ascii", "uatom", "\"uatom\""),
        arguments("quote", "a\"b", "\"a\\\"b\""),
        arguments("backslash", "a\\b", "\"a\\\\b\""),
        arguments("newline", "a\nb", "\"a\\nb\""),
        arguments("carriage return", "\r", "\"\\r\""),
        arguments("tab", "\t", "\"\\t\""),
        arguments("backspace short form (Go 1.22+)", "\b", "\"\\b\""),
        arguments("form feed short form (Go 1.22+)", "\f", "\"\\f\""),
        arguments("NUL", "\u0000", "\"\\u0000\""),
        arguments("vertical tab", "\u000b", "\"\\u000b\""),
        arguments("unit separator, lower-case hex", "\u001f", "\"\\u001f\""),
        arguments("escape char", "\u001b[0m", "\"\\u001b[0m\""),
        arguments("less than", "<script>", "\"\\u003cscript\\u003e\""),
        arguments("ampersand", "a&b", "\"a\\u0026b\""),
        arguments("line separator", "a\u2028b", "\"a\\u2028b\""),
        arguments("paragraph separator", "\u2029", "\"\\u2029\""),
        arguments("DEL stays raw", "\u007f", "\"\u007f\""),
        arguments("slash stays raw", "transfer/channel-0/uatom", "\"transfer/channel-0/uatom\""),
        arguments("apostrophe stays raw", "it's", "\"it's\""),
        arguments("latin-1 raw", "caf\u00e9", "\"caf\u00e9\""),
        arguments("NEL raw", "\u0085", "\"\u0085\""),
        arguments("CJK raw", "\u4e2d\u6587", "\"\u4e2d\u6587\""),
        arguments("emoji (surrogate pair) raw", "\ud83d\ude00", "\"\ud83d\ude00\""),
        arguments("lone high surrogate", "a\ud800b", "\"a\\ufffdb\""),
        arguments("lone low surrogate", "\udc00", "\"\\ufffd\""),
        arguments("reversed pair", "\ude00\ud83d", "\"\\ufffd\\ufffd\""),
        arguments("high surrogate at end", "x\ud83d", "\"x\\ufffd\""));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("goEscapes")
  void quote_escapesLikeGoEncodingJson(String name, String value, String expected) {
    assertEquals(expected, GoJson.quote(value));
  }

  @Test
  void quote_nullIsACallerMistake() {
    assertThrows(NullPointerException.class, () -> GoJson.quote(null));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void readStringObject_keepsDocumentOrderAndDecodesEscapes() {
    Map<String, String> m =
        GoJson.readStringObject(
            utf8(" {\"b\" : \"x\\u003cy\", \"a\":\"\\ud83d\\ude00\\n\"}\n\t"),
            Set.of("a", "b"),
            ErrorCode.INVALID_PACKET_DATA);
    assertEquals(List.of("b", "a"), List.copyOf(m.keySet()));
    assertEquals("x<y", m.get("b"));
    assertEquals("\ud83d\ude00\n", m.get("a"));
  }

  @Test
  void readStringObject_rejectsWithTheCallersCode() {
    RateLimitException e =
        assertThrows(
            RateLimitException.class,
            () ->
                GoJson.readStringObject(
                    utf8("[]"), Set.of("a"), ErrorCode.INVALID_ACKNOWLEDGEMENT));
    assertEquals(ErrorCode.INVALID_ACKNOWLEDGEMENT, e.code());
    RateLimitException nul =
        assertThrows(
            RateLimitException.class,
            () -> GoJson.readStringObject(null, Set.of("a"), ErrorCode.INVALID_PACKET_DATA));
    assertEquals(ErrorCode.INVALID_PACKET_DATA, nul.code());
  }

  @Test
  void readStringObject_deepNestingAndHugeInputFailCleanly() {
    String deep = "{\"a\":" + "[".repeat(200_000) + "]".repeat(200_000) + "}";
    assertEquals(
        ErrorCode.INVALID_PACKET_DATA,
        assertThrows(
                RateLimitException.class,
                () ->
                    GoJson.readStringObject(utf8(deep), Set.of("a"), ErrorCode.INVALID_PACKET_DATA))
            .code());
    String deepRoot = "{".repeat(300_000);
    assertEquals(
        ErrorCode.INVALID_PACKET_DATA,
        assertThrows(
                RateLimitException.class,
                () ->
                    GoJson.readStringObject(
                        utf8(deepRoot), Set.of("a"), ErrorCode.INVALID_PACKET_DATA))
            .code());
    // a string beyond Jackson's default length limit (20M chars) is read, as Go reads it: the
    // limit is pinned off, so no jackson-core release decides what a packet means
    String huge = "{\"a\":\"" + "x".repeat(21_000_000) + "\"}";
    assertEquals(
        21_000_000,
        GoJson.readStringObject(utf8(huge), Set.of("a"), ErrorCode.INVALID_PACKET_DATA)
            .get("a")
            .length());
  }

  @Test
  void readStringObject_reportsWhereUtf8Breaks() {
    byte[] bad = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, '"', '}'};
    RateLimitException e =
        assertThrows(
            RateLimitException.class,
            () -> GoJson.readStringObject(bad, Set.of("a"), ErrorCode.INVALID_PACKET_DATA));
    assertEquals(ErrorCode.INVALID_PACKET_DATA, e.code());
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("byte 6"), e.getMessage());
  }
}
