package dev.ratelimit.cli.simulate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ScenarioParserTest {

  private static List<Scenario> parse(String json) {
    return ScenarioParser.parse("f.json", json.getBytes(StandardCharsets.UTF_8)).requireWellFormed();
  }

  private static String malformed(String json) {
    return assertThrows(MalformedScenarioException.class, () -> parse(json)).getMessage();
  }

  @Test
  void generatorForms_bareList_pythonTimes_nullAsAbsent() {
    List<Scenario> list = parse("[{\"name\": \"a\", \"steps\": []},"
        + " {\"name\": \"b\", \"start_time\": \"2024-03-04 05:06:07+02:00\", \"chain_id\": null,"
        + " \"steps\": [{\"op\": \"begin_block\", \"time\": \"2024-03-04T05:00:00\","
        + " \"advance_seconds\": null, \"expect\": null}]}]");
    assertEquals(List.of("a", "b"), list.stream().map(Scenario::name).toList());
    Scenario b = list.get(1);
    assertEquals(Instant.parse("2024-03-04T03:06:07Z"), b.startTime());
    assertEquals(ScenarioParser.DEFAULT_CHAIN_ID, b.chainId());
    assertEquals(new Step.BeginBlock(Instant.parse("2024-03-04T05:00:00Z"), 2),
        b.steps().get(0).action());
    // a required key given as null is still missing
    assertTrue(malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"set_supply\", \"denom\": null,"
        + " \"amount\": 1}]}").endsWith("step 1 (set_supply): denom: is required"));
  }

  @Test
  void packetOtherSide_isItsChannelsCounterparty_whenLeftOut() {
    Scenario s = parse("{\"name\": \"n\", \"channels\": [{\"channel_id\": \"channel-0\","
        + " \"counterparty_channel_id\": \"channel-7\", \"counterparty_port_id\": \"ft\"}],"
        + " \"steps\": [{\"op\": \"recv\", \"packet\": {\"sequence\": 1, \"destination_channel\":"
        + " \"channel-0\", \"data_raw\": \"x\"}}, {\"op\": \"add_channel\", \"channel_id\": \"channel-1\","
        + " \"counterparty_channel_id\": \"channel-9\"}, {\"op\": \"send\", \"packet\": {\"sequence\": 2,"
        + " \"source_channel\": \"channel-1\", \"destination_port\": \"p\", \"data_raw\": \"x\"}}]}")
        .get(0);
    Step.PacketSpec recv = ((Step.Recv) s.steps().get(0).action()).packet();
    assertEquals(List.of("ft", "channel-7", "transfer", "channel-0"), List.of(recv.sourcePort(),
        recv.sourceChannel(), recv.destinationPort(), recv.destinationChannel()));
    Step.PacketSpec send = ((Step.Send) s.steps().get(2).action()).packet();
    assertEquals(List.of("transfer", "channel-1", "p", "channel-9"), List.of(send.sourcePort(),
        send.sourceChannel(), send.destinationPort(), send.destinationChannel()));
    assertTrue(malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"timeout\", \"packet\":"
        + " {\"sequence\": 1, \"source_channel\": \"channel-3\", \"data_raw\": \"x\"}}]}")
        .endsWith("step 1 (timeout): packet.destination_channel: is required: channel-3 on port"
            + " transfer is not among the scenario's channels, so its counterparty is unknown"
            + " (give the other chain's side)"));
  }

  @Test
  void writeAck_nullIsTheMissingAck_absentIsMalformed() {
    String packet = "\"packet\": {\"sequence\": 1, \"source_channel\": \"channel-1\","
        + " \"destination_channel\": \"channel-0\", \"data_raw\": \"x\"}";
    Step.WriteAck w = (Step.WriteAck) parse("{\"name\": \"n\", \"steps\": [{\"op\": \"write_ack\", "
        + packet + ", \"ack\": null}]}").get(0).steps().get(0).action();
    assertEquals(Step.WrittenAck.MISSING, w.ack());
    assertTrue(malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"write_ack\", " + packet + "}]}")
        .endsWith("step 1 (write_ack): ack: is required"));
  }

  @Test
  void nullInAnExpectation_isNotChecked_andAnAttributeListedTwiceIsMalformed() {
    String recv = "{\"name\": \"n\", \"steps\": [{\"op\": \"recv\", \"packet\": {\"sequence\": 1,"
        + " \"source_channel\": \"channel-1\", \"destination_channel\": \"channel-0\","
        + " \"data_raw\": \"x\"}, \"app_ack\": null, \"expect\": {\"ack\": null, \"ack_bytes\": null,"
        + " \"app_called\": null}, \"expect_events\": [{\"type\": \"t\", \"attributes\": {\"a\": null,"
        + " \"b\": \"1\"}}]}]}";
    Step step = parse(recv).get(0).steps().get(0);
    assertEquals("success", ((Step.Recv) step.action()).appAck());
    assertEquals(Optional.empty(), step.expect().ack());
    assertEquals(Optional.empty(), step.expect().ackBytes());
    assertEquals(Optional.empty(), step.expect().appCalled());
    assertEquals(Set.of("b"), step.expectEvents().get(0).attributes().keySet());
    assertTrue(malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"check_blacklist\", \"denoms\": [],"
        + " \"expect_events\": [{\"type\": \"t\", \"attributes\": [{\"key\": \"a\", \"value\": \"1\"},"
        + " {\"key\": \"a\", \"value\": \"2\"}]}]}]}").contains("\"a\" is listed twice"));
  }

  @Test
  void checkExport_readsTheEpochStartTimeAsTheChecksDo() {
    for (String time : List.of("2024-01-01 05:00:00+00:00", "2024-01-01T05:00:00",
        "2024-01-01T05:00:00Z")) {
      Step.CheckExport c = (Step.CheckExport) parse("{\"name\": \"n\", \"steps\": [{\"op\":"
          + " \"check_export\", \"genesis\": {\"hour_epoch\": {\"epoch_number\": \"5\","
          + " \"epoch_start_time\": \"" + time + "\"}}}]}").get(0).steps().get(0).action();
      assertEquals(Instant.parse("2024-01-01T05:00:00Z").getEpochSecond(),
          c.genesis().getHourEpoch().getEpochStartTime().getSeconds(), time);
    }
    Step.CheckExport seconds = (Step.CheckExport) parse("{\"name\": \"n\", \"steps\": [{\"op\":"
        + " \"check_export\", \"genesis\": {\"hour_epoch\": {\"duration\": 3600}}}]}")
        .get(0).steps().get(0).action();
    assertEquals(3600, seconds.genesis().getHourEpoch().getDuration().getSeconds());
    assertTrue(malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"check_export\", \"genesis\":"
        + " {\"hourEpoch\": {\"epochStartTime\": \"yesterday\"}}}]}")
        .contains("genesis.hourEpoch.epochStartTime: expected an RFC 3339 time"));
  }

  @Test
  void protobufsTypeUrlPrefix_isTaken_noOtherPrefix() {
    String msg = "{\"name\": \"n\", \"steps\": [{\"op\": \"msg\", \"msg\": {\"@type\": \"%s\","
        + " \"denom\": \"d\"}}]}";
    assertEquals("/ratelimit.v1.MsgResetRateLimit",
        ((Step.Msg) parse(msg.formatted("type.googleapis.com/ratelimit.v1.MsgResetRateLimit"))
            .get(0).steps().get(0).action()).msg().getTypeUrl());
    // passed on as given, with no bytes: the router refuses it, as a chain's exact registry does
    assertEquals("example.com/ratelimit.v1.MsgResetRateLimit",
        ((Step.Msg) parse(msg.formatted("example.com/ratelimit.v1.MsgResetRateLimit"))
            .get(0).steps().get(0).action()).msg().getTypeUrl());
  }

  @Test
  void expectOnACheck_takesOnlyOkTrue() {
    String check = "{\"name\": \"n\", \"steps\": [{\"op\": \"check_blacklist\", \"denoms\": [],"
        + " \"expect\": %s}]}";
    assertEquals(1, parse(check.formatted("{\"ok\": true}")).get(0).steps().size());
    assertEquals(1, parse(check.formatted("{\"ok\": true, \"code\": 0}")).get(0).steps().size());
    assertTrue(malformed(check.formatted("{\"ok\": false}"))
        .endsWith("expect: a check has no failure to expect: give what it should find"));
    assertTrue(malformed(check.formatted("{\"ok\": false, \"code\": 4}"))
        .endsWith("expect: a check has no failure to expect: give what it should find"));
  }

  @Test
  void aLeadingByteOrderMarkIsIgnored() {
    assertEquals("n", parse("\uFEFF{\"name\": \"n\", \"steps\": []}").get(0).name());
    // only at the start: anywhere else it is no JSON
    assertTrue(malformed("{\"name\": \"n\", \"steps\": []}\uFEFF").contains("bad JSON"));
  }

  @Test
  void defaults() {
    Scenario s = parse("{\"name\": \"n\", \"channels\": [{\"channel_id\": \"channel-3\"}], \"steps\": []}").get(0);
    assertEquals("testchain-1", s.chainId());
    assertEquals("authority", s.authority());
    assertEquals(Instant.parse("2024-01-01T00:00:00Z"), s.startTime());
    assertEquals(1, s.startHeight());
    assertEquals(new Scenario.ChannelSpec("channel-3", "transfer", "channel-0", "transfer", "counterparty-1"),
        s.channels().get(0));
    assertEquals(Map.of(), s.supply());
    assertEquals(Optional.empty(), s.genesisJson());
    assertTrue(s.expectGenesis().expectsSuccess());
  }

  @Test
  void packetData_isEncodedInFieldOrder_memoLeftOutWhenEmpty() {
    Scenario s = parse("{\"name\": \"n\", \"steps\": ["
        + "{\"op\": \"send\", \"packet\": {\"sequence\": \"7\", \"source_channel\": \"channel-0\","
        + " \"destination_channel\": \"channel-1\", \"data\": {\"receiver\": \"r\", \"memo\": \"\","
        + " \"sender\": \"s<\", \"amount\": \"5\", \"denom\": \"d\"}}},"
        + "{\"op\": \"send\", \"packet\": {\"sequence\": 8, \"source_port\": \"p\", \"source_channel\": \"channel-0\","
        + " \"destination_channel\": \"channel-1\", \"data\": {\"denom\": \"d\", \"memo\": \"m\"}}}]}").get(0);
    Step.PacketSpec p = ((Step.Send) s.steps().get(0).action()).packet();
    assertEquals(7, p.sequence());
    assertEquals("transfer", p.sourcePort());
    assertEquals("{\"denom\":\"d\",\"amount\":\"5\",\"sender\":\"s\\u003c\",\"receiver\":\"r\"}",
        new String(p.data(), StandardCharsets.UTF_8));
    Step.PacketSpec q = ((Step.Send) s.steps().get(1).action()).packet();
    assertEquals("p", q.sourcePort());
    assertEquals("{\"denom\":\"d\",\"memo\":\"m\"}", new String(q.data(), StandardCharsets.UTF_8));
  }

  @Test
  void numbersAndDecimalStringsAreTheSame() {
    Scenario s = parse("{\"name\": \"n\", \"supply\": {\"a\": 5, \"b\": \"6\"}, \"steps\": ["
        + "{\"op\": \"check_rate_limit\", \"denom\": \"a\", \"channel_or_client_id\": \"channel-0\","
        + " \"flow\": {\"inflow\": \"48\", \"outflow\": 48}},"
        + "{\"op\": \"check_pending\", \"channel_or_client_id\": \"channel-0\", \"denom\": \"a\","
        + " \"send_sequences\": [\"1\", 1, 2]}]}").get(0);
    assertEquals(Map.of("a", BigInteger.valueOf(5), "b", BigInteger.valueOf(6)), s.supply());
    Step.CheckRateLimit c = (Step.CheckRateLimit) s.steps().get(0).action();
    assertEquals(Map.of("inflow", BigInteger.valueOf(48), "outflow", BigInteger.valueOf(48)), c.flow().get());
    Step.CheckPending p = (Step.CheckPending) s.steps().get(1).action();
    assertEquals(Optional.of(Set.of(BigInteger.ONE, BigInteger.TWO)), p.sendSequences());
    assertEquals(Optional.empty(), p.recvSequences());
  }

  @Test
  void wholeNumbersWrittenAsFloats_upToAHundredDigits() {
    String check = "{\"name\": \"n\", \"steps\": [{\"op\": \"check_rate_limit\", \"denom\": \"a\","
        + " \"channel_or_client_id\": \"channel-0\", \"flow\": {\"inflow\": %s}}]}";
    Step.CheckRateLimit c =
        (Step.CheckRateLimit) parse(check.formatted("1.0e99")).get(0).steps().get(0).action();
    assertEquals(Map.of("inflow", BigInteger.TEN.pow(99)), c.flow().get());
    c = (Step.CheckRateLimit) parse(check.formatted("4.20e1")).get(0).steps().get(0).action();
    assertEquals(Map.of("inflow", BigInteger.valueOf(42)), c.flow().get());
    assertTrue(malformed(check.formatted("1e100")).contains("flow.inflow"));
    assertTrue(malformed(check.formatted("4.2")).contains("flow.inflow"));
  }

  @Test
  void codes_numberOrGenericLabel() {
    Scenario s = parse("{\"name\": \"n\", \"steps\": ["
        + "{\"op\": \"blacklist_add\", \"denom\": \"x\", \"expect\": {\"ok\": false, \"code\": \"7\"}},"
        + "{\"op\": \"blacklist_add\", \"denom\": \"x\", \"expect\": {\"code\": \"unauthorized\"}}]}").get(0);
    assertEquals(Outcome.Code.of(7), s.steps().get(0).expect().outcome().code().get());
    Outcome o = s.steps().get(1).expect().outcome();
    assertEquals(Outcome.Code.of("unauthorized"), o.code().get());
    assertTrue(!o.expectsSuccess(), "a code alone expects a failure");
    assertTrue(malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"blacklist_add\", \"denom\": \"x\","
        + " \"expect\": {\"code\": \"forbidden\"}}]}").contains("expect.code"));
    assertTrue(malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"blacklist_add\", \"denom\": \"x\","
        + " \"expect\": {\"ok\": true, \"code\": 4}}]}").contains("a code needs \"ok\": false"));
    String big = "{\"name\": \"n\", \"steps\": [{\"op\": \"blacklist_add\", \"denom\": \"x\","
        + " \"expect\": {\"code\": %s}}]}";
    assertEquals(Outcome.Code.of(Integer.MAX_VALUE),
        parse(big.formatted("2147483647")).get(0).steps().get(0).expect().outcome().code().get());
    assertTrue(malformed(big.formatted("2147483648")).contains("not an error code: 2147483648"));
  }

  @Test
  void unknownTypeUrl_isPassedOnForTheRouterToReject() {
    Scenario s = parse("{\"name\": \"n\", \"steps\": [{\"op\": \"msg\", \"msg\": {\"@type\":"
        + " \"/cosmos.bank.v1beta1.MsgSend\"}}]}").get(0);
    Step.Msg m = (Step.Msg) s.steps().get(0).action();
    assertEquals("/cosmos.bank.v1beta1.MsgSend", m.msg().getTypeUrl());
    assertTrue(m.msg().getValue().isEmpty());
  }

  @Test
  void knownTypeUrlWithUndecodableValues_isAFailingStepNotAMalformedFile() {
    Scenario s = parse("{\"name\": \"n\", \"steps\": [{\"op\": \"msg\", \"msg\": {\"@type\":"
        + " \"/ratelimit.v1.MsgAddRateLimit\", \"duration_hours\": \"-1\"}},"
        + " {\"op\": \"proposal\", \"messages\": [{\"@type\": \"/ratelimit.v1.MsgResetRateLimit\"},"
        + " {\"@type\": \"/ratelimit.v1.MsgRemoveRateLimit\", \"denom\": 5}]}]}").get(0);
    assertEquals(
        new Step.Undecodable(
            "msg: not a valid /ratelimit.v1.MsgAddRateLimit: Out of range uint64 value: \"-1\""),
        s.steps().get(0).action());
    assertEquals(
        new Step.Undecodable("messages[1]: not a valid /ratelimit.v1.MsgRemoveRateLimit:"
            + " denom: expected a JSON string, got 5"),
        s.steps().get(1).action());
    assertEquals("proposal", s.steps().get(1).op());
    // a field the type lacks fails the step as a chain would (a typo shows as the failure)
    Scenario typos = parse("{\"name\": \"n\", \"steps\": [{\"op\": \"msg\", \"msg\": {\"@type\":"
        + " \"/ratelimit.v1.MsgAddRateLimit\", \"max_percent_sned\": \"10\"}},"
        + " {\"op\": \"proposal\", \"messages\": [{\"@type\": \"/ratelimit.v1.MsgResetRateLimit\","
        + " \"maxPercentSend\": \"1\"}]}]}").get(0);
    assertEquals(
        new Step.Undecodable("msg: /ratelimit.v1.MsgAddRateLimit has no field \"max_percent_sned\""
            + " (fields: [authority, denom, channel_or_client_id, max_percent_send, max_percent_recv,"
            + " duration_hours])"),
        typos.steps().get(0).action());
    assertEquals(
        new Step.Undecodable("messages[0]: /ratelimit.v1.MsgResetRateLimit has no field"
            + " \"maxPercentSend\" (fields: [authority, denom, channel_or_client_id])"),
        typos.steps().get(1).action());
    // what cannot be a message at all still makes the scenario malformed
    assertTrue(malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"msg\", \"msg\": []}]}")
        .contains("msg: expected an object"));
  }

  @Test
  void ibcGoTypeUrl_parsesWithSigner() throws Exception {
    Scenario s = parse("{\"name\": \"n\", \"steps\": [{\"op\": \"msg\", \"msg\": {\"@type\":"
        + " \"/ibc.applications.rate_limiting.v1.MsgResetRateLimit\", \"signer\": \"gov\","
        + " \"denom\": \"d\", \"channel_or_client_id\": \"channel-0\"}}]}").get(0);
    Step.Msg m = (Step.Msg) s.steps().get(0).action();
    assertEquals("/ibc.applications.rate_limiting.v1.MsgResetRateLimit", m.msg().getTypeUrl());
    var msg = dev.ratelimit.proto.ibc.ratelimiting.v1.MsgResetRateLimit.parseFrom(m.msg().getValue());
    assertEquals("gov", msg.getSigner());
  }

  @Test
  void beginBlock_resolvesTimeAndHeight() {
    Scenario s = parse("{\"name\": \"n\", \"start_time\": \"2024-02-02T10:00:00+02:00\", \"start_height\": 5,"
        + " \"steps\": [{\"op\": \"begin_block\", \"advance_seconds\": 60},"
        + " {\"op\": \"begin_block\", \"time\": \"2024-02-02T09:00:00Z\", \"height\": 20},"
        + " {\"op\": \"begin_block\"}]}").get(0);
    assertEquals(new Step.BeginBlock(Instant.parse("2024-02-02T08:01:00Z"), 6), s.steps().get(0).action());
    assertEquals(new Step.BeginBlock(Instant.parse("2024-02-02T09:00:00Z"), 20), s.steps().get(1).action());
    assertEquals(new Step.BeginBlock(Instant.parse("2024-02-02T09:00:00Z"), 21), s.steps().get(2).action());
  }

  @Test
  void blockTimes_stayWithinWhatAProtobufTimestampHolds() {
    assertEquals(
        "f.json: n: start_time: is outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z",
        malformed("{\"name\": \"n\", \"start_time\": \"0000-06-01T00:00:00Z\", \"steps\": []}"));
    assertTrue(
        malformed("{\"name\": \"n\", \"start_time\": \"9999-12-31T20:00:00Z\", \"steps\":"
                + " [{\"op\": \"begin_block\", \"advance_seconds\": 36000}]}")
            .endsWith("step 1 (begin_block): advance_seconds: takes the block time past"
                + " 9999-12-31T23:59:59.999999999Z: +10000-01-01T06:00:00Z"));
    // the last instant itself is a block time
    Scenario s =
        parse("{\"name\": \"n\", \"start_time\": \"9999-12-31T23:59:59Z\", \"steps\": []}").get(0);
    assertEquals(Instant.parse("9999-12-31T23:59:59Z"), s.startTime());
  }

  @Test
  void sendTimeout_isAnHourAfterTheBlock_saturatedWhereNanosecondsLeaveALong() {
    assertEquals(3_600_000_000_000L, Simulation.timeoutNanos(Instant.EPOCH));
    assertEquals(Long.MAX_VALUE, Simulation.timeoutNanos(Instant.parse("2262-04-11T23:00:00Z")));
    assertEquals(Long.MAX_VALUE, Simulation.timeoutNanos(Instant.parse("9999-12-31T23:59:59Z")));
    assertEquals(0, Simulation.timeoutNanos(Instant.parse("0001-01-01T00:00:00Z")));
  }

  @Test
  void genesisRejection_mayLeaveOutSteps_butOthersMayNot() {
    assertEquals(List.of(), parse("{\"name\": \"n\", \"expect_genesis\": {\"ok\": false}}").get(0).steps());
    assertTrue(malformed("{\"name\": \"n\"}").endsWith("f.json: n: steps: is required"));
  }

  @Test
  void malformedLinesNameFileScenarioAndStep() {
    assertEquals("f.json: n: step 1 (recv): app_ack: expected \"success\", \"error\" or \"async\", got \"maybe\"",
        malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"recv\", \"app_ack\": \"maybe\", \"packet\":"
            + " {\"sequence\": 1, \"source_channel\": \"channel-1\", \"destination_channel\": \"channel-0\","
            + " \"data_raw\": \"x\"}}]}"));
    assertEquals("f.json: n: step 1 (ack): give exactly one of \"acknowledgement\" and"
        + " \"acknowledgement_base64\"",
        malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"ack\", \"packet\":"
            + " {\"sequence\": 1, \"source_channel\": \"channel-1\", \"destination_channel\": \"channel-0\","
            + " \"data_raw\": \"x\"}}]}"));
    assertEquals("f.json: n: step 1 (send): packet: give exactly one of \"data\" and \"data_raw\"",
        malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"send\", \"packet\":"
            + " {\"sequence\": 1, \"source_channel\": \"channel-1\", \"destination_channel\": \"channel-0\"}}]}"));
    assertEquals("f.json: n: step 1 (check_epoch): epoch_number: expected a non-negative integer, got a"
        + " string \"x\"",
        malformed("{\"name\": \"n\", \"steps\": [{\"op\": \"check_epoch\", \"epoch_number\": \"x\"}]}"));
    assertEquals("f.json: scenario #2: name: is required",
        malformed("{\"scenarios\": [{\"name\": \"a\", \"steps\": []}, {\"steps\": []}]}"));
    assertTrue(malformed("1").startsWith("f.json: expected a scenario object"));
    assertTrue(malformed("[1]").startsWith("f.json: scenario #1: expected an object"));
    assertTrue(malformed("").startsWith("f.json: bad JSON"));
    assertTrue(malformed("{\"name\": \"n\", \"steps\": []} {}").startsWith("f.json: bad JSON"));
  }
}
