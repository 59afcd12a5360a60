package dev.ratelimit.proto.v1;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.Any;
import com.google.protobuf.Duration;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.JsonFormat;
import java.time.Instant;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * Pins the protobuf bytes and JSON of the {@code ratelimit.v1} messages, so that a renumbered or
 * retyped field (which would break Go tooling reading our state and transactions) fails here.
 *
 * <p>The expected bytes are worked out by hand, one line per field: tag = field_number << 3 |
 * wire_type (0 = varint, 2 = length-delimited), then for wire type 2 a varint length and the bytes.
 * Fields are written in field-number order; proto3 leaves out fields at their default.
 */
class WireFormatTest {

  // ---------------------------------------------------------------- expected bytes
  // One literal per field, bytes separated by spaces (stripped before comparing).

  /** Path{denom "uatom", channel_or_client_id "channel-0"}: 7 + 11 = 18 bytes. */
  private static final String PATH =
      // denom = 1, LEN: tag 1<<3|2 = 0x0a, length 5, "uatom"
      "0a 05 75 61 74 6f 6d "
          // channel_or_client_id = 2, LEN: tag 2<<3|2 = 0x12, length 9, "channel-0"
          + "12 09 63 68 61 6e 6e 65 6c 2d 30 ";

  /** Quota{"10", "20", 24}: 4 + 4 + 2 = 10 bytes. */
  private static final String QUOTA =
      // max_percent_send = 1, LEN: tag 0x0a, length 2, "10"
      "0a 02 31 30 "
          // max_percent_recv = 2, LEN: tag 0x12, length 2, "20"
          + "12 02 32 30 "
          // duration_hours = 3, VARINT: tag 3<<3|0 = 0x18, value 24 = 0x18 (< 128: one byte)
          + "18 18 ";

  /** Flow{"1", "2", "100"}: 3 + 3 + 5 = 11 bytes. */
  private static final String FLOW =
      // inflow = 1, LEN: tag 0x0a, length 1, "1"
      "0a 01 31 "
          // outflow = 2, LEN: tag 0x12, length 1, "2"
          + "12 01 32 "
          // channel_value = 3, LEN: tag 3<<3|2 = 0x1a, length 3, "100"
          + "1a 03 31 30 30 ";

  /** RateLimit{path, quota, flow}: 2 + 18 + 2 + 10 + 2 + 11 = 45 bytes (0x2d). */
  private static final String RATE_LIMIT =
      // path = 1, LEN: tag 0x0a, length 18 = 0x12
      "0a 12 "
          + PATH
          // quota = 2, LEN: tag 0x12, length 10 = 0x0a
          + "12 0a "
          + QUOTA
          // flow = 3, LEN: tag 0x1a, length 11 = 0x0b
          + "1a 0b "
          + FLOW;

  private static final String MSG_ADD_RATE_LIMIT =
      // authority = 1, LEN: tag 0x0a, length 3, "gov"
      "0a 03 67 6f 76 "
          // denom = 2, LEN: tag 0x12, length 5, "uatom"
          + "12 05 75 61 74 6f 6d "
          // channel_or_client_id = 3, LEN: tag 0x1a, length 9, "channel-0"
          + "1a 09 63 68 61 6e 6e 65 6c 2d 30 "
          // max_percent_send = 4, LEN: tag 4<<3|2 = 0x22, length 2, "10"
          + "22 02 31 30 "
          // max_percent_recv = 5, LEN: tag 5<<3|2 = 0x2a, length 2, "10"
          + "2a 02 31 30 "
          // duration_hours = 6, VARINT: tag 6<<3|0 = 0x30, value 24 = 0x18
          + "30 18 ";

  /** WhitelistedAddressPair{"addr1", "addr2"}: 7 + 7 = 14 bytes. */
  private static final String PAIR =
      // sender = 1, LEN: tag 0x0a, length 5, "addr1"
      "0a 05 61 64 64 72 31 "
          // receiver = 2, LEN: tag 0x12, length 5, "addr2"
          + "12 05 61 64 64 72 32 ";

