package dev.ratelimit.middleware.ibc;

import static dev.ratelimit.middleware.ibc.AcknowledgementCodec.AckClass.ERROR;
import static dev.ratelimit.middleware.ibc.AcknowledgementCodec.AckClass.MALFORMED;
import static dev.ratelimit.middleware.ibc.AcknowledgementCodec.AckClass.SUCCESS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec.AckClass;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class AcknowledgementCodecTest {

  /** sha256("UNIVERSAL_ERROR_ACKNOWLEDGEMENT"), as ibc-go v10 pins it. */
  static final byte[] UNIVERSAL =
      Base64.getDecoder().decode("R3TUpXWZP5Y7HAZXNzZhekV6vvhYkXjbjRDJS0q1Eas=");

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  static Stream<Arguments> rows() {
    return Stream.of(
        // IBC v2 universal error acknowledgement: exactly these 32 bytes
        arguments("universal error ack", UNIVERSAL, ERROR),
        arguments("universal ack minus its last byte", Arrays.copyOf(UNIVERSAL, 31), MALFORMED),
        arguments("universal ack plus a byte", concat(UNIVERSAL, new byte[] {0}), MALFORMED),
        arguments(
            "universal ack bytes as a base64 result are a plain success",
            utf8("{\"result\":\"R3TUpXWZP5Y7HAZXNzZhekV6vvhYkXjbjRDJS0q1Eas=\"}"),
            SUCCESS),
        // success
        arguments("ICS-20 success", utf8("{\"result\":\"AQ==\"}"), SUCCESS),
        arguments("unpadded base64", utf8("{\"result\":\"AQ\"}"), SUCCESS),
        arguments("standard alphabet", utf8("{\"result\":\"+/8=\"}"), SUCCESS),
        arguments("URL alphabet", utf8("{\"result\":\"-_8=\"}"), SUCCESS),
        arguments("URL alphabet unpadded", utf8("{\"result\":\"-_8\"}"), SUCCESS),
        arguments(
            "non-zero trailing bits (Go is not strict)", utf8("{\"result\":\"AR==\"}"), SUCCESS),
        arguments("zero bytes are still bytes", utf8("{\"result\":\"AAAA\"}"), SUCCESS),
        arguments("newline inside base64 is skipped", utf8("{\"result\":\"AQID\\n\"}"), SUCCESS),
        arguments("whitespace around tokens", utf8(" \n{ \"result\" :\t\"AQ==\" }\r\n"), SUCCESS),
        // error
        arguments("empty error text", utf8("{\"error\":\"\"}"), ERROR),
        arguments(
            "ibc-go error ack",
            utf8("{\"error\":\"ABCI code: 4: error handling packet: see events for details\"}"),
            ERROR),
        arguments("escaped unicode error", utf8("{\"error\":\"\\u00e9 \\ud83d\\ude00\"}"), ERROR),
        arguments("escaped key name", utf8("{\"\\u0065rror\":\"x\"}"), ERROR),
        arguments("error text that looks like base64", utf8("{\"error\":\"AQ==\"}"), ERROR),
        // packet data refuses it (code 9); an error text is only classified, never counted (Go too)
        arguments("escaped lone surrogate error", utf8("{\"error\":\"\\ud800\"}"), ERROR),
        // malformed
        arguments("escaped lone surrogate result", utf8("{\"result\":\"\\ud800\"}"), MALFORMED),
        arguments("both keys", utf8("{\"error\":\"x\",\"result\":\"AQ==\"}"), MALFORMED),
        arguments("empty result", utf8("{\"result\":\"\"}"), MALFORMED),
        arguments("result decoding to nothing", utf8("{\"result\":\"\\n\"}"), MALFORMED),
        arguments("padding on a non-multiple of 4", utf8("{\"result\":\"AQ=\"}"), MALFORMED),
        arguments("single base64 char", utf8("{\"result\":\"A\"}"), MALFORMED),
        arguments("only padding", utf8("{\"result\":\"====\"}"), MALFORMED),
        arguments("mixed alphabets", utf8("{\"result\":\"+_8=\"}"), MALFORMED),
        arguments("not base64", utf8("{\"result\":\"hello world!\"}"), MALFORMED),
        arguments("error is a number", utf8("{\"error\":5}"), MALFORMED),
        arguments("error is null", utf8("{\"error\":null}"), MALFORMED),
        arguments("result is null", utf8("{\"result\":null}"), MALFORMED),
        arguments("result is a number", utf8("{\"result\":1}"), MALFORMED),
        arguments("result is an array of bytes", utf8("{\"result\":[1]}"), MALFORMED),
        arguments("error is an object", utf8("{\"error\":{\"a\":1}}"), MALFORMED),
        arguments("error is a boolean", utf8("{\"error\":true}"), MALFORMED),
        arguments("capitalised key", utf8("{\"Error\":\"x\"}"), MALFORMED),
        arguments("upper-case key", utf8("{\"RESULT\":\"AQ==\"}"), MALFORMED),
        arguments("duplicate error", utf8("{\"error\":\"a\",\"error\":\"b\"}"), MALFORMED),
        arguments("duplicate result", utf8("{\"result\":\"AQ==\",\"result\":\"AQ==\"}"), MALFORMED),
        arguments("unknown extra key", utf8("{\"result\":\"AQ==\",\"extra\":\"x\"}"), MALFORMED),
        arguments("not JSON", utf8("this is not json"), MALFORMED),
        arguments("array", utf8("[]"), MALFORMED),
        arguments("JSON null", utf8("null"), MALFORMED),
        arguments("JSON string", utf8("\"AQ==\""), MALFORMED),
        arguments("empty object", utf8("{}"), MALFORMED),
        arguments("empty bytes", new byte[0], MALFORMED),
        arguments("whitespace only", utf8("  \n"), MALFORMED),
        arguments("null array", null, MALFORMED),
        arguments(
            "invalid UTF-8",
            new byte[] {'{', '"', 'e', 'r', 'r', 'o', 'r', '"', ':', '"', (byte) 0xff, '"', '}'},
            MALFORMED),
        arguments("trailing garbage", utf8("{\"result\":\"AQ==\"} x"), MALFORMED),
        arguments("two objects", utf8("{\"result\":\"AQ==\"}{}"), MALFORMED),
        arguments("unterminated", utf8("{\"error\":\"x\""), MALFORMED),
        arguments("trailing comma", utf8("{\"error\":\"x\",}"), MALFORMED),
        arguments("single quotes", utf8("{'error':'x'}"), MALFORMED),
        arguments("comment", utf8("{\"result\":\"AQ==\" /* c */}"), MALFORMED),
        arguments(
            "byte order mark",
            concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, utf8("{\"error\":\"x\"}")),
            MALFORMED),
        arguments("UTF-16", "{\"error\":\"x\"}".getBytes(StandardCharsets.UTF_16), MALFORMED),
        arguments("raw control char in string", utf8("{\"error\":\"a\u0001b\"}"), MALFORMED),
        arguments(
            "deeply nested value",
            utf8("{\"error\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}"),
            MALFORMED));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void classify(String name, byte[] ack, AckClass expected) {
    assertEquals(expected, AcknowledgementCodec.classify(ack));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void decodeAgreesWithClassify(String name, byte[] ack, AckClass expected) {
    Optional<Acknowledgement> decoded = AcknowledgementCodec.decode(ack);
    switch (expected) {
      case SUCCESS -> assertTrue(decoded.orElseThrow().isSuccess());
      case ERROR -> assertTrue(decoded.orElseThrow().error().isPresent());
      case MALFORMED -> assertEquals(Optional.empty(), decoded);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void parseThrowsCode14ExactlyWhenMalformed(String name, byte[] ack, AckClass expected) {
    if (expected == MALFORMED) {
      RateLimitException e =
          assertThrows(RateLimitException.class, () -> AcknowledgementCodec.parse(ack));
      assertEquals(ErrorCode.INVALID_ACKNOWLEDGEMENT, e.code());
    } else {
      assertEquals(expected == SUCCESS, AcknowledgementCodec.parse(ack).isSuccess());
    }
  }

  @Test
  void decode_givesTheResultBytesAndTheErrorText() {
    assertArrayEquals(
        new byte[] {1},
        AcknowledgementCodec.decode(utf8("{\"result\":\"AQ==\"}"))
            .orElseThrow()
            .result()
            .orElseThrow());
    assertArrayEquals(
        new byte[] {(byte) 0xfb, (byte) 0xff},
        AcknowledgementCodec.decode(utf8("{\"result\":\"-_8\"}"))
            .orElseThrow()
            .result()
            .orElseThrow());
    assertEquals(
        Optional.of("a\nb"),
        AcknowledgementCodec.decode(utf8("{\"error\":\"a\\nb\"}")).orElseThrow().error());
    assertEquals(
        Optional.of("universal error acknowledgement"),
        AcknowledgementCodec.decode(UNIVERSAL).orElseThrow().error());
  }

  /** What a code-14 event says of an ack with neither or both of its keys. */
  @Test
  void parse_namesTheMissingOrDoubledKey() {
    assertEquals("invalid acknowledgement: neither \"result\" nor \"error\" is set",
        assertThrows(RateLimitException.class, () -> AcknowledgementCodec.parse(utf8("{}")))
            .getMessage());
    assertEquals("invalid acknowledgement: both \"result\" and \"error\" are set",
        assertThrows(RateLimitException.class,
            () -> AcknowledgementCodec.parse(utf8("{\"error\":\"x\",\"result\":\"AQ==\"}")))
            .getMessage());
  }

  @Test
  void universalAck_isTheSha256OfItsName() throws Exception {
    byte[] digest =
        java.security.MessageDigest.getInstance("SHA-256")
            .digest("UNIVERSAL_ERROR_ACKNOWLEDGEMENT".getBytes(StandardCharsets.US_ASCII));
    assertArrayEquals(UNIVERSAL, digest);
  }
  /**
   * No read limit is left to Jackson's defaults (20 M characters per string in this release, 5 M
   * in 2.15.0): nodes linking other jackson-core versions must not split on one ack.
   */
  @Test
  void anAckResultPastJacksonsDefaultStringLimit_isASuccess() {
    byte[] result = new byte[15_000_003]; // 20,000,004 base64 characters
    result[0] = 1;
    byte[] ack = utf8("{\"result\":\"" + Base64.getEncoder().encodeToString(result) + "\"}");
    assertEquals(SUCCESS, AcknowledgementCodec.classify(ack));
  }
}
