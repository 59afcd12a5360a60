package dev.ratelimit.middleware.transfer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PacketDataCodecTest {
  private static final ErrorCode DATA = ErrorCode.INVALID_PACKET_DATA;
  private static final ErrorCode AMOUNT = ErrorCode.INVALID_AMOUNT;
  private static final String MAX = Amounts.LIMIT.subtract(BigInteger.ONE).toString();

  /** JSON written with ' for " (none of these rows needs a literal apostrophe). */
  private static byte[] j(String singleQuoted) {
    return singleQuoted.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
  }

  /** Packet data with every required key and this amount text (already JSON). */
  private static byte[] withAmount(String amountJson) {
    return j("{'denom':'uatom','amount':" + amountJson + ",'sender':'s','receiver':'r'}");
  }

  private static byte[] cat(byte[]... parts) {
    byte[] out = new byte[0];
    for (byte[] p : parts) {
      int n = out.length;
      out = Arrays.copyOf(out, n + p.length);
      System.arraycopy(p, 0, out, n, p.length);
    }
    return out;
  }

  private static FungibleTokenPacketData ftpd(
      String denom, String amount, String sender, String receiver, String memo) {
    return new FungibleTokenPacketData(denom, new BigInteger(amount), sender, receiver, memo);
  }

  static Stream<Arguments> valid() {
    return Stream.of(
        arguments(
            "ibc-go v10 field order, no memo",
            j("{'denom':'uosmo','amount':'8','sender':'osmo1a','receiver':'stride1b'}"),
            ftpd("uosmo", "8", "osmo1a", "stride1b", "")),
        arguments(
            "with memo",
            j("{'denom':'uatom','amount':'100','sender':'s','receiver':'r','memo':'hello'}"),
            ftpd("uatom", "100", "s", "r", "hello")),
        arguments(
            "explicit empty memo",
            j("{'denom':'uatom','amount':'1','sender':'s','receiver':'r','memo':''}"),
            ftpd("uatom", "1", "s", "r", "")),
        arguments(
            "sorted keys (ibc-go v7/v8)",
            j("{'amount':'5','denom':'d','memo':'m','receiver':'r','sender':'s'}"),
            ftpd("d", "5", "s", "r", "m")),
        arguments(
            "reverse order",
            j("{'memo':'m','receiver':'r','sender':'s','amount':'5','denom':'d'}"),
            ftpd("d", "5", "s", "r", "m")),
        arguments(
            "pretty printed",
            j("{\n  'denom' : 'd',\r\n\t'amount': '5',\n  'sender':'s' , 'receiver':'r'\n}\n"),
            ftpd("d", "5", "s", "r", "")),
        arguments(
            "denom with a trace",
            j("{'denom':'transfer/channel-0/uatom','amount':'1','sender':'s','receiver':'r'}"),
            ftpd("transfer/channel-0/uatom", "1", "s", "r", "")),
        arguments(
            "zero amount (the transfer app rejects it, not the codec)",
            withAmount("'0'"),
            ftpd("uatom", "0", "s", "r", "")),
        arguments(
            "amount 2^256 - 1", withAmount("'" + MAX + "'"), ftpd("uatom", MAX, "s", "r", "")),
        arguments(
            "unicode values, raw",
            j(
                "{'denom':'\u00fcatom','amount':'1','sender':'\u4e2d\u6587','receiver':'\ud83d\ude00'}"),
            ftpd("\u00fcatom", "1", "\u4e2d\u6587", "\ud83d\ude00", "")),
        arguments(
            "escapes in values",
            j(
                "{'denom':'d','amount':'1','sender':'s','receiver':'r',"
                    + "'memo':'a\\'b\\\\c\\n\\u003c\\u0026\\/\\ud83d\\ude00\\b\\f'}"),
            ftpd("d", "1", "s", "r", "a\"b\\c\n<&/\ud83d\ude00\b\f")),
        arguments(
            "escaped key",
            j("{'\\u0064enom':'d','amount':'1','sender':'s','receiver':'r'}"),
            ftpd("d", "1", "s", "r", "")),
        arguments(
            "spaces inside values are kept",
            j("{'denom':'d','amount':'1','sender':' s ','receiver':'r'}"),
            ftpd("d", "1", " s ", "r", "")),
        arguments(
            "blank memo is fine",
            j("{'denom':'d','amount':'1','sender':'s','receiver':'r','memo':'  '}"),
            ftpd("d", "1", "s", "r", "  ")),
        arguments(
            "JSON memo (packet forwarding)",
            j(
                "{'denom':'d','amount':'1','sender':'s','receiver':'r',"
                    + "'memo':'{\\'forward\\':{\\'port\\':\\'transfer\\'}}'}"),
            ftpd("d", "1", "s", "r", "{\"forward\":{\"port\":\"transfer\"}}")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("valid")
  void decode_valid(String name, byte[] data, FungibleTokenPacketData expected) {
    assertEquals(expected, PacketDataCodec.decode(data));
    Packet packet = packetOf(data);
    assertEquals(expected, PacketDataCodec.decode(packet)); // read in place: the same answer
    assertArrayEquals(data, packet.data()); // and the packet's data untouched
  }

  private static Packet packetOf(byte[] data) {
    return new Packet(1, "transfer", "channel-1", "transfer", "channel-0", data, Height.ZERO, 0);
  }

  static Stream<Arguments> invalid() {
    String ok = "'denom':'d','amount':'1','sender':'s','receiver':'r'";
    return Stream.of(
        // structure: code 9
        arguments("null input", null, DATA, "null"),
        arguments("empty input", new byte[0], DATA, "empty"),
        arguments("JSON null", j("null"), DATA, "null"),
        arguments("array", j("[{" + ok + "}]"), DATA, "array"),
        arguments("string", j("'x'"), DATA, "string"),
        arguments("number", j("123"), DATA, "number"),
        arguments("not JSON", j("hello"), DATA, "JSON"),
        arguments("truncated", j("{" + ok), DATA, "JSON"),
        arguments("trailing garbage", j("{" + ok + "} x"), DATA, "JSON"),
        arguments("two objects", j("{" + ok + "}{}"), DATA, "unexpected '{' after the JSON value"),
        arguments("trailing comma", j("{" + ok + ",}"), DATA, "JSON"),
        arguments("single quotes", ("{" + ok + "}").getBytes(StandardCharsets.UTF_8), DATA, "JSON"),
        arguments("comment", j("{" + ok + "/*c*/}"), DATA, "JSON"),
        arguments("raw control char", j("{" + ok + ",'memo':'a\u0001'}"), DATA, "JSON"),
        arguments("invalid escape", j("{" + ok + ",'memo':'\\q'}"), DATA, "JSON"),
        arguments(
            "invalid UTF-8 byte",
            cat(j("{" + ok + ",'memo':'"), new byte[] {(byte) 0xff}, j("'}")),
            DATA,
            "UTF-8"),
        arguments(
            "overlong UTF-8",
            cat(j("{" + ok + ",'memo':'"), new byte[] {(byte) 0xc0, (byte) 0xaf}, j("'}")),
            DATA,
            "UTF-8"),
        arguments(
            "UTF-8 encoded surrogate",
            cat(
                j("{" + ok + ",'memo':'"),
                new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                j("'}")),
            DATA,
            "UTF-8"),
        arguments(
            "truncated UTF-8 sequence",
            cat(j("{" + ok + ",'memo':'"), new byte[] {(byte) 0xe4, (byte) 0xb8}, j("'}")),
            DATA,
            "UTF-8"),
        arguments(
            "byte order mark",
            cat(new byte[] {(byte) 0xef, (byte) 0xbb, (byte) 0xbf}, j("{" + ok + "}")),
            DATA,
            ""),
        arguments(
            "UTF-16",
            ("{" + ok.replace('\'', '"') + "}").getBytes(StandardCharsets.UTF_16LE),
            DATA,
            ""),
        arguments("escaped lone surrogate", j("{" + ok + ",'memo':'\\ud800'}"), DATA, "memo"),
        arguments("duplicate denom", j("{" + ok + ",'denom':'e'}"), DATA, "denom"),
        arguments("duplicate memo", j("{" + ok + ",'memo':'a','memo':'a'}"), DATA, "memo"),
        arguments("unknown key", j("{" + ok + ",'foo':'x'}"), DATA, "foo"),
        arguments(
            "wrong case key",
            j("{'Denom':'d','amount':'1','sender':'s','receiver':'r'}"),
            DATA,
            "Denom"),
        arguments("amount as a number", withAmount("100"), DATA, "amount"),
        arguments("amount as a float", withAmount("1.5"), DATA, "amount"),
        arguments("amount null", withAmount("null"), DATA, "amount"),
        arguments("amount as an array", withAmount("['1']"), DATA, "amount"),
        arguments("memo null", j("{" + ok + ",'memo':null}"), DATA, "memo"),
        arguments("memo object", j("{" + ok + ",'memo':{}}"), DATA, "memo"),
        arguments(
            "sender boolean",
            j("{'denom':'d','amount':'1','sender':true,'receiver':'r'}"),
            DATA,
            "sender"),
        arguments("missing denom", j("{'amount':'1','sender':'s','receiver':'r'}"), DATA, "denom"),
        arguments("missing amount", j("{'denom':'d','sender':'s','receiver':'r'}"), DATA, "amount"),
        arguments("missing sender", j("{'denom':'d','amount':'1','receiver':'r'}"), DATA, "sender"),
        arguments(
            "missing receiver", j("{'denom':'d','amount':'1','sender':'s'}"), DATA, "receiver"),
        arguments("empty object", j("{}"), DATA, "denom"),
        arguments(
            "empty denom",
            j("{'denom':'','amount':'1','sender':'s','receiver':'r'}"),
            DATA,
            "denom"),
        arguments(
            "blank denom",
            j("{'denom':' ','amount':'1','sender':'s','receiver':'r'}"),
            DATA,
            "denom"),
        arguments(
            "tab sender",
            j("{'denom':'d','amount':'1','sender':'\\t','receiver':'r'}"),
            DATA,
            "sender"),
        arguments(
            "NBSP receiver (Go space)",
            j("{'denom':'d','amount':'1','sender':'s','receiver':'\u00a0'}"),
            DATA,
            "receiver"),
        arguments("empty amount", withAmount("''"), DATA, "amount"),
        arguments("blank amount", withAmount("'  '"), DATA, "amount"),
        arguments(
            "structure before amount",
            j("{'denom':'d','amount':'abc','sender':'s','receiver':'r','x':'1'}"),
            DATA,
            "x"),
        arguments(
            "blank field before amount",
            j("{'denom':' ','amount':'abc','sender':'s','receiver':'r'}"),
            DATA,
            "denom"),
        arguments(
            "deep nesting in a value",
            j("{'memo':" + "[".repeat(100_000) + "]".repeat(100_000) + "}"),
            DATA,
            "line 1 column 1008: arrays and objects nested deeper than 1000"),
        arguments("deep nesting at the root", j("[".repeat(100_000)), DATA, "array"),
        arguments("huge number", withAmount("1e99999999"), DATA, "amount"),
        // amount grammar and range: code 10
        arguments("plus sign", withAmount("'+5'"), AMOUNT, "amount"),
        arguments("leading zero", withAmount("'010'"), AMOUNT, "amount"),
        arguments("double zero", withAmount("'00'"), AMOUNT, "amount"),
        arguments("hex", withAmount("'0x64'"), AMOUNT, "amount"),
        arguments("underscore", withAmount("'1_000'"), AMOUNT, "amount"),
        arguments("negative", withAmount("'-1'"), AMOUNT, "amount"),
        arguments("full-width digit", withAmount("'\uff11'"), AMOUNT, "amount"),
        arguments("arabic-indic digit", withAmount("'\u0663'"), AMOUNT, "amount"),
        arguments("decimal point", withAmount("'1.0'"), AMOUNT, "amount"),
        arguments("exponent", withAmount("'1e3'"), AMOUNT, "amount"),
        arguments("leading space", withAmount("' 5'"), AMOUNT, "amount"),
        arguments("trailing space", withAmount("'5 '"), AMOUNT, "amount"),
        arguments("letters", withAmount("'abc'"), AMOUNT, "amount"),
        arguments("2^256", withAmount("'" + Amounts.LIMIT + "'"), AMOUNT, "amount"),
        arguments("79 digits", withAmount("'1" + "0".repeat(78) + "'"), AMOUNT, "amount"),
        arguments(
            "very long digit run", withAmount("'" + "9".repeat(100_000) + "'"), AMOUNT, "amount"),
        // past Jackson's default name and number limits: our reason, whatever jackson-core says
        arguments("unknown key of 60,000 characters", j("{" + ok + ",'" + "k".repeat(60_000) + "':'x'}"),
            DATA, "unknown key"),
        arguments("memo a number of 1,001 digits", j("{" + ok + ",'memo':" + "9".repeat(1_001) + "}"),
            DATA, "\"memo\" must be a JSON string"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("invalid")
  void decode_invalid(String name, byte[] data, ErrorCode code, String mentions) {
    RateLimitException e =
        assertThrows(RateLimitException.class, () -> PacketDataCodec.decode(data));
    assertEquals(code, e.code(), e.getMessage());
    assertTrue(
        e.getMessage().contains(mentions),
        "message should name " + mentions + ": " + e.getMessage());
    if (data != null) { // a packet's data is never null
      RateLimitException inPlace =
          assertThrows(RateLimitException.class, () -> PacketDataCodec.decode(packetOf(data)));
      assertEquals(e.code(), inPlace.code());
      assertEquals(e.getMessage(), inPlace.getMessage());
    }
  }

  /** Past Jackson's default string limit (20 M characters), with an escape: the general path. */
  @Test
  void decode_aMemoPastJacksonsDefaultStringLimit_isRead() {
    String memo = "\\n" + "m".repeat(20_000_000);
    assertEquals(
        "\n" + "m".repeat(20_000_000),
        PacketDataCodec.decode(
                j("{'denom':'d','amount':'1','sender':'s','receiver':'r','memo':'" + memo + "'}"))
            .memo());
  }

  @Test
  void decode_hugeValidMemoIsRead() {
    String memo = "m".repeat(1_000_000);
    assertEquals(
        memo,
        PacketDataCodec.decode(
                j("{'denom':'d','amount':'1','sender':'s','receiver':'r','memo':'" + memo + "'}"))
            .memo());
  }

  static Stream<Arguments> encodings() {
    return Stream.of(
        arguments(
            ftpd("uosmo", "8", "osmo1a", "stride1b", ""),
            "{\"denom\":\"uosmo\",\"amount\":\"8\",\"sender\":\"osmo1a\",\"receiver\":\"stride1b\"}"),
        arguments(
            ftpd("transfer/channel-0/uatom", "100", "s", "r", "hello"),
            "{\"denom\":\"transfer/channel-0/uatom\",\"amount\":\"100\",\"sender\":\"s\",\"receiver\":\"r\",\"memo\":\"hello\"}"),
        arguments(
            ftpd("d", MAX, "s", "r", ""),
            "{\"denom\":\"d\",\"amount\":\"" + MAX + "\",\"sender\":\"s\",\"receiver\":\"r\"}"),
        arguments(
            ftpd("d", "0", "s", "r", "<a href=\"x\">&</a>"),
            "{\"denom\":\"d\",\"amount\":\"0\",\"sender\":\"s\",\"receiver\":\"r\","
                + "\"memo\":\"\\u003ca href=\\\"x\\\"\\u003e\\u0026\\u003c/a\\u003e\"}"),
        arguments(
            ftpd("d", "1", "s", "r", "\b\f\n\r\t\u0000\u001f\u007f\\\u2028\u2029"),
            "{\"denom\":\"d\",\"amount\":\"1\",\"sender\":\"s\",\"receiver\":\"r\","
                + "\"memo\":\"\\b\\f\\n\\r\\t\\u0000\\u001f\u007f\\\\\\u2028\\u2029\"}"),
        arguments(
            ftpd("\u00fcatom", "1", "\u4e2d\u6587", "\ud83d\ude00", "caf\u00e9"),
            "{\"denom\":\"\u00fcatom\",\"amount\":\"1\",\"sender\":\"\u4e2d\u6587\","
                + "\"receiver\":\"\ud83d\ude00\",\"memo\":\"caf\u00e9\"}"));
  }

  @ParameterizedTest
  @MethodSource("encodings")
  void encode_writesIbcGoV10Bytes(FungibleTokenPacketData data, String expected) {
    assertArrayEquals(expected.getBytes(StandardCharsets.UTF_8), PacketDataCodec.encode(data));
    assertEquals(data, PacketDataCodec.decode(expected.getBytes(StandardCharsets.UTF_8)));
  }

  static Stream<String> canonical() {
    return Stream.of(
        "{\"denom\":\"uosmo\",\"amount\":\"8\",\"sender\":\"osmo1a\",\"receiver\":\"stride1b\"}",
        "{\"denom\":\"transfer/channel-0/uatom\",\"amount\":\"0\",\"sender\":\"a\",\"receiver\":\"b\",\"memo\":\"m\"}",
        "{\"denom\":\"d\",\"amount\":\"" + MAX + "\",\"sender\":\"s\",\"receiver\":\"r\"}",
        "{\"denom\":\"d\",\"amount\":\"1\",\"sender\":\"s\",\"receiver\":\"r\",\"memo\":\"{\\\"wasm\\\":{\\\"contract\\\":\\\"x\\\"}}\"}",
        "{\"denom\":\"d\",\"amount\":\"1\",\"sender\":\"s\",\"receiver\":\"r\",\"memo\":\"\\u003c\\u0026\\u003e"
            + " \\b\\u0001 \u00e9\ud83d\ude00\"}");
  }

  @ParameterizedTest
  @MethodSource("canonical")
  void encodeOfDecode_roundTripsCanonicalBytes(String canonical) {
    byte[] bytes = canonical.getBytes(StandardCharsets.UTF_8);
    assertArrayEquals(bytes, PacketDataCodec.encode(PacketDataCodec.decode(bytes)), canonical);
  }

  @Test
  void decodeOfEncode_roundTripsRandomData() {
    Random random = new Random(42L);
    for (int i = 0; i < 1_000; i++) {
      FungibleTokenPacketData data =
          new FungibleTokenPacketData(
              randomText(random, true),
              new BigInteger(random.nextInt(257), random),
              randomText(random, true),
              randomText(random, true),
              random.nextInt(3) == 0 ? "" : randomText(random, false));
      assertEquals(data, PacketDataCodec.decode(PacketDataCodec.encode(data)));
    }
  }

  /** Random text of every plane (no lone surrogate), ending in {@code x} when {@code nonBlank}. */
  static String randomText(Random random, boolean nonBlank) {
    StringBuilder sb = new StringBuilder();
    int n = random.nextInt(12);
    for (int k = 0; k < n; k++) {
      int cp;
      do {
        cp =
            switch (random.nextInt(3)) {
              case 0 -> random.nextInt(0x80);
              case 1 -> random.nextInt(0x3000);
              default -> random.nextInt(0x10FFFF + 1);
            };
      } while (Character.getType(cp) == Character.SURROGATE);
      sb.appendCodePoint(cp);
    }
    if (nonBlank) {
      sb.append('x');
    }
    return sb.toString();
  }

  @Test
  void encode_nullIsACallerMistake() {
    assertThrows(NullPointerException.class, () -> PacketDataCodec.encode(null));
  }
}
