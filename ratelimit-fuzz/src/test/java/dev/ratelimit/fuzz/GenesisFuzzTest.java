package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.genesis.GenesisCodec;
import dev.ratelimit.core.testing.TestChain;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * Genesis files (SPEC §7): any text either decodes or is refused with code 12, nothing else; what
 * decodes imports, and its export re-imports to the same store, byte for byte.
 */
class GenesisFuzzTest {
  private static final Instant GENESIS_TIME = Instant.parse("2024-03-01T10:20:30Z");

  @FuzzTest(maxDuration = "5m")
  void anyText_decodesOrIsRefusedWithCode12_andWhatDecodesRoundTrips(byte[] input) {
    String json = new String(input, StandardCharsets.UTF_8);
    GenesisCodec.Decoded decoded;
    try {
      decoded = GenesisCodec.fromJson(json);
    } catch (RateLimitException e) {
      Expected.assertReason(e);
      assertEquals(ErrorCode.INVALID_GENESIS, e.code(), e::getMessage);
      return;
    }
    Genesis genesis = decoded.genesis();
    GenesisCodec.Decoded again = GenesisCodec.fromJson(GenesisCodec.toJson(genesis));
    assertEquals(genesis, again.genesis(), "fromJson(toJson(genesis))");
    // (an epoch number near 2^64 - 1 is kept as it is, with a warning that it will halt the chain)
    assertEquals(List.of(), again.warnings().stream()
        .filter(w -> !w.startsWith("hour_epoch.epoch_number ")).toList(),
        "a written genesis needs no adjusting");

    try (TestChain first = TestChain.inMemory(GENESIS_TIME);
        TestChain second = TestChain.inMemory(GENESIS_TIME.plusSeconds(86_400))) {
      first.initGenesis(genesis);
      Genesis exported = first.keeper().exportGenesis(first.ctx());
      second.initGenesis(GenesisCodec.fromJson(GenesisCodec.toJson(exported)).genesis());
      assertEquals(exported, second.keeper().exportGenesis(second.ctx()));
      assertEquals(first.digest(), second.digest(), "the export re-imports to the same store");
    }
  }
}
