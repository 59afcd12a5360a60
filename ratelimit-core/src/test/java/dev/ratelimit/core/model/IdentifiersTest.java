package dev.ratelimit.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
  }

  @org.junit.jupiter.api.Test
  void longClientPrefix_hasNoLengthLimit() {
    String id = "07-tendermint" + "x".repeat(500) + "-18446744073709551615";
    assertEquals(true, Identifiers.isClientId(id));
    assertEquals(false, Identifiers.isChannelOrClientId(null));
  }
}
