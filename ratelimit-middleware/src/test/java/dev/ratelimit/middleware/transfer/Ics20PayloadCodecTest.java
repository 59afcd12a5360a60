package dev.ratelimit.middleware.transfer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.middleware.ibc.GoJson;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class Ics20PayloadCodecTest {
  private static final String V1 = Ics20PayloadCodec.VERSION;
  private static final String JSON = Ics20PayloadCodec.ENCODING_JSON;
  private static final String PROTO = Ics20PayloadCodec.ENCODING_PROTOBUF;
  private static final String ABI = Ics20PayloadCodec.ENCODING_ABI;
  private static final List<String> ENCODINGS = List.of(JSON, PROTO, ABI);
  private static final ErrorCode DATA = ErrorCode.INVALID_PACKET_DATA;
  private static final ErrorCode AMOUNT = ErrorCode.INVALID_AMOUNT;
  private static final BigInteger MAX = Amounts.LIMIT.subtract(BigInteger.ONE);
  private static final int MAX_MESSAGE = 400; // characters: a refusal never quotes a whole value

  /**
   * ibc-go's ABI test vector: {@code solidityEncodedHex} in cosmos/ibc-go
   * modules/apps/transfer/types/abi_test.go (commit 6d45aa2fca3de992fc249f9827b70df225f1efd1),
   * {@code EncodeABIFungibleTokenPacketData} of {uatom, 1000000, sender, receiver, memo}.
   */
  private static final String IBC_GO_ABI =
      "0000000000000000000000000000000000000000000000000000000000000020"
          + "00000000000000000000000000000000000000000000000000000000000000a0"
          + "00000000000000000000000000000000000000000000000000000000000000e0"
          + "0000000000000000000000000000000000000000000000000000000000000120"
          + "00000000000000000000000000000000000000000000000000000000000f4240"
          + "0000000000000000000000000000000000000000000000000000000000000160"
          + "0000000000000000000000000000000000000000000000000000000000000005"
          + "7561746f6d000000000000000000000000000000000000000000000000000000"
          + "0000000000000000000000000000000000000000000000000000000000000006"
          + "73656e6465720000000000000000000000000000000000000000000000000000"
          + "0000000000000000000000000000000000000000000000000000000000000008"
          + "7265636569766572000000000000000000000000000000000000000000000000"
          + "0000000000000000000000000000000000000000000000000000000000000004"
          + "6d656d6f00000000000000000000000000000000000000000000000000000000";

  /**
   * A packet a Cosmos chain (ibc-go) sent to IBC Eureka's Solidity ICS-20 app: the value of the one
   * payload (ics20-1, application/x-solidity-abi) of the {@code packet} in
   * cosmos/solidity-ibc-eureka test/solidity-ibc/fixtures/receiveNativePacket-plonk.json (commit
   * 0c512dc4f6f41dcaa91a302dc45bbf4ef35a0701), cut out of the packet's ABI encoding.
   */
  private static final String EUREKA_ABI =
      "0000000000000000000000000000000000000000000000000000000000000020"
          + "00000000000000000000000000000000000000000000000000000000000000a0"
          + "00000000000000000000000000000000000000000000000000000000000000e0"
          + "0000000000000000000000000000000000000000000000000000000000000140"
          + "000000000000000000000000000000000000000000000000000000003b9aca00"
          + "00000000000000000000000000000000000000000000000000000000000001a0"
          + "0000000000000000000000000000000000000000000000000000000000000005"
          + "7374616b65000000000000000000000000000000000000000000000000000000"
          + "000000000000000000000000000000000000000000000000000000000000002d"
          + "636f736d6f733165683773736e64717266776e3264396e387063707030393772"
          + "356867376c726e32776435393400000000000000000000000000000000000000"
          + "000000000000000000000000000000000000000000000000000000000000002a"
          + "3078316264643634376532623465623835306466343730336639663435363835"
          + "6431643536633363613100000000000000000000000000000000000000000000"
          + "000000000000000000000000000000000000000000000000000000000000000a"
          + "6e617469766573656e6400000000000000000000000000000000000000000000";

  /** The same data as {@link #IBC_GO_ABI} as protobuf, worked out by hand from the wire format. */
  private static final String IBC_GO_PROTO =
      "0a05"
          + "7561746f6d" // 1 denom
          + "1207"
          + "31303030303030" // 2 amount
          + "1a06"
          + "73656e646572" // 3 sender
          + "2208"
          + "7265636569766572" // 4 receiver
          + "2a04"
          + "6d656d6f"; // 5 memo

  private static final FungibleTokenPacketData IBC_GO_DATA =
      ftpd("uatom", "1000000", "sender", "receiver", "memo");

  private static byte[] hex(String hex) {
    return HexFormat.of().parseHex(hex);
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] cat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.write(p, 0, p.length);
    }
    return out.toByteArray();
  }

  private static FungibleTokenPacketData ftpd(
      String denom, String amount, String sender, String receiver, String memo) {
    return new FungibleTokenPacketData(denom, new BigInteger(amount), sender, receiver, memo);
  }

  private static RateLimitException refusal(String encoding, byte[] value) {
    return assertThrows(
        RateLimitException.class, () -> Ics20PayloadCodec.decode(V1, encoding, value));
  }

  /** Asserts the code, the encoding named first, the key part, and a bounded message. */
  private static void assertRefused(
      String encoding, byte[] value, ErrorCode code, String mentions) {
    RateLimitException e = refusal(encoding, value);
    assertEquals(code, e.code(), e.getMessage());
    assertTrue(e.detail().startsWith(encoding + " payload: "), e.getMessage());
    assertTrue(
        e.getMessage().contains(mentions), "should name " + mentions + ": " + e.getMessage());
    assertTrue(e.getMessage().length() < MAX_MESSAGE, e.getMessage());
  }

  // --- real vectors ---

  @Test
  void abi_matchesIbcGoVector() {
    assertEquals(IBC_GO_DATA, Ics20PayloadCodec.decode(V1, ABI, hex(IBC_GO_ABI)));
    assertArrayEquals(hex(IBC_GO_ABI), Ics20PayloadCodec.encode(IBC_GO_DATA, ABI));
  }

  @Test
  void abi_matchesEurekaFixture() {
    FungibleTokenPacketData expected =
        ftpd(
            "stake",
            "1000000000",
            "cosmos1eh7ssndqrfwn2d9n8pcpp097r5hg7lrn2wd594",
            "0x1bdd647e2b4eb850df4703f9f45685d1d56c3ca1",
            "nativesend");
    assertEquals(expected, Ics20PayloadCodec.decode(V1, ABI, hex(EUREKA_ABI)));
    assertArrayEquals(hex(EUREKA_ABI), Ics20PayloadCodec.encode(expected, ABI));
  }

  @Test
  void protobuf_matchesHandWorkedBytesAndTheGeneratedMessage() {
    assertEquals(IBC_GO_DATA, Ics20PayloadCodec.decode(V1, PROTO, hex(IBC_GO_PROTO)));
    assertArrayEquals(hex(IBC_GO_PROTO), Ics20PayloadCodec.encode(IBC_GO_DATA, PROTO));
    assertArrayEquals(hex(IBC_GO_PROTO), generated(IBC_GO_DATA).toByteArray());
  }

  @Test
  void protobuf_leavesTheEmptyMemoOut() {
    FungibleTokenPacketData data = ftpd("uatom", "1000000", "sender", "receiver", "");
    byte[] bytes = Ics20PayloadCodec.encode(data, PROTO);
    assertArrayEquals(hex(IBC_GO_PROTO.substring(0, IBC_GO_PROTO.indexOf("2a04"))), bytes);
    assertEquals(data, Ics20PayloadCodec.decode(V1, PROTO, bytes));
  }

  @Test
  void protobuf_writesALengthOf128OrMoreAsAMultiByteVarint() {
    // 200 = 0xc8 0x01 and 20,000 = 0xa0 0x9c 0x01 as base-128 varints, low group first
    FungibleTokenPacketData twoBytes =
        ftpd("uatom", "1000000", "sender", "receiver", "m".repeat(200));
    byte[] bytes = Ics20PayloadCodec.encode(twoBytes, PROTO);
    byte[] head = hex(IBC_GO_PROTO.substring(0, IBC_GO_PROTO.indexOf("2a04")));
    assertArrayEquals(cat(head, hex("2ac801"), utf8("m".repeat(200))), bytes);
    assertArrayEquals(generated(twoBytes).toByteArray(), bytes);
    assertEquals(twoBytes, Ics20PayloadCodec.decode(V1, PROTO, bytes));

    FungibleTokenPacketData threeBytes =
        ftpd("uatom", "1000000", "sender", "receiver", "m".repeat(20_000));
    bytes = Ics20PayloadCodec.encode(threeBytes, PROTO);
    assertArrayEquals(cat(head, hex("2aa09c01"), utf8("m".repeat(20_000))), bytes);
    assertArrayEquals(generated(threeBytes).toByteArray(), bytes);
    assertEquals(threeBytes, Ics20PayloadCodec.decode(V1, PROTO, bytes));
  }

  @Test
  void protobuf_readsFieldsInAnyOrderAndAnExplicitEmptyMemo() {
    byte[] reversed =
        cat(pb(5, "memo"), pb(4, "receiver"), pb(3, "sender"), pb(2, "1000000"), pb(1, "uatom"));
    assertEquals(IBC_GO_DATA, Ics20PayloadCodec.decode(V1, PROTO, reversed));
    byte[] emptyMemo = cat(hex(IBC_GO_PROTO.substring(0, IBC_GO_PROTO.indexOf("2a04"))), pb(5, ""));
    assertEquals("", Ics20PayloadCodec.decode(V1, PROTO, emptyMemo).memo());
  }

  @Test
  void abi_readsTheWholeAmountRange() {
    for (BigInteger amount :
        List.of(BigInteger.ZERO, BigInteger.ONE, Amounts.LIMIT.shiftRight(1), MAX)) {
      byte[] value = abi("d", "s", "r", amount, "");
      assertEquals(
          new FungibleTokenPacketData("d", amount, "s", "r", ""),
          Ics20PayloadCodec.decode(V1, ABI, value));
    }
  }

  // --- version and encoding ---

  @Test
  void decode_refusesOtherVersionsFirst() {
    byte[] json = PacketDataCodec.encode(IBC_GO_DATA);
    for (String version : List.of("ics20-2", "", "ICS20-1", " ics20-1", "ics20-1\u0000")) {
      RateLimitException e =
          assertThrows(
              RateLimitException.class, () -> Ics20PayloadCodec.decode(version, "bogus", json));
      assertEquals(DATA, e.code());
      assertTrue(e.getMessage().contains("payload version"), e.getMessage());
    }
  }

  @Test
  void decode_refusesOtherEncodingsNamingThem() {
    byte[] json = PacketDataCodec.encode(IBC_GO_DATA);
    for (String encoding :
        List.of(
            "application/JSON",
            "application/x-protobuf ",
            "application/protobuf",
            "application/x-solidity-abi; v=1",
            "text/plain")) {
      RateLimitException e = refusal(encoding, json);
      assertEquals(DATA, e.code());
      assertTrue(e.getMessage().contains("payload encoding \"" + encoding + "\""), e.getMessage());
      assertTrue(e.getMessage().contains(PROTO) && e.getMessage().contains(ABI), e.getMessage());
    }
    assertThrows(IllegalArgumentException.class, () -> Ics20PayloadCodec.encode(IBC_GO_DATA, "x"));
  }

  @Test
  void decode_quotesAndBoundsAnUntrustedVersionOrEncoding() {
    String junk = "\u0000\n\"".repeat(50_000);
    for (RateLimitException e :
        List.of(
            assertThrows(
                RateLimitException.class, () -> Ics20PayloadCodec.decode(junk, JSON, new byte[0])),
            refusal(junk, new byte[0]))) {
      assertTrue(e.getMessage().contains("\"\\u0000\\u000a\\\""), e.getMessage());
      assertTrue(e.getMessage().length() < MAX_MESSAGE, e.getMessage());
    }
  }

  @Test
  void emptyEncodingIsReadAsJsonButNeverWritten() {
    byte[] json = PacketDataCodec.encode(IBC_GO_DATA);
    assertThrows(IllegalArgumentException.class, () -> Ics20PayloadCodec.encode(IBC_GO_DATA, ""));
    assertArrayEquals(json, Ics20PayloadCodec.encode(IBC_GO_DATA, JSON));
    assertEquals(IBC_GO_DATA, Ics20PayloadCodec.decode(V1, "", json));
    RateLimitException e = refusal("", utf8("{}"));
    assertEquals(JSON + " payload: missing key \"denom\"", e.detail());
  }

  @Test
  void nullsAreCallerMistakes() {
    assertThrows(
        NullPointerException.class, () -> Ics20PayloadCodec.decode(null, JSON, new byte[0]));
    assertThrows(NullPointerException.class, () -> Ics20PayloadCodec.decode(V1, null, new byte[0]));
    assertThrows(NullPointerException.class, () -> Ics20PayloadCodec.decode(V1, JSON, null));
    assertThrows(NullPointerException.class, () -> Ics20PayloadCodec.encode(null, JSON));
    assertThrows(NullPointerException.class, () -> Ics20PayloadCodec.encode(IBC_GO_DATA, null));
  }

  // --- protobuf refusals ---

  /** A field as protobuf writes a string: its tag, the UTF-8 length, the bytes. */
  private static byte[] pb(int number, String text) {
    return pbRaw((long) number << 3 | 2, utf8(text));
  }

  private static byte[] pbRaw(long tag, byte[] payload) {
    return cat(varint(tag), varint(payload.length), payload);
  }

  private static byte[] varint(long value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long v = value;
    while (Long.compareUnsigned(v, 0x80) >= 0) {
      out.write((int) (v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
    return out.toByteArray();
  }

  private static final byte[] OK = proto("d", "1", "s", "r");

  static Stream<Arguments> protobufRefusals() {
    byte[] tenBytesOverflowing = hex("8a80808080808080800201");
    return Stream.of(
        // the wire
        arguments("field 6", cat(OK, pb(6, "x")), DATA, "field number 6 at byte 12 is not one"),
        arguments("field 0", cat(pbRaw(2, utf8("x")), OK), DATA, "field number 0 at byte 0"),
        arguments(
            "field 2^29 (past protobuf's largest)",
            cat(OK, pbRaw((1L << 29) << 3 | 2, utf8("x"))),
            DATA,
            "field number 536870912"),
        arguments(
            "tag 2^32 + 0x0a, which a 32-bit reader takes for field 1",
            cat(pbRaw((1L << 32) | 0x0a, utf8("d")), pb(2, "1"), pb(3, "s"), pb(4, "r")),
            DATA,
            "field number 536870913 at byte 0"),
        arguments("tag 2^64 - 1", cat(OK, varint(-1L)), DATA, "field number 2305843009213693951"),
        arguments(
            "denom as a varint",
            cat(hex("0801"), pb(2, "1"), pb(3, "s"), pb(4, "r")),
            DATA,
            "field 1 (denom) at byte 0 has wire type 0, not 2"),
        arguments(
            "amount as fixed64",
            cat(pb(1, "d"), hex("110100000000000000"), pb(3, "s"), pb(4, "r")),
            DATA,
            "field 2 (amount) at byte 3 has wire type 1"),
        arguments(
            "memo as a group",
            cat(OK, hex("2b2c")),
            DATA,
            "field 5 (memo) at byte 12 has wire type 3"),
        arguments(
            "sender wire type 7",
            cat(OK, hex("1f")),
            DATA,
            "field 3 (sender) at byte 12 has wire type 7"),
        arguments(
            "receiver as fixed32",
            cat(OK, hex("2501000000")),
            DATA,
            "field 4 (receiver) at byte 12 has wire type 5"),
        arguments(
            "denom twice",
            cat(OK, pb(1, "d")),
            DATA,
            "field 1 (denom) is given twice (again at byte 12)"),
        arguments("same denom twice", cat(pb(1, "d"), OK), DATA, "field 1 (denom) is given twice"),
        arguments(
            "memo empty, then given",
            cat(OK, pb(5, ""), pb(5, "m")),
            DATA,
            "field 5 (memo) is given twice"),
        arguments(
            "invalid UTF-8 byte",
            cat(OK, pbRaw(0x2a, hex("61ff"))),
            DATA,
            "field 5 (memo) is not valid UTF-8 at byte 15"),
        arguments(
            "overlong UTF-8",
            cat(pb(1, "d"), pb(2, "1"), pbRaw(0x1a, hex("c0af")), pb(4, "r")),
            DATA,
            "field 3 (sender) is not valid UTF-8 at byte 8"),
        arguments(
            "UTF-8 encoded surrogate",
            cat(pb(1, "d"), pb(2, "1"), pb(3, "s"), pbRaw(0x22, hex("eda080"))),
            DATA,
            "field 4 (receiver) is not valid UTF-8 at byte 11"),
        arguments(
            "cut UTF-8 sequence",
            cat(pbRaw(0x0a, hex("e4b8")), pb(2, "1"), pb(3, "s"), pb(4, "r")),
            DATA,
            "field 1 (denom) is not valid UTF-8 at byte 2"),
        arguments(
            "code point past U+10FFFF",
            cat(OK, pbRaw(0x2a, hex("f4908080"))),
            DATA,
            "field 5 (memo) is not valid UTF-8"),
        arguments(
            "length past the end",
            cat(OK, hex("2a0561")),
            DATA,
            "field 5 (memo) length 5 at byte 13 runs past the end of the 15-byte value"),
        arguments(
            "length 2^64 - 1",
            cat(OK, hex("2a"), varint(-1L)),
            DATA,
            "length 18446744073709551615"),
        arguments(
            "length 2^32 + 1, which a 32-bit reader takes for 1",
            cat(OK, hex("2a"), varint((1L << 32) + 1), utf8("m")),
            DATA,
            "field 5 (memo) length 4294967297"),
        arguments(
            "cut tag", cat(OK, hex("8a")), DATA, "the varint at byte 12 is cut off by the end"),
        arguments("cut length", cat(OK, hex("2a80")), DATA, "the varint at byte 13 is cut off"),
        arguments(
            "varint past 64 bits",
            cat(OK, tenBytesOverflowing),
            DATA,
            "the varint at byte 12 does not fit 64 bits"),
        arguments(
            "11-byte varint", cat(OK, hex("ffffffffffffffffffff01")), DATA, "does not fit 64 bits"),
        // the field rules, as in JSON; proto3 cannot tell a missing field from an empty one
        arguments("empty value", new byte[0], DATA, "\"amount\" is blank"),
        arguments("missing denom", proto(null, "1", "s", "r"), DATA, "denom must not be blank"),
        arguments("missing amount", proto("d", null, "s", "r"), DATA, "\"amount\" is blank"),
        arguments("missing sender", proto("d", "1", null, "r"), DATA, "sender must not be blank"),
        arguments("missing receiver", proto("d", "1", "s"), DATA, "receiver must not be blank"),
        arguments("blank denom", proto(" ", "1", "s", "r"), DATA, "denom"),
        arguments(
            "NBSP receiver (Go space)",
            proto("d", "1", "s", "\u00a0"),
            DATA,
            "receiver must not be blank"),
        arguments("blank amount", proto("d", "\t", "s", "r"), DATA, "amount"),
        arguments("blank denom before a bad amount", proto(" ", "x", "s", "r"), DATA, "denom"),
        arguments("amount +5", proto("d", "+5", "s", "r"), AMOUNT, "amount"),
        arguments("amount 010", proto("d", "010", "s", "r"), AMOUNT, "amount"),
        arguments("amount 0x64", proto("d", "0x64", "s", "r"), AMOUNT, "amount"),
        arguments("amount full-width digit", proto("d", "\uff11", "s", "r"), AMOUNT, "amount"),
        arguments(
            "amount 2^256", proto("d", Amounts.LIMIT.toString(), "s", "r"), AMOUNT, "below 2^256"));
  }

  /**
   * The fields as proto3 writes them, in number order (1 denom, 2 amount, 3 sender, 4 receiver, 5
   * memo): an empty or {@code null} one left off.
   */
  private static byte[] proto(String... texts) {
    List<byte[]> fields = new ArrayList<>();
    for (int i = 0; i < texts.length; i++) {
      if (texts[i] != null && !texts[i].isEmpty()) {
        fields.add(pb(i + 1, texts[i]));
      }
    }
    return cat(fields.toArray(new byte[0][]));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("protobufRefusals")
  void protobuf_refuses(String name, byte[] value, ErrorCode code, String mentions) {
    assertRefused(PROTO, value, code, mentions);
  }

  // --- ABI refusals ---

  /** {@code value} with the 32-byte word at {@code at} set to {@code word}. */
  private static byte[] withWord(byte[] value, int at, BigInteger word) {
    byte[] out = value.clone();
    System.arraycopy(word32(word), 0, out, at, 32);
    return out;
  }

  private static byte[] withBytes(byte[] value, int at, String hex) {
    byte[] out = value.clone();
    byte[] b = hex(hex);
    System.arraycopy(b, 0, out, at, b.length);
    return out;
  }

  private static BigInteger n(long value) {
    return BigInteger.valueOf(value);
  }

  static Stream<Arguments> abiRefusals() {
    // IBC_GO_ABI's words: 0 the tuple's offset; at 32, 64, 96 the offsets of denom, sender,
    // receiver; 128 the amount; 160 memo's offset; then denom's length at 192 and bytes at 224,
    // sender 256/288, receiver 320/352, memo 384/416; 448 bytes in all
    byte[] v = hex(IBC_GO_ABI);
    BigInteger huge = MAX;
    return Stream.of(
        arguments(
            "empty",
            new byte[0],
            "the tuple's offset (at byte 0) runs past the end of the 0-byte value"),
        arguments(
            "cut after the head's fifth word",
            Arrays.copyOf(v, 160),
            "denom's length (at byte 192) runs past the end of the 160-byte value"),
        arguments(
            "tuple offset 64",
            withWord(v, 0, n(64)),
            "the tuple's offset (at byte 0) is 64, not the canonical 32"),
        arguments("tuple offset 0", withWord(v, 0, n(0)), "is 0, not the canonical 32"),
        arguments(
            "denom offset 192",
            withWord(v, 32, n(192)),
            "denom's offset (at byte 32) is 192, not the canonical 160"),
        arguments(
            "memo offset back at denom",
            withWord(v, 160, n(160)),
            "memo's offset (at byte 160) is 160, not the canonical 352"),
        arguments(
            "sender offset 2^256 - 1",
            withWord(v, 64, huge),
            "sender's offset (at byte 64) is " + huge),
        arguments(
            "denom offset 2^32 + 160, which 32 bits take for 160",
            withWord(v, 32, n((1L << 32) + 160)),
            "is 4294967456, not the canonical 160"),
        arguments(
            "receiver offset near 2^31, overflowing an int sum",
            withWord(v, 96, n(Integer.MAX_VALUE - 16)),
            "receiver's offset (at byte 96) is 2147483631, not the canonical 288"),
        arguments(
            "denom length 2^256 - 1",
            withWord(v, 192, huge),
            "denom's length " + huge + " (at byte 192) runs past the end of the 448-byte value"),
        arguments(
            "denom length 2^32 + 5, which 32 bits take for 5",
            withWord(v, 192, n((1L << 32) + 5)),
            "denom's length 4294967301"),
        arguments(
            "denom length 2^31 - 1",
            withWord(v, 192, n(Integer.MAX_VALUE)),
            "denom's length 2147483647 (at byte 192) runs past"),
        arguments(
            "memo length one past the end",
            withWord(v, 384, n(33)),
            "memo's length 33 (at byte 384) runs past"),
        arguments(
            "a longer denom moves sender's canonical offset",
            withWord(v, 192, n(64)),
            "sender's offset (at byte 64) is 224, not the canonical 256"),
        arguments(
            "a longer denom reaching into sender's length",
            withWord(v, 192, n(33)),
            "denom has a non-zero padding byte at byte 287"),
        arguments(
            "non-zero padding after denom",
            withBytes(v, 229, "01"),
            "denom has a non-zero padding byte at byte 229"),
        arguments(
            "non-zero last byte",
            withBytes(v, 447, "80"),
            "memo has a non-zero padding byte at byte 447"),
        arguments(
            "cut in memo's padding",
            Arrays.copyOf(v, 430),
            "memo's padding runs past the end of the 430-byte value"),
        arguments(
            "cut before memo's length",
            Arrays.copyOf(v, 400),
            "memo's length (at byte 384) runs past"),
        arguments(
            "a word after the memo",
            cat(v, new byte[32]),
            "the 480-byte value goes on after the memo, which ends at byte 448"),
        arguments("a byte after the memo", cat(v, new byte[1]), "the 449-byte value goes on"),
        arguments(
            "invalid UTF-8 byte in sender",
            withBytes(v, 290, "ff"),
            "sender is not valid UTF-8 at byte 290"),
        arguments(
            "overlong UTF-8 in denom",
            withBytes(v, 224, "c0af"),
            "denom is not valid UTF-8 at byte 224"),
        arguments(
            "UTF-8 encoded surrogate in receiver",
            withBytes(v, 352, "eda080"),
            "receiver is not valid UTF-8 at byte 352"),
        arguments(
            "cut UTF-8 sequence at memo's end",
            withBytes(v, 419, "e4"),
            "memo is not valid UTF-8 at byte 419"),
        // the field rules, as in JSON
        arguments("empty denom", abi("", "s", "r", BigInteger.ONE, ""), "denom must not be blank"),
        arguments("blank denom", abi(" ", "s", "r", BigInteger.ONE, ""), "denom must not be blank"),
        arguments(
            "empty sender", abi("d", "", "r", BigInteger.ONE, ""), "sender must not be blank"),
        arguments(
            "tab receiver", abi("d", "s", "\t", BigInteger.ONE, ""), "receiver must not be blank"),
        arguments(
            "NBSP receiver (Go space)", abi("d", "s", "\u00a0", BigInteger.ONE, "m"), "receiver"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("abiRefusals")
  void abi_refuses(String name, byte[] value, String mentions) {
    assertRefused(ABI, value, DATA, mentions);
  }

  @Test
  void abi_refusesEveryCutOfTheVectors() {
    for (String vector : List.of(IBC_GO_ABI, EUREKA_ABI)) {
      byte[] v = hex(vector);
      for (int length = 0; length < v.length; length++) {
        assertEquals(DATA, refusal(ABI, Arrays.copyOf(v, length)).code(), "cut at " + length);
      }
    }
  }

  @Test
  void protobuf_refusesEveryCutThatBreaksAField() {
    byte[] v = hex(IBC_GO_PROTO);
    for (int length = 0; length < v.length; length++) {
      byte[] cut = Arrays.copyOf(v, length);
      // a cut at a field's end leaves the fields before it: a missing memo is fine
      if (length == v.length - 6) {
        assertEquals("", Ics20PayloadCodec.decode(V1, PROTO, cut).memo());
      } else {
        assertEquals(DATA, refusal(PROTO, cut).code(), "cut at " + length);
      }
    }
  }

  // --- the same data, the same answer ---

  static Stream<Arguments> sameData() {
    String max = MAX.toString();
    return Stream.of(
        arguments("uatom", "100", "cosmos1a", "cosmos1b", ""),
        arguments(
            "transfer/channel-0/uatom",
            "1",
            "s",
            "0x1bdd647e2b4eb850df4703f9f45685d1d56c3ca1",
            "{\"forward\":{\"receiver\":\"x\"}}"),
        arguments("d", max, "s", "r", "m"),
        arguments("d", "0", " s ", "r", "  "),
        arguments("\u00fcatom", "7", "\u4e2d\u6587", "\ud83d\ude00", "a\u0000b\n<&>"),
        // refused, the same way
        arguments("", "1", "s", "r", ""),
        arguments(" ", "1", "s", "r", ""),
        arguments("d", "1", "", "r", ""),
        arguments("d", "1", "s", "\u2003", ""),
        arguments("", "", "", "", ""),
        arguments(" ", "", "s", "r", "m"),
        // amounts only JSON and protobuf can carry as text
        arguments("d", "", "s", "r", ""),
        arguments("d", " ", "s", "r", ""),
        arguments("d", "+5", "s", "r", ""),
        arguments("d", "010", "s", "r", ""),
        arguments("d", "1e3", "s", "r", ""),
        arguments("d", Amounts.LIMIT.toString(), "s", "r", ""),
        arguments(" ", "abc", "s", "r", ""));
  }

  @ParameterizedTest
  @MethodSource("sameData")
  void everyEncoding_givesTheSameAnswer(
      String denom, String amount, String sender, String receiver, String memo) {
    String json =
        "{\"denom\":"
            + GoJson.quote(denom)
            + ",\"amount\":"
            + GoJson.quote(amount)
            + ",\"sender\":"
            + GoJson.quote(sender)
            + ",\"receiver\":"
            + GoJson.quote(receiver)
            + ",\"memo\":"
            + GoJson.quote(memo)
            + "}";
    List<String> answers = new ArrayList<>();
    answers.add(answer(JSON, utf8(json)));
    answers.add(answer(PROTO, proto(denom, amount, sender, receiver, memo)));
    if (Amounts.isCanonicalDecimal(amount) && new BigInteger(amount).compareTo(Amounts.LIMIT) < 0) {
      answers.add(answer(ABI, abi(denom, sender, receiver, new BigInteger(amount), memo)));
    }
    for (String a : answers) {
      assertEquals(answers.get(0), a, "JSON, protobuf, ABI: " + answers);
    }
  }

  /** The decoded data, or the refusal's code and message without the encoding's name. */
  private static String answer(String encoding, byte[] value) {
    try {
      return "decoded " + Ics20PayloadCodec.decode(V1, encoding, value);
    } catch (RateLimitException e) {
      String prefix = encoding + " payload: ";
      assertTrue(e.detail().startsWith(prefix), e.getMessage());
      return e.code() + ": " + e.detail().substring(prefix.length());
    }
  }

  @Test
  void messagesStayShortForHugeFields() {
    String blank = " ".repeat(100_000);
    assertRefused(PROTO, proto(blank, "1", "s", "r"), DATA, "denom");
    assertRefused(ABI, abi("d", blank, "r", BigInteger.ONE, ""), DATA, "sender");
    assertRefused(PROTO, proto("d", "9".repeat(100_000), "s", "r"), AMOUNT, "amount");
  }

  // --- round trips ---

  @Test
  void decodeOfEncode_isIdentityForRandomData() {
    Random random = new Random(20_260_227L);
    for (int i = 0; i < 2_000; i++) {
      FungibleTokenPacketData data = randomData(random);
      for (String encoding : ENCODINGS) {
        byte[] bytes = Ics20PayloadCodec.encode(data, encoding);
        assertEquals(data, Ics20PayloadCodec.decode(V1, encoding, bytes), encoding);
      }
      // protobuf as protobuf-java writes and reads the message; ABI as written word by word here
      byte[] proto = Ics20PayloadCodec.encode(data, PROTO);
      assertArrayEquals(generated(data).toByteArray(), proto);
      assertArrayEquals(
          abi(data.denom(), data.sender(), data.receiver(), data.amount(), data.memo()),
          Ics20PayloadCodec.encode(data, ABI));
    }
  }

  @Test
  void mutatedBinaryPayloads_failOnlyWithCode9Or10() {
    Random random = new Random(7L);
    for (int i = 0; i < 20_000; i++) {
      String encoding = random.nextBoolean() ? PROTO : ABI;
      byte[] value = mutate(random, Ics20PayloadCodec.encode(randomData(random), encoding));
      try {
        Ics20PayloadCodec.decode(V1, encoding, value);
      } catch (RateLimitException e) {
        assertTrue(e.code() == DATA || e.code() == AMOUNT, e.getMessage());
        assertTrue(e.getMessage().length() < MAX_MESSAGE, e.getMessage());
      } catch (RuntimeException e) {
        fail(encoding + " " + HexFormat.of().formatHex(value), e);
      }
    }
  }

  /** A few bytes changed, a word set to a large number, or the value cut or lengthened. */
  private static byte[] mutate(Random random, byte[] value) {
    byte[] out = value.clone();
    switch (random.nextInt(4)) {
      case 0 -> {
        for (int k = random.nextInt(3); k >= 0 && out.length > 0; k--) {
          out[random.nextInt(out.length)] = (byte) random.nextInt(256);
        }
      }
      case 1 -> {
        if (out.length >= 32) {
          int at = random.nextInt(out.length / 32) * 32;
          BigInteger word =
              BigInteger.ONE.shiftLeft(random.nextInt(256)).add(n(random.nextInt(64)));
          out = withWord(out, at, word.min(MAX));
        }
      }
      case 2 -> out = Arrays.copyOf(out, random.nextInt(out.length + 1));
      default -> out = cat(out, new byte[1 + random.nextInt(40)]);
    }
    return out;
  }

  private static FungibleTokenPacketData randomData(Random random) {
    return new FungibleTokenPacketData(
        PacketDataCodecTest.randomText(random, true),
        new BigInteger(random.nextInt(257), random),
        PacketDataCodecTest.randomText(random, true),
        PacketDataCodecTest.randomText(random, true),
        random.nextInt(3) == 0 ? "" : PacketDataCodecTest.randomText(random, false));
  }

  // --- independent encoders for the tests ---

  /** The message as protobuf-java's generated class (the proto module's copy of ibc-go's). */
  private static dev.ratelimit.proto.ibc.transfer.v1.FungibleTokenPacketData generated(
      FungibleTokenPacketData data) {
    return dev.ratelimit.proto.ibc.transfer.v1.FungibleTokenPacketData.newBuilder()
        .setDenom(data.denom())
        .setAmount(data.amount().toString())
        .setSender(data.sender())
        .setReceiver(data.receiver())
        .setMemo(data.memo())
        .build();
  }

  /**
   * {@code abi.encode} of the Solidity struct, word by word: the tuple's offset, its head (three
   * string offsets, the amount, memo's offset), then each string's length and padded bytes. Takes
   * any strings, blank ones too.
   */
  private static byte[] abi(
      String denom, String sender, String receiver, BigInteger amount, String memo) {
    byte[][] strings = {utf8(denom), utf8(sender), utf8(receiver), utf8(memo)};
    List<byte[]> words = new ArrayList<>();
    words.add(word32(n(32)));
    long offset = 5 * 32;
    for (int i = 0; i < strings.length; i++) {
      if (i == 3) {
        words.add(word32(amount));
      }
      words.add(word32(n(offset)));
      offset += 32 + (strings[i].length + 31) / 32 * 32;
    }
    for (byte[] s : strings) {
      words.add(word32(n(s.length)));
      words.add(Arrays.copyOf(s, (s.length + 31) / 32 * 32));
    }
    return cat(words.toArray(new byte[0][]));
  }

  /** A non-negative number below 2^256 as a big-endian 32-byte word. */
  private static byte[] word32(BigInteger value) {
    byte[] b = value.toByteArray();
    byte[] out = new byte[32];
    int n = Math.min(b.length, 32);
    System.arraycopy(b, b.length - n, out, 32 - n, n);
    return out;
  }
}
