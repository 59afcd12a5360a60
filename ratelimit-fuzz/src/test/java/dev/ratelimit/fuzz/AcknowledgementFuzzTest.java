package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec;
import dev.ratelimit.middleware.ibc.AcknowledgementCodec.AckClass;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Acknowledgements (SPEC §5) classified by the shared codec and by a reference written from the
 * spec and Go's protojson rules for a {@code bytes} field; they must agree on every input, and
 * the codec must never throw from {@code classify} or {@code decode}.
 */
class AcknowledgementFuzzTest {
  private static final byte[] UNIVERSAL_ERROR = Expected.sha256("UNIVERSAL_ERROR_ACKNOWLEDGEMENT");

  @FuzzTest(maxDuration = "5m")
  void classify_agreesWithTheReference(byte[] ack) {
    AckClass expected = expectedClass(ack);
    AckClass actual = AcknowledgementCodec.classify(ack);
    assertEquals(expected, actual);

    Optional<Acknowledgement> decoded = AcknowledgementCodec.decode(ack);
    assertEquals(actual == AckClass.MALFORMED, decoded.isEmpty(), "decode agrees with classify");
    try {
      Acknowledgement parsed = AcknowledgementCodec.parse(ack);
      assertEquals(decoded.get(), parsed);
    } catch (RateLimitException e) {
      Expected.assertReason(e);
      assertEquals(ErrorCode.INVALID_ACKNOWLEDGEMENT, e.code());
      assertEquals(AckClass.MALFORMED, actual);
    }
    decoded.ifPresent(
        a -> {
          // what this chain would write for the same acknowledgement reads back the same
          byte[] written = a.toJsonBytes();
          assertEquals(actual, AcknowledgementCodec.classify(written));
          if (a.isSuccess()) {
            assertArrayEquals(a.result().get(), AcknowledgementCodec.decode(written).get().result().get());
          } else if (!Expected.loneSurrogate(a.error().get())) {
            assertEquals(a, AcknowledgementCodec.decode(written).get());
          }
        });
  }

  static AckClass expectedClass(byte[] ack) {
    if (Arrays.equals(ack, UNIVERSAL_ERROR)) {
      return AckClass.ERROR;
    }
    Optional<Map<String, String>> object =
        ReferenceJson.readFlatStringObject(ack, Set.of("result", "error"));
    if (object.isEmpty() || object.get().size() != 1) {
      return AckClass.MALFORMED;
    }
    Map<String, String> m = object.get();
    if (m.containsKey("error")) {
      return AckClass.ERROR;
    }
    return protoJsonBytes(m.get("result")).filter(b -> b.length > 0).isPresent()
        ? AckClass.SUCCESS
        : AckClass.MALFORMED;
  }

  /**
   * Go protojson's reading of a {@code bytes} field: the URL alphabet if the text holds {@code -}
   * or {@code _}, else the standard one; padding required iff the length is a multiple of four;
   * {@code \r} and {@code \n} ignored (Go's decoder skips them); trailing bits need not be zero.
   */
  static Optional<byte[]> protoJsonBytes(String text) {
    boolean url = text.indexOf('-') >= 0 || text.indexOf('_') >= 0;
    boolean padded = text.getBytes(StandardCharsets.UTF_8).length % 4 == 0;
    String data = text.replace("\r", "").replace("\n", "");
    String alphabet =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" + (url ? "-_" : "+/");
    int pad = 0;
    while (pad < data.length() && data.charAt(data.length() - 1 - pad) == '=') {
      pad++;
    }
    String body = data.substring(0, data.length() - pad);
    if (!body.chars().allMatch(c -> alphabet.indexOf(c) >= 0)) {
      return Optional.empty();
    }
    if (padded) {
      if (data.length() % 4 != 0 || pad > 2 || (pad > 0 && body.length() % 4 + pad != 4)) {
        return Optional.empty();
      }
    } else if (pad > 0 || body.length() % 4 == 1) {
      return Optional.empty();
    }
    // Java's decoders check trailing bits no more than Go's non-strict one does
    Base64.Decoder decoder = url ? Base64.getUrlDecoder() : Base64.getDecoder();
    return Optional.of(decoder.decode(body));
  }
}