  /** HourEpoch{5, 3600s, 2024-01-01T05:00:00Z, 1}: 2 + 5 + 8 + 2 = 17 bytes (0x11). */
  private static final String HOUR_EPOCH =
      // epoch_number = 1, VARINT: tag 1<<3|0 = 0x08, value 5
      "08 05 "
          // duration = 2, LEN: tag 0x12, length 3, Duration{seconds = 1, VARINT: tag 0x08, 3600}.
          // 3600 = 0b11100_0010000: low 7 bits 0x10 with the continuation bit = 0x90, then
          // 3600 >> 7 = 28 = 0x1c (last byte). nanos = 0 is left out.
          + "12 03 08 90 1c "
          // epoch_start_time = 3, LEN: tag 0x1a, length 6, Timestamp{seconds = 1, VARINT: tag
          // 0x08, 1704085200 = 0x659246d0}. 7-bit groups, least significant first, continuation
          // bit on all but the last: 0x50 -> d0, 0x0d -> 8d, 0x49 -> c9, 0x2c -> ac, 0x06 -> 06.
          + "1a 06 08 d0 8d c9 ac 06 "
          // epoch_start_height = 4, VARINT: tag 4<<3|0 = 0x20, value 1
          + "20 01 ";

  private static final String GENESIS =
      // params = 1, LEN: tag 0x0a, length 0. Set explicitly: Go's genesis has it non-nullable, so
      // Go always writes these two bytes; leaving params unset would drop them.
      "0a 00 "
          // rate_limits = 2 (one element), LEN: tag 0x12, length 45 = 0x2d
          + "12 2d "
          + RATE_LIMIT
          // whitelisted_address_pairs = 3 (one element), LEN: tag 3<<3|2 = 0x1a, length 14 = 0x0e
          + "1a 0e "
          + PAIR
          // blacklisted_denoms = 4 (one element), LEN: tag 4<<3|2 = 0x22, length 5, "ustrd"
          + "22 05 75 73 74 72 64 "
          // pending_send_packet_sequence_numbers = 5, LEN: tag 5<<3|2 = 0x2a, length 17 = 0x11,
          // "channel-0/7/uatom"
          + "2a 11 63 68 61 6e 6e 65 6c 2d 30 2f 37 2f 75 61 74 6f 6d "
          // hour_epoch = 6, LEN: tag 6<<3|2 = 0x32, length 17 = 0x11
          + "32 11 "
          + HOUR_EPOCH
          // pending_recv_packet_sequence_numbers = 7 (ours, not in ibc-apps), LEN: tag 7<<3|2 =
          // 0x3a, length 17 = 0x11, "channel-1/9/uosmo"
          + "3a 11 63 68 61 6e 6e 65 6c 2d 31 2f 39 2f 75 6f 73 6d 6f ";

  // ---------------------------------------------------------------- messages

  private static RateLimit rateLimit() {
    return RateLimit.newBuilder()
        .setPath(Path.newBuilder().setDenom("uatom").setChannelOrClientId("channel-0"))
        .setQuota(
            Quota.newBuilder().setMaxPercentSend("10").setMaxPercentRecv("20").setDurationHours(24))
        .setFlow(Flow.newBuilder().setInflow("1").setOutflow("2").setChannelValue("100"))
        .build();
  }

  private static MsgAddRateLimit msgAddRateLimit() {
    return MsgAddRateLimit.newBuilder()
        .setAuthority("gov")
        .setDenom("uatom")
        .setChannelOrClientId("channel-0")
        .setMaxPercentSend("10")
        .setMaxPercentRecv("10")
        .setDurationHours(24)
        .build();
  }

  private static GenesisState genesis() {
    return GenesisState.newBuilder()
        .setParams(Params.getDefaultInstance())
        .addRateLimits(rateLimit())
        .addWhitelistedAddressPairs(
            WhitelistedAddressPair.newBuilder().setSender("addr1").setReceiver("addr2"))
        .addBlacklistedDenoms("ustrd")
        .addPendingSendPacketSequenceNumbers("channel-0/7/uatom")
        .setHourEpoch(
            HourEpoch.newBuilder()
                .setEpochNumber(5)
                .setDuration(Duration.newBuilder().setSeconds(3600))
                .setEpochStartTime(Timestamp.newBuilder().setSeconds(1704085200L))
                .setEpochStartHeight(1))
        .addPendingRecvPacketSequenceNumbers("channel-1/9/uosmo")
        .build();
  }

  /** Parses a spaced hex literal. */
  private static byte[] bytes(String spacedHex) {
    return HexFormat.of().parseHex(spacedHex.replace(" ", ""));
  }

  /** Asserts {@code actual} equals the spaced hex literal {@code expected}. */
  private static void assertBytes(String expected, byte[] actual) {
    assertEquals(expected.strip(), HexFormat.ofDelimiter(" ").formatHex(actual));
  }

  // ---------------------------------------------------------------- bytes

