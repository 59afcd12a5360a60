package dev.ratelimit.middleware.ibc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Base64;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GoBase64Test {

  /** Text, then the bytes Go's protojson decodes it to (null: Go rejects it). */
  static Stream<Arguments> rows() {
    return Stream.of(
        arguments("", new byte[0]),
        arguments("AQ==", new byte[] {1}),
        arguments("AQ", new byte[] {1}),
        arguments("AQI=", new byte[] {1, 2}),
        arguments("AQI", new byte[] {1, 2}),
        arguments("AQID", new byte[] {1, 2, 3}),
        arguments("-_8=", new byte[] {(byte) 0xfb, (byte) 0xff}),
        arguments("+/8=", new byte[] {(byte) 0xfb, (byte) 0xff}),
        arguments("AR==", new byte[] {1}), // trailing bits ignored (not strict)
        arguments("AQID\n\n\n\n", new byte[] {1, 2, 3}), // len 8: padded mode, newlines skipped
        arguments("\n\n\n\n", new byte[0]),
        arguments("AQ=\n=\r\n\n", new byte[] {1}), // newlines inside and after the padding
        arguments("A\nQI=\n\n\n", new byte[] {1, 2}), // newline among the digits
        arguments("AQ=", null), // length 3: unpadded mode, '=' is not a digit
        arguments("AQ==\n", null), // length 5: unpadded mode again
        arguments("A", null),
        arguments("AQIDB", null), // a lone final sextet
        arguments("A===", null),
        arguments("====", null),
        arguments("AQ=A", null),
        arguments("AQ==AQ==", null), // data after padding
        arguments("AQ\n\n", null), // padded mode, text cut short
        arguments("+_8=", null), // URL alphabet chosen, '+' not in it
        arguments("AQ I", null),
        arguments("\u00e9\u00e9", null));
  }

  @ParameterizedTest(name = "[{index}] \"{0}\"")
  @MethodSource("rows")
  void decodesLikeGoProtojson(String text, byte[] expected) {
    Optional<byte[]> got = GoBase64.decodeProtoJsonBytes(text);
    if (expected == null) {
      assertEquals(Optional.empty(), got.map(b -> "decoded " + b.length + " bytes"));
    } else {
      assertArrayEquals(expected, got.orElseThrow());
    }
  }

  @Test
  void readsEveryJavaEncoding() {
    Random random = new Random(7L);
    for (int len = 0; len < 64; len++) {
      for (int round = 0; round < 10; round++) {
        byte[] data = new byte[len];
        random.nextBytes(data);
        for (Base64.Encoder enc :
            new Base64.Encoder[] {
              Base64.getEncoder(),
              Base64.getEncoder().withoutPadding(),
              Base64.getUrlEncoder(),
              Base64.getUrlEncoder().withoutPadding()
            }) {
          String text = enc.encodeToString(data);
          assertArrayEquals(data, GoBase64.decodeProtoJsonBytes(text).orElseThrow(), text);
        }
      }
    }
  }
}
