package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.model.Texts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.PureMemo;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DenomTraceTest {

  private static String hops(DenomTrace t) {
    return t.trace().stream().map(Hop::toString).collect(Collectors.joining("|"));
  }

  /** Full path, then the hops joined by '|', then the base denom: ibc-go's ExtractDenomFromPath. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      value = {
        "uatom; ''; uatom",
        "transfer/channel-0/uatom; transfer/channel-0; uatom",
        "transfer/channel-0/transfer/channel-1/uatom; transfer/channel-0|transfer/channel-1; uatom",
        "a/channel-1/b/channel-2/c/channel-3/uatom; a/channel-1|b/channel-2|c/channel-3; uatom",
        "transfer/channel-1; ''; transfer/channel-1", // two parts: always a base denom
        "abc/xyz-5/token; abc/xyz-5; token", // xyz-5 is a valid client id
        "transfer/channelToA/uatom; ''; transfer/channelToA/uatom",
        "transfer/07-tendermint-5/uatom; transfer/07-tendermint-5; uatom",
        "transfer/09-localhost/uatom; transfer/09-localhost; uatom",
        "transfer/channel-0/07-tendermint-0/x; transfer/channel-0; 07-tendermint-0/x",
        "gamm/pool/1; ''; gamm/pool/1",
        "transfer/channel-0/gamm/pool/1; transfer/channel-0; gamm/pool/1",
        "transfer/channel-0/a/b/c; transfer/channel-0; a/b/c",
        "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2; '';"
            + " ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2",
        "transfer/channel-18446744073709551615/uatom; transfer/channel-18446744073709551615; uatom",
        "transfer/channel-18446744073709551616/uatom; '';"
            + " transfer/channel-18446744073709551616/uatom",
        "transfer/channel-01/uatom; transfer/channel-01; uatom",
        "/channel-1/uatom; /channel-1; uatom",
        "transfer/channel-0/uatom/; transfer/channel-0; uatom/",
        "transfer//uatom; ''; transfer//uatom",
        "erc20/0xabc; ''; erc20/0xabc",
        "factory/osmo1abc/ufoo; ''; factory/osmo1abc/ufoo",
        "transfer/channel-0/factory/osmo1abc/ufoo; transfer/channel-0; factory/osmo1abc/ufoo",
        "transfer/channel-1/abc/xyz-5/t; transfer/channel-1|abc/xyz-5; t",
      })
  void parse_likeIbcGo(String fullPath, String expectedHops, String expectedBase) {
    DenomTrace t = DenomTrace.parse(fullPath);
    assertEquals(expectedHops, hops(t));
    assertEquals(expectedBase, t.baseDenom());
    assertEquals(!expectedHops.isEmpty(), t.hasTrace());
    assertEquals(fullPath, t.fullPath());
  }

  @ParameterizedTest(name = "\"{0}\"")
  @ValueSource(
      strings = {
        "",
        " ",
        "\u00a0",
        "transfer/channel-1/transfer/channel-2",
        "a/channel-1/b/channel-2",
        "x/channel-1/",
        "transfer/channel-1/ ",
        "transfer/channel-1/\t",
      })
  void parse_emptyOrBlankBase_isInvalidPacketData(String fullPath) {
    RateLimitException e = assertThrows(RateLimitException.class, () -> DenomTrace.parse(fullPath));
    assertEquals(ErrorCode.INVALID_PACKET_DATA, e.code());
  }

  @Test
  void parse_null_isACallerMistake() {
    assertThrows(NullPointerException.class, () -> DenomTrace.parse(null));
  }

  @Test
  void ibcDenom_hashesTheFullPathUpperCase() {
    assertEquals(
        "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2",
        DenomTrace.parse("transfer/channel-0/uatom").ibcDenom());
    assertEquals(
        "ibc/D24B4564BCD51D3D02D9987D92571EAC5915676A9BD6D9B0C1D0254CB8A5EA34",
        new DenomTrace(List.of(new Hop("transfer", "channel-5")), "uosmo").ibcDenom());
    assertEquals("uatom", DenomTrace.parse("uatom").ibcDenom());
    assertEquals("transfer/channel-1", DenomTrace.parse("transfer/channel-1").ibcDenom());
  }

  @Test
  void constructor_validates() {
    assertThrows(IllegalArgumentException.class, () -> new DenomTrace(List.of(), " "));
    assertThrows(NullPointerException.class, () -> new DenomTrace(List.of(), null));
    assertThrows(NullPointerException.class, () -> new DenomTrace(null, "x"));
    List<Hop> hops = new ArrayList<>(List.of(new Hop("transfer", "channel-0")));
    DenomTrace t = new DenomTrace(hops, "uatom");
    hops.clear();
    assertEquals(1, t.trace().size(), "trace is copied");
    assertFalse(new DenomTrace(List.of(), "uatom").hasTrace());
  }

  @ParameterizedTest
  @CsvSource({
    "transfer, channelX",
    "transfer, ''",
    "trans/fer, channel-0",
    "transfer, channel-1/x"
  })
  void hop_rejectsWhatCannotBeAHop(String port, String id) {
    assertThrows(IllegalArgumentException.class, () -> new Hop(port, id));
  }

  /**
   * Denom hashes are memoized: whatever the memo holds (hits, slots taken over, traces too long to
   * be kept), {@code hashed} answers what {@code hash} computes.
   */
  @Test
  void hashed_memoized_answersTheComputedHash() {
    assertEquals(
        "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2",
        DenomTrace.hash("transfer/channel-0/uatom"));
    String[] pool = {"transfer", "channel-0", "channel-7", "07-tendermint-3", "uatom", "gamm"};
    Random random = new Random(0x3E3_0L);
    for (int i = 0; i < 20_000; i++) {
      String path = random.nextInt(100) == 0
          ? "transfer/channel-0/" + "u".repeat(PureMemo.MAX_KEY_CHARS - 20 + random.nextInt(4))
          : randomPath(random, pool, 3);
      assertEquals(DenomTrace.hash(path), DenomTrace.hashed(path), path);
    }
  }

  @Test
  void parse_fullPathRoundTripsRandomPaths() {
    String[] pool = {
      "transfer",
      "channel-0",
      "channel-42",
      "07-tendermint-3",
      "09-localhost",
      "xyz-5",
      "uatom",
      "gamm",
      "pool",
      "1",
      "",
      "channelToA",
      "ibc",
      "factory",
      "-1",
      "channel-"
    };
    Random random = new Random(11L);
    int parsed = 0;
    for (int i = 0; i < 5_000; i++) {
      String path = randomPath(random, pool, 8);
      try {
        DenomTrace t = DenomTrace.parse(path);
        parsed++;
        assertEquals(path, t.fullPath());
        assertEquals(t, DenomTrace.parse(t.fullPath()));
      } catch (RateLimitException e) {
        assertEquals(ErrorCode.INVALID_PACKET_DATA, e.code(), path);
      }
    }
    assertTrue(parsed > 1_000, "most random paths have a base denom");
  }

  /**
   * {@link DenomTrace#parse} walks the parts in place; this is ibc-go's {@code
   * ExtractDenomFromPath} written as it reads (split, then pairs), and both must agree on every
   * path: the same hops and base, or the same rejection.
   */
  @Test
  void parse_agreesWithTheSplitReadingOfIbcGo() {
    String[] pool = {
      "transfer", "channel-0", "channel-7", "07-tendermint-3", "xyz-5", "uatom", "", " ", "a b",
      "channel-", "-1", "ibc", "gamm", "pool"
    };
    Random random = new Random(0xD3_70_2026L);
    int accepted = 0;
    for (int i = 0; i < 20_000; i++) {
      String path = randomPath(random, pool, 7);
      String expected = splitReading(path);
      String actual;
      try {
        DenomTrace t = DenomTrace.parse(path);
        actual = t.trace() + " " + t.baseDenom();
        accepted++;
      } catch (RateLimitException e) {
        actual = "code " + e.code().code();
      }
      assertEquals(expected, actual, path);
    }
    assertTrue(accepted > 5_000, "accepted: " + accepted);
  }

  /** 1 to {@code maxParts} parts from {@code pool}, joined with {@code /}. */
  static String randomPath(Random random, String[] pool, int maxParts) {
    int n = 1 + random.nextInt(maxParts);
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < n; k++) {
      sb.append(k > 0 ? "/" : "").append(pool[random.nextInt(pool.length)]);
    }
    return sb.toString();
  }

  private static String splitReading(String fullPath) {
    String[] parts = fullPath.split("/", -1);
    List<Hop> hops = new ArrayList<>();
    String base = "";
    if (parts.length == 1) {
      base = fullPath;
    } else {
      for (int i = 0; i < parts.length; i += 2) {
        if (i < parts.length - 1
            && parts.length > 2
            && dev.ratelimit.core.model.Identifiers.isChannelOrClientId(parts[i + 1])) {
          hops.add(new Hop(parts[i], parts[i + 1]));
        } else {
          base = String.join("/", java.util.Arrays.asList(parts).subList(i, parts.length));
          break;
        }
      }
    }
    return Texts.isGoBlank(base) ? "code 9" : hops + " " + base;
  }
}
