package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.middleware.ibc.GeneralPath;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.PacketDataCodec;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * ICS-20 packet data (SPEC §5) read three ways: the codec (its simple-input fast path and its
 * parser path), the parser path alone, and {@link ReferenceJson} with the spec's field rules.
 * They must agree on every input: the same data, or a rejection with the same code (9 or 10).
 */
class PacketDataFuzzTest {
  private static final List<String> KEYS = List.of("denom", "amount", "sender", "receiver", "memo");

  @FuzzTest(maxDuration = "5m")
  void decode_agreesWithTheReference(byte[] data) {
    Optional<Map<String, String>> reference =
        ReferenceJson.readFlatStringObject(data, Set.copyOf(KEYS));
    Object expected = expectedDecode(data);

    Object actual = Expected.valueOrCode(() -> PacketDataCodec.decode(data));
    assertEquals(expected, actual);

    try {
      Map<String, String> general = GeneralPath.readStringObject(data, Set.copyOf(KEYS));
      assertEquals(reference, Optional.of(general), "the parser path alone");
    } catch (RateLimitException e) {
      Expected.assertReason(e);
      assertEquals(ErrorCode.INVALID_PACKET_DATA, e.code());
      assertTrue(reference.isEmpty(), () -> "the parser path alone refused: " + e.getMessage());
    }

    if (actual instanceof FungibleTokenPacketData decoded) {
      byte[] encoded = PacketDataCodec.encode(decoded);
      assertEquals(decoded, PacketDataCodec.decode(encoded), "decode(encode(data))");
      assertArrayEquals(encoded, PacketDataCodec.encode(PacketDataCodec.decode(encoded)));
    }
  }

  /** SPEC §5 on packet data: the data, or the code of the first fault. */
  static Object expectedDecode(byte[] data) {
    return ReferenceJson.readFlatStringObject(data, Set.copyOf(KEYS))
        .map(PacketDataFuzzTest::expectedData)
        .orElse(ErrorCode.INVALID_PACKET_DATA);
  }

  /**
   * SPEC §5's field rules on the entries a reference read (JSON here; protobuf and ABI in {@link
   * Ics20PayloadFuzzTest}): the data, or the first fault's code.
   */
  static Object expectedData(Map<String, String> m) {
    for (String required : KEYS.subList(0, 4)) {
      if (!m.containsKey(required)) {
        return ErrorCode.INVALID_PACKET_DATA;
      }
    }
    String memo = m.getOrDefault("memo", "");
    for (String key : KEYS.subList(0, 4)) {
      if (Expected.goBlank(m.get(key)) || Expected.loneSurrogate(m.get(key))) {
        return ErrorCode.INVALID_PACKET_DATA;
      }
    }
    if (Expected.loneSurrogate(memo)) {
      return ErrorCode.INVALID_PACKET_DATA;
    }
    if (!Expected.validAmount(m.get("amount"))) {
      return ErrorCode.INVALID_AMOUNT;
    }
    return new FungibleTokenPacketData(
        m.get("denom"), new BigInteger(m.get("amount")), m.get("sender"), m.get("receiver"), memo);
  }
}