  @Test
  void rateLimit_bytesArePinned() throws InvalidProtocolBufferException {
    assertEquals(45, bytes(RATE_LIMIT).length);
    assertBytes(RATE_LIMIT, rateLimit().toByteArray());
    assertEquals(rateLimit(), RateLimit.parseFrom(bytes(RATE_LIMIT)));
  }

  @Test
  void msgAddRateLimit_bytesArePinned() throws InvalidProtocolBufferException {
    assertBytes(MSG_ADD_RATE_LIMIT, msgAddRateLimit().toByteArray());
    assertEquals(msgAddRateLimit(), MsgAddRateLimit.parseFrom(bytes(MSG_ADD_RATE_LIMIT)));
  }

  @Test
  void msgUpdateRateLimit_hasTheSameBytesAsAdd() throws InvalidProtocolBufferException {
    MsgUpdateRateLimit update = MsgUpdateRateLimit.parseFrom(bytes(MSG_ADD_RATE_LIMIT));
    assertEquals("channel-0", update.getChannelOrClientId());
    assertEquals(24, update.getDurationHours());
    assertBytes(MSG_ADD_RATE_LIMIT, update.toByteArray());
  }

  @Test
  void genesis_bytesArePinned() throws InvalidProtocolBufferException {
    assertEquals(
        1704085200L, Instant.parse("2024-01-01T05:00:00Z").getEpochSecond(), "timestamp input");
    assertBytes(GENESIS, genesis().toByteArray());
    assertEquals(genesis(), GenesisState.parseFrom(bytes(GENESIS)));
  }

  @Test
  void typeUrls_matchIbcApps() {
    assertEquals(
        "/ratelimit.v1.MsgAddRateLimit", "/" + MsgAddRateLimit.getDescriptor().getFullName());
    assertEquals(
        "/ratelimit.v1.MsgUpdateRateLimit", "/" + MsgUpdateRateLimit.getDescriptor().getFullName());
    assertEquals(
        "/ratelimit.v1.MsgRemoveRateLimit", "/" + MsgRemoveRateLimit.getDescriptor().getFullName());
    assertEquals(
        "/ratelimit.v1.MsgResetRateLimit", "/" + MsgResetRateLimit.getDescriptor().getFullName());
    assertEquals(
        "type.googleapis.com/ratelimit.v1.MsgAddRateLimit",
        Any.pack(msgAddRateLimit()).getTypeUrl());
  }

  // ---------------------------------------------------------------- JSON

  @Test
  void genesisJson_usesSnakeCaseWellKnownTypesAnd64BitStrings()
      throws InvalidProtocolBufferException {
    String json = JsonFormat.printer().preservingProtoFieldNames().print(genesis());

    for (String expected :
        new String[] {
          "\"params\": {\n",
          "\"rate_limits\": [",
          "\"channel_or_client_id\": \"channel-0\"",
          "\"max_percent_send\": \"10\"",
          "\"duration_hours\": \"24\"", // uint64 -> JSON string
          "\"channel_value\": \"100\"",
          "\"whitelisted_address_pairs\": [",
          "\"blacklisted_denoms\": [\"ustrd\"]",
          "\"pending_send_packet_sequence_numbers\": [\"channel-0/7/uatom\"]",
          "\"hour_epoch\": {",
          "\"epoch_number\": \"5\"", // uint64 -> JSON string
          "\"duration\": \"3600s\"", // google.protobuf.Duration
          "\"epoch_start_time\": \"2024-01-01T05:00:00Z\"", // google.protobuf.Timestamp
          "\"epoch_start_height\": \"1\"", // int64 -> JSON string
          "\"pending_recv_packet_sequence_numbers\": [\"channel-1/9/uosmo\"]",
        }) {
      assertTrue(json.contains(expected), () -> "missing " + expected + " in\n" + json);
    }
    assertFalse(json.contains("epochNumber"), json);
    assertFalse(json.contains("channelOrClientId"), json);

    GenesisState.Builder parsed = GenesisState.newBuilder();
    JsonFormat.parser().merge(json, parsed);
    assertEquals(genesis(), parsed.build());
  }

  @Test
  void jsonParser_acceptsDurationHoursAsNumberOrString() throws InvalidProtocolBufferException {
    for (String hours : new String[] {"24", "\"24\""}) {
      Quota.Builder quota = Quota.newBuilder();
      JsonFormat.parser()
          .merge(
              "{\"max_percent_send\": \"10\", \"max_percent_recv\": \"20\", \"duration_hours\": "
                  + hours
                  + "}",
              quota);
      assertEquals(rateLimit().getQuota(), quota.build(), hours);
    }
  }
}
