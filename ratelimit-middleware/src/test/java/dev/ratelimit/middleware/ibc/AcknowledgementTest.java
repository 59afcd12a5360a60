package dev.ratelimit.middleware.ibc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.ErrorCode;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AcknowledgementTest {

  private static String json(Acknowledgement ack) {
    return new String(ack.toJsonBytes(), StandardCharsets.UTF_8);
  }

  @Test
  void successOfOneByte_isExactlyWhatIbcGoCommits() {
    assertEquals("{\"result\":\"AQ==\"}", json(Acknowledgement.success(new byte[] {1})));
    assertArrayEquals(
        "{\"result\":\"AQ==\"}".getBytes(StandardCharsets.US_ASCII),
        Acknowledgement.SUCCESS.toJsonBytes());
    assertEquals(Acknowledgement.success(new byte[] {1}), Acknowledgement.SUCCESS);
  }

  @Test
  void successResult_isAFreshCopyOfOneByteOne() {
    byte[] r = Acknowledgement.successResult();
    assertArrayEquals(new byte[] {1}, r);
    r[0] = 9;
    assertArrayEquals(new byte[] {1}, Acknowledgement.successResult());
    assertArrayEquals(new byte[] {1}, Acknowledgement.SUCCESS.result().orElseThrow());
  }

  @Test
  void successResult_usesStandardPaddedBase64() {
    assertEquals(
        "{\"result\":\"+/8=\"}",
        json(Acknowledgement.success(new byte[] {(byte) 0xfb, (byte) 0xff})));
    assertEquals("{\"result\":\"AQID\"}", json(Acknowledgement.success(new byte[] {1, 2, 3})));
  }

  @ParameterizedTest(name = "code {0}")
  @CsvSource({"4", "7", "9", "10", "1", "2147483647"})
  void rateLimitError_isTheFixedIbcGoText(int code) {
    assertEquals(
        "{\"error\":\"ABCI code: " + code + ": error handling packet: see events for details\"}",
        json(Acknowledgement.rateLimitError(code)));
  }

  @Test
  void rateLimitError_byErrorCodeUsesItsNumber() {
    assertEquals(
        Acknowledgement.rateLimitError(4),
        Acknowledgement.rateLimitError(ErrorCode.QUOTA_EXCEEDED));
    assertEquals(
        "{\"error\":\"ABCI code: 7: error handling packet: see events for details\"}",
        json(Acknowledgement.rateLimitError(ErrorCode.DENOM_BLACKLISTED)));
  }

  @ParameterizedTest
  @CsvSource({"0", "-1"})
  void rateLimitError_nonPositiveCodeIsACallerMistake(int code) {
    assertThrows(IllegalArgumentException.class, () -> Acknowledgement.rateLimitError(code));
  }

  @Test
  void errorText_isEscapedLikeGo() {
    assertEquals(
        "{\"error\":\"a \\\"b\\\" \\u003c\\u0026\\u003e\\n\u00e9\"}",
        json(Acknowledgement.error("a \"b\" <&>\n\u00e9")));
    assertEquals("{\"error\":\"\"}", json(Acknowledgement.error("")));
  }

  @Test
  void accessors_tellTheKindApart() {
    Acknowledgement ok = Acknowledgement.success(new byte[] {5, 6});
    assertTrue(ok.isSuccess());
    assertArrayEquals(new byte[] {5, 6}, ok.result().orElseThrow());
    assertEquals(Optional.empty(), ok.error());

    Acknowledgement err = Acknowledgement.error("boom");
    assertFalse(err.isSuccess());
    assertEquals(Optional.of("boom"), err.error());
    assertTrue(err.result().isEmpty());
  }

  @Test
  void resultBytes_areCopiedInAndOut() {
    byte[] in = {1, 2};
    Acknowledgement ack = Acknowledgement.success(in);
    in[0] = 7;
    ack.result().orElseThrow()[1] = 7;
    assertArrayEquals(new byte[] {1, 2}, ack.result().orElseThrow());
  }

  @Test
  void invalidArguments_areRejected() {
    assertThrows(IllegalArgumentException.class, () -> Acknowledgement.success(new byte[0]));
    assertThrows(NullPointerException.class, () -> Acknowledgement.success(null));
    assertThrows(NullPointerException.class, () -> Acknowledgement.error(null));
    assertThrows(
        NullPointerException.class, () -> Acknowledgement.rateLimitError((ErrorCode) null));
  }

  @Test
  void equality_isByContent() {
    assertEquals(
        Acknowledgement.success(new byte[] {1, 2}), Acknowledgement.success(new byte[] {1, 2}));
    assertEquals(
        Acknowledgement.success(new byte[] {1, 2}).hashCode(),
        Acknowledgement.success(new byte[] {1, 2}).hashCode());
    assertEquals(Acknowledgement.error("x"), Acknowledgement.error("x"));
    assertNotEquals(Acknowledgement.error("x"), Acknowledgement.error("y"));
    assertNotEquals(Acknowledgement.error("AQ=="), Acknowledgement.success(new byte[] {1}));
    assertEquals("Acknowledgement[result=AQ==]", Acknowledgement.SUCCESS.toString());
  }

  @Test
  void toJsonBytes_readsBackThroughTheSharedDecoder() {
    Random random = new Random(20240611L);
    for (int i = 0; i < 500; i++) {
      Acknowledgement ack;
      if (random.nextBoolean()) {
        byte[] result = new byte[1 + random.nextInt(40)];
        random.nextBytes(result);
        ack = Acknowledgement.success(result);
      } else {
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(20);
        for (int k = 0; k < n; k++) {
          int cp;
          do {
            cp = random.nextInt(4) == 0 ? random.nextInt(0x80) : random.nextInt(0x10FFFF + 1);
          } while (Character.getType(cp) == Character.SURROGATE);
          sb.appendCodePoint(cp);
        }
        ack = Acknowledgement.error(sb.toString());
      }
      assertEquals(ack, AcknowledgementCodec.parse(ack.toJsonBytes()), ack.toString());
    }
  }
}
