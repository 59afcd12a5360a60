package dev.ratelimit.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC §3 hop ids: channel-N or a client id, N with at most 20 digits and within uint64. */
class IdentifiersTest {

  @ParameterizedTest(name = "\"{0}\": channel={1} client={2}")
  @CsvSource({
    "channel-0, true, true",
    "channel-5, true, true",
    "channel-18446744073709551615, true, true", // 2^64 - 1
    "channel-18446744073709551616, false, false", // 2^64
    "channel-00000000000000000001, true, true", // 20 digits
    "channel-000000000000000000001, false, false", // 21 digits
    "channel-, false, false",
    "channel-x, false, false",
    "channel-1a, false, false",
    "Channel-1, false, true", // not a channel id, but a client id shape
    "07-tendermint-0, false, true",
    "09-localhost, false, true",
    "hannel-11, false, true",
    "a-1, false, true",
    "a_b-c_d-7, false, true",
    "a--1, false, false",
    "-1, false, false",
    "a-, false, false",
    "a -1, false, false",
    "transfer/channel-1, false, false",
    "channel-1/, false, false",
    "'', false, false",
  })
  void hopIds(String id, boolean channel, boolean client) {
    assertEquals(channel, Identifiers.isChannelId(id));
    assertEquals(client, Identifiers.isClientId(id));
    assertEquals(channel || client, Identifiers.isChannelOrClientId(id));
    if (channel || client) {
      assertEquals(id, Identifiers.requireChannelOrClientId(id, "channel_or_client_id"));
    } else {
      assertEquals("channel_or_client_id must be a channel id (channel-N) or a client id, got "
              + Texts.quote(id),
          assertThrows(IllegalArgumentException.class,
              () -> Identifiers.requireChannelOrClientId(id, "channel_or_client_id")).getMessage());
    }
  }

  @Test
  void longClientPrefix_hasNoLengthLimit() {
    String id = "07-tendermint" + "x".repeat(500) + "-18446744073709551615";
    assertEquals(true, Identifiers.isClientId(id));
    assertEquals(false, Identifiers.isChannelOrClientId(null));
  }

  /**
   * The in-place scans read ids exactly as SPEC §3's patterns with the uint64 bound taken as a
   * number, on seeded ids built near the edges: prefixes of letters, digits, '_' and '-', 1 to 21
   * digits around 2^64.
   */
  @Test
  void scans_matchTheSpecPatterns_onSeededIds() {
    Pattern channel = Pattern.compile("channel-([0-9]{1,20})");
    Pattern client = Pattern.compile("[A-Za-z0-9_]+([A-Za-z0-9_-]+[A-Za-z0-9_])?-([0-9]{1,20})");
    BigInteger maxUint64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    String[] prefixes = {"channel", "Channel", "07-tendermint", "a", "_", "-", "a-", "x_y", ""};
    String prefixChars = "abz_-AZ09" + "`{@[/:^ ."; // each class's edges, and just outside
    String[] numbers = {"0", "1", "18446744073709551615", "18446744073709551616",
        "99999999999999999999", "09999999999999999999", "18446744073709551605",
        "18446744073709551614", "28446744073709551615", "184467440737095516150", "1a", ""};
    SplittableRandom random = new SplittableRandom(7);
    int checked = 0;
    for (int i = 0; i < 50_000; i++) {
      StringBuilder id = new StringBuilder(prefixes[random.nextInt(prefixes.length)]);
      for (int extra = random.nextInt(4); extra > 0; extra--) {
        id.append(prefixChars.charAt(random.nextInt(prefixChars.length())));
      }
      id.append(random.nextInt(8) == 0 ? "" : "-");
      if (random.nextBoolean()) {
        id.append(numbers[random.nextInt(numbers.length)]);
      } else {
        for (int digits = random.nextInt(22); digits > 0; digits--) {
          id.append((char) ('0' + random.nextInt(10)));
        }
      }
      String s = id.toString();
      boolean expectChannel = fitsUint64(channel.matcher(s), 1, maxUint64);
      boolean expectClient =
          s.equals("09-localhost") || fitsUint64(client.matcher(s), 2, maxUint64);
      assertEquals(expectChannel, Identifiers.isChannelId(s), s);
      assertEquals(expectClient, Identifiers.isClientId(s), s);
      checked += expectChannel || expectClient ? 1 : 0;
    }
    // the generator must reach both answers often, or the comparison proves little
    assertEquals(true, checked > 10_000 && checked < 40_000, "valid ids: " + checked);
  }

  private static boolean fitsUint64(Matcher m, int digitsGroup, BigInteger max) {
    return m.matches() && new BigInteger(m.group(digitsGroup)).compareTo(max) <= 0;
  }
}
