package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.middleware.transfer.FungibleTokenPacketData;
import dev.ratelimit.middleware.transfer.Ics20PayloadCodec;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * IBC v2 payload values (SPEC §10) decoded by {@link Ics20PayloadCodec} and by references written
 * from the formats: {@link ReferenceProtobuf} (the protobuf wire format) and {@link ReferenceAbi}
 * (the Solidity ABI), each with the strictness the codec's javadoc documents, then SPEC §5's field
 * rules ({@link PacketDataFuzzTest#expectedData}). They must agree on every input: the same data,
 * or a refusal with the same code (9 or 10) as a {@link RateLimitException} with a bounded
 * reason. What decodes encodes to what the references write, and reads back the same.
 *
 * <p>The fuzzer mostly builds well-formed values from fields it picks (field order, duplicates,
 * wire types, varint forms, lengths; ABI offsets, lengths, padding, tail order), so that the field
 * rules are reached; sometimes the version or encoding is another, or the value any bytes.
 */
class Ics20PayloadFuzzTest {
  static final String VERSION = Ics20PayloadCodec.VERSION;
  static final String JSON = Ics20PayloadCodec.ENCODING_JSON;
  static final String PROTO = Ics20PayloadCodec.ENCODING_PROTOBUF;
  static final String ABI = Ics20PayloadCodec.ENCODING_ABI;
  private static final List<String> ENCODINGS = List.of("", JSON, PROTO, ABI);
  private static final BigInteger MAX = Expected.LIMIT.subtract(BigInteger.ONE);

  /** Denoms of {@link MiddlewareV2FuzzTest}'s limits (sent, received back, received); faults. */
  private static final String[] DENOMS = {
    "uatom", "transfer/07-tendermint-0/uosmo", "uosmo", "transfer/08-wasm-3/uatom", "", " ",
    "transfer/channel-0/"};
  private static final String[] ADDRESSES = {
    "cosmos1sender", "0x1bdd647e2b4eb850df4703f9f45685d1d56c3ca1", "", "\u00a0"};
  private static final String[] MEMOS = {"", "memo", "{\"forward\":{\"receiver\":\"x\"}}"};

  @FuzzTest(maxDuration = "5m")
  void protobuf_agreesWithTheWireFormatReference(FuzzedDataProvider in) {
    String version = version(in);
    String encoding = encoding(in, PROTO);
    check(version, encoding,
        in.consumeInt(0, 15) == 15 ? in.consumeRemainingAsBytes() : protobuf(in));
  }

  @FuzzTest(maxDuration = "5m")
  void abi_agreesWithTheAbiReference(FuzzedDataProvider in) {
    String version = version(in);
    String encoding = encoding(in, ABI);
    check(version, encoding, in.consumeInt(0, 15) == 15 ? in.consumeRemainingAsBytes() : abi(in));
  }

  /** The codec against the references, and the round trips of what it decodes. */
  private static void check(String version, String encoding, byte[] value) {
    Object expected = expectedDecode(version, encoding, value);
    Object actual;
    try {
      actual = Ics20PayloadCodec.decode(version, encoding, value);
    } catch (RateLimitException e) { // any other exception fails the fuzz test
      Expected.assertReason(e);
      if (version.equals(VERSION) && ENCODINGS.contains(encoding)) {
        String name = encoding.isEmpty() ? JSON : encoding;
        assertTrue(e.detail().startsWith(name + " payload: "), e::getMessage);
      }
      actual = e.code();
    }
    assertEquals(expected, actual);
    if (actual instanceof FungibleTokenPacketData data) {
      byte[] proto = ReferenceProtobuf.write(
          data.denom(), data.amount().toString(), data.sender(), data.receiver(), data.memo());
      byte[] abi = ReferenceAbi.write(
          data.denom(), data.sender(), data.receiver(), data.amount(), data.memo());
      assertArrayEquals(proto, Ics20PayloadCodec.encode(data, PROTO), "protobuf as proto3 writes");
      assertArrayEquals(abi, Ics20PayloadCodec.encode(data, ABI), "ABI as abi.encode writes");
      if (encoding.equals(ABI)) {
        assertArrayEquals(value, abi, "only abi.encode's own layout is read");
      }
      for (String e : List.of(JSON, PROTO, ABI)) {
        assertEquals(data, Ics20PayloadCodec.decode(VERSION, e, Ics20PayloadCodec.encode(data, e)),
            () -> "decode(encode(data)) as " + e);
      }
    }
  }

  /** SPEC §10 and §5 on a payload: the packet data, or the code of its first fault. */
  static Object expectedDecode(String version, String encoding, byte[] value) {
    if (!version.equals(VERSION)) {
      return ErrorCode.INVALID_PACKET_DATA;
    }
    return switch (encoding) {
      case "", JSON -> PacketDataFuzzTest.expectedDecode(value);
      case PROTO -> ReferenceProtobuf.read(value)
          .map(PacketDataFuzzTest::expectedData)
          .orElse(ErrorCode.INVALID_PACKET_DATA);
      case ABI -> ReferenceAbi.read(value)
          .map(PacketDataFuzzTest::expectedData)
          .orElse(ErrorCode.INVALID_PACKET_DATA);
      default -> ErrorCode.INVALID_PACKET_DATA;
    };
  }

  // ---------------------------------------------------------------- inputs

  /** Mostly {@code ics20-1}. */
  static String version(FuzzedDataProvider in) {
    return switch (in.consumeInt(0, 31)) {
      case 31 -> in.consumeString(12);
      case 30 -> "ics20-2";
      default -> VERSION;
    };
  }

  /** Mostly {@code usual}; sometimes another of the three, the empty one or any text. */
  static String encoding(FuzzedDataProvider in, String usual) {
    return switch (in.consumeInt(0, 15)) {
      case 15 -> in.consumeString(32);
      case 14 -> ENCODINGS.get(in.consumeInt(0, ENCODINGS.size() - 1));
      default -> usual;
    };
  }

  /** Mostly false. */
  private static boolean rarely(FuzzedDataProvider in) {
    return in.consumeInt(0, 15) == 15;
  }

  /**
   * Protobuf records: fields 1 to 5 (each mostly present), then up to three more records of any
   * field number (duplicates, unknown fields), up to three swaps; each record mostly a string of
   * wire type 2 with its exact length, its varints mostly minimal; at last maybe cut or lengthened.
   */
  static byte[] protobuf(FuzzedDataProvider in) {
    List<byte[]> records = new ArrayList<>();
    for (int number = 1; number <= 5; number++) {
      if (in.consumeInt(0, 7) < 7) {
        records.add(record(in, number));
      }
    }
    for (int k = in.consumeInt(0, 3); k > 0; k--) {
      long number = switch (in.consumeInt(0, 3)) {
        case 0 -> in.consumeInt(1, 5);
        case 1 -> 0;
        case 2 -> 6;
        default -> in.consumeLong();
      };
      records.add(in.consumeInt(0, records.size()), record(in, number));
    }
    for (int k = in.consumeInt(0, 3); k > 0 && records.size() > 1; k--) {
      Collections.swap(records,
          in.consumeInt(0, records.size() - 1), in.consumeInt(0, records.size() - 1));
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    records.forEach(out::writeBytes);
    return cutOrLengthen(in, out.toByteArray());
  }

  private static byte[] record(FuzzedDataProvider in, long number) {
    int wireType = rarely(in) ? in.consumeInt(0, 7) : 2;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    varint(in, out, number << 3 | wireType);
    switch (wireType) {
      case 0 -> varint(in, out, in.consumeLong());
      case 1 -> out.writeBytes(in.consumeBytes(8));
      case 5 -> out.writeBytes(in.consumeBytes(4));
      case 2 -> {
        byte[] bytes = rarely(in)
            ? in.consumeBytes(in.consumeInt(0, 40))
            : text(in, number).getBytes(StandardCharsets.UTF_8);
        long length = switch (in.consumeInt(0, 15)) {
          case 15 -> in.consumeLong();
          case 14 -> bytes.length + in.consumeInt(-3, 3);
          default -> bytes.length;
        };
        varint(in, out, length);
        out.writeBytes(bytes);
      }
      default -> { } // groups (3, 4) and the wire types that do not exist (6, 7): no payload
    }
    return out.toByteArray();
  }

  /**
   * {@code value} (unsigned) as a varint, mostly minimal; sometimes with 1 to 10 groups more than
   * needed (past 10 bytes it is invalid), the last of them holding any bits (so a 10th byte
   * above 1, past 64 bits, can be written).
   */
  private static void varint(FuzzedDataProvider in, ByteArrayOutputStream out, long value) {
    int extra = rarely(in) ? in.consumeInt(1, 10) : 0;
    int top = extra > 0 ? in.consumeInt(0, 0x7f) : 0;
    BigInteger v = new BigInteger(Long.toUnsignedString(value));
    int groups = Math.max(1, (v.bitLength() + 6) / 7) + extra;
    for (int i = 0; i < groups; i++) {
      int group = v.shiftRight(7 * i).intValue() & 0x7f;
      out.write(i < groups - 1 ? group | 0x80 : group | top);
    }
  }

  /**
   * {@code abi.encode}'s bytes of fields the fuzzer picks, sometimes with the strings' tails in
   * another order or apart (valid ABI, not the canonical layout), then up to three changes: a word
   * set (an offset or length moved a little or far), a byte set, a cut, bytes added.
   */
  static byte[] abi(FuzzedDataProvider in) {
    long[] numbers = {1, 3, 4, 5}; // denom, sender, receiver, memo: the struct's order
    byte[][] strings = new byte[4][];
    for (int i = 0; i < 4; i++) {
      strings[i] = rarely(in)
          ? in.consumeBytes(in.consumeInt(0, 70))
          : text(in, numbers[i]).getBytes(StandardCharsets.UTF_8);
    }
    BigInteger amount = switch (in.consumeInt(0, 5)) {
      case 0 -> BigInteger.valueOf(1_000_000);
      case 1 -> BigInteger.valueOf(100);
      case 2 -> BigInteger.valueOf(in.consumeLong(0, 1_000));
      case 3 -> new BigInteger(1, in.consumeBytes(32));
      case 4 -> BigInteger.ZERO;
      default -> MAX;
    };
    int[] order = {0, 1, 2, 3};
    int[] gaps = new int[4];
    if (rarely(in)) {
      for (int k = 0; k < 4; k++) {
        int other = in.consumeInt(k, 3);
        int t = order[k];
        order[k] = order[other];
        order[other] = t;
        gaps[k] = in.consumeInt(0, 2);
      }
    }
    byte[] v = ReferenceAbi.write(strings, amount, order, gaps);
    for (int k = in.consumeInt(0, 3); k > 0 && v.length >= 32; k--) {
      switch (in.consumeInt(0, 2)) {
        case 0 -> {
          int at = 32 * in.consumeInt(0, v.length / 32 - 1);
          BigInteger old = new BigInteger(1, Arrays.copyOfRange(v, at, at + 32));
          BigInteger set = switch (in.consumeInt(0, 3)) {
            case 0 -> old.add(BigInteger.valueOf(in.consumeInt(-64, 64))).max(BigInteger.ZERO);
            case 1 -> old.add(BigInteger.ONE.shiftLeft(32)); // the same low 32 bits
            case 2 -> new BigInteger(1, in.consumeBytes(32));
            default -> MAX;
          };
          System.arraycopy(ReferenceAbi.word(set.min(MAX)), 0, v, at, 32);
        }
        case 1 -> v[in.consumeInt(0, v.length - 1)] = in.consumeByte();
        default -> v = cutOrLengthen(in, v);
      }
    }
    return v;
  }

  /** Mostly {@code v}; sometimes cut, or with bytes after it. */
  private static byte[] cutOrLengthen(FuzzedDataProvider in, byte[] v) {
    return switch (in.consumeInt(0, 7)) {
      case 7 -> Arrays.copyOf(v, in.consumeInt(0, v.length));
      case 6 -> {
        byte[] more = in.consumeBytes(in.consumeInt(1, 64));
        byte[] out = Arrays.copyOf(v, v.length + more.length);
        System.arraycopy(more, 0, out, v.length, more.length);
        yield out;
      }
      default -> v;
    };
  }

  /** A field's text, mostly one a limit knows or a fault (blank, bad amounts), sometimes any. */
  static String text(FuzzedDataProvider in, long number) {
    if (in.consumeInt(0, 7) == 7 || number < 1 || number > 5) {
      return in.consumeString(40);
    }
    return switch ((int) number) {
      case 1 -> DENOMS[in.consumeInt(0, DENOMS.length - 1)];
      case 2 -> amount(in);
      case 3, 4 -> ADDRESSES[in.consumeInt(0, ADDRESSES.length - 1)];
      default -> MEMOS[in.consumeInt(0, MEMOS.length - 1)];
    };
  }

  /** An amount's text: near {@link MiddlewareV2FuzzTest}'s room of 100, 2^256, not canonical. */
  private static String amount(FuzzedDataProvider in) {
    return switch (in.consumeInt(0, 7)) {
      case 0 -> Long.toString(in.consumeLong(0, 200));
      case 1 -> "1000000";
      case 2 -> new BigInteger(1, in.consumeBytes(33)).toString();
      case 3 -> Expected.LIMIT.toString();
      case 4 -> "0";
      case 5 -> "0100";
      case 6 -> "+5";
      default -> " ";
    };
  }
}
