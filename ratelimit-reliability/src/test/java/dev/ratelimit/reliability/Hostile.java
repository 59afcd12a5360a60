package dev.ratelimit.reliability;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Message;
import dev.ratelimit.core.genesis.Genesis;
import dev.ratelimit.core.genesis.GenesisCodec;
import dev.ratelimit.middleware.ibc.GoJson;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import dev.ratelimit.proto.v1.MsgAddRateLimit;
import dev.ratelimit.proto.v1.MsgRemoveRateLimit;
import dev.ratelimit.proto.v1.MsgResetRateLimit;
import dev.ratelimit.proto.v1.MsgUpdateRateLimit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A seeded generator of malformed and hostile inputs for the module's public paths: ICS-20 packet
 * JSON (garbage, wrong types, duplicate and unknown keys, huge, negative and non-canonical
 * amounts, unicode and 0x00 in denoms and ids, 10 kB strings, deep nesting, invalid UTF-8),
 * acknowledgements, packets with hostile ports, channels and sequences, governance messages (bad
 * fields, bad protobuf, unknown fields, bad type URLs) and genesis files. Valid inputs are mixed
 * in now and then so the stateful checks behind the decoders run too.
 *
 * <p>Everything derives from the {@link Random} given, so a seed reproduces a run.
 */
final class Hostile {
  static final String AUTHORITY = MiddlewareRig.AUTHORITY;
  static final String TEN_KB = "x".repeat(10 * 1024);
  static final BigInteger TWO_256 = BigInteger.ONE.shiftLeft(256);

  /** Channels and denoms the rig has limits on, so valid-looking input reaches the quota check. */
  static final List<String> CHANNELS = List.of("channel-0", "channel-1", "channel-7",
      "07-tendermint-18446744073709551615", "channel-18446744073709551615");
  static final List<String> DENOMS = List.of("uatom", "ublack", "uatom\0x", "ibc/ABC",
      "transfer/channel-0/uatom", "transfer/channel-999/uatom", "transfer/channel-999/ublack");

  private static final String[] STRINGS = {
    "", " ", "\t", "\n", "\u0000", "a\u0000b", "uatom\u0000", "\u0000uatom", "ατομ", "🙂",
    "\uFEFF", "\u202Euatom", "uatom\u200B", "ｕａｔｏｍ", "\u00A0", "\u3000", "\\", "\"", "/",
    "//", "transfer/", "transfer/channel-1/", "transfer/channel-1/transfer/channel-2",
    "transfer/channel-1/ ", "ibc/", "ibc/" + "A".repeat(64), "ibc/" + "a".repeat(64),
    "IBC/ABC", "../../etc", "%00", "<script>", "{}", "[]", "null", "true", "0", "-1",
    "uatom", "ublack", "transfer/channel-999/ublack", "transfer/channel-10/uatom",
    "transfer/channel-18446744073709551616/uatom", "a/b/c/d/e/f/g/h", "x".repeat(129),
    TEN_KB, "🙂".repeat(2_600), "\u0000".repeat(1024),
  };

  private static final String[] IDS = {
    "", " ", "channel-", "channel-0", "channel-00", "channel-01", "channel--1", "channel-+1",
    "channel-1 ", " channel-1", "Channel-1", "CHANNEL-1", "channel-1/", "channel-1\u0000",
    "channel-１", "channel-٣", "channel-18446744073709551615", "channel-18446744073709551616",
    "channel-99999999999999999999", "channel-123456789012345678901", "09-localhost",
    "09-localhost-", "07-tendermint", "07-tendermint-", "07-tendermint-0", "-1", "a-", "_-1",
    "a--1", "a-b-1", "a_b-1", "a.b-1", "ατομ-1", "x".repeat(10_240) + "-1", TEN_KB,
    "channel-999", "channel-7", "channel-1", "07-tendermint-18446744073709551615",
  };

  private static final String[] AMOUNTS = {
    "", " ", "0", "00", "-0", "-1", "+5", "010", "0x64", "0X64", "1_000", "1,000", "1e3",
    "1E3", "1.0", ".5", " 5", "5 ", "５", "٥", "۵", "NaN", "Infinity", "-Infinity", "∞",
    "1\u0000", "\u00001", TWO_256.toString(), TWO_256.subtract(BigInteger.ONE).toString(),
    TWO_256.add(BigInteger.ONE).toString(), TWO_256.negate().toString(),
    BigInteger.TEN.pow(100).toString(), "9".repeat(10_240), "1" + "0".repeat(78), "1", "5",
    "100", "101", "1000", "999999999999999999999",
  };

  private static final String[] JSON_NON_STRINGS = {
    "5", "-1", "0", "1e400", "-1e400", "0.5", "1E2", "null", "true", "false", "[]", "{}",
    "[\"5\"]", "{\"a\":1}", "\"\"", "18446744073709551616", "-0", "01", "NaN", "Infinity",
  };

  private static final String PUNCT = "/-\"\\{}[]:,";

  private static final String[] KEYS = {"denom", "amount", "sender", "receiver", "memo"};
  private static final String[] ODD_KEYS = {
    "Denom", "AMOUNT", "denom ", " denom", "den\u0000om", "extra", "", "__proto__",
    "denom\u0000", "ｄｅｎｏｍ", "forward",
  };

  private final Random r;

  Hostile(Random r) {
    this.r = r;
  }

  boolean chance(double p) {
    return r.nextDouble() < p;
  }

  <T> T pick(List<T> xs) {
    return xs.get(r.nextInt(xs.size()));
  }

  String pick(String[] xs) {
    return xs[r.nextInt(xs.length)];
  }

  // ---------------------------------------------------------------- text

  /** A hostile string: a listed one, a random one, or a mix. */
  String string() {
    return switch (r.nextInt(6)) {
      case 0, 1 -> pick(STRINGS);
      case 2 -> randomText(r.nextInt(40));
      case 3 -> pick(STRINGS) + pick(STRINGS);
      case 4 -> pick(DENOMS);
      default -> randomText(chance(0.05) ? 10_240 : r.nextInt(8));
    };
  }

  /** Random text from a palette of ASCII, controls, NUL, BMP, supplementary and lone surrogates. */
  String randomText(int length) {
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      switch (r.nextInt(10)) {
        case 0 -> sb.append((char) r.nextInt(0x20)); // control, NUL included
        case 1 -> sb.append((char) (0x80 + r.nextInt(0x780)));
        case 2 -> sb.appendCodePoint(0x10000 + r.nextInt(0xFFFFF));
        case 3 -> sb.append((char) (0xD800 + r.nextInt(0x800))); // lone surrogate
        case 4 -> sb.append(PUNCT.charAt(r.nextInt(PUNCT.length())));
        default -> sb.append((char) (0x20 + r.nextInt(0x5f)));
      }
    }
    return sb.toString();
  }

  /** A hostile channel or client id (sometimes a valid one). */
  String id() {
    return switch (r.nextInt(5)) {
      case 0 -> pick(CHANNELS);
      case 1 -> string();
      default -> pick(IDS);
    };
  }

  String amount() {
    return chance(0.8) ? pick(AMOUNTS) : randomDigits();
  }

  private String randomDigits() {
    StringBuilder sb = new StringBuilder();
    int n = 1 + r.nextInt(chance(0.1) ? 200 : 20);
    for (int i = 0; i < n; i++) {
      sb.append((char) ('0' + r.nextInt(10)));
    }
    return sb.toString();
  }

  // ---------------------------------------------------------------- JSON

  /** A JSON string literal of {@code s}, usually escaped like Go, sometimes raw or broken. */
  String jsonString(String s) {
    return switch (r.nextInt(12)) {
      case 0 -> "\"" + s + "\""; // raw: controls, quotes and backslashes unescaped
      case 1 -> "\"" + s + "\\u12\""; // truncated escape
      case 2 -> "\"" + s + "\\uD800\""; // escaped lone surrogate
      case 3 -> "\"" + s + "\\x41\""; // invalid escape
      case 4 -> "'" + s + "'";
      default -> GoJson.quote(s);
    };
  }

  /** A hostile JSON value for a packet field. */
  String jsonValue(String key) {
    if (chance(0.15)) {
      return pick(JSON_NON_STRINGS);
    }
    String v;
    if (key.equals("amount")) {
      v = amount();
    } else if (key.equals("denom") && chance(0.5)) {
      v = pick(DENOMS);
    } else if ((key.equals("sender") || key.equals("receiver")) && chance(0.6)) {
      v = chance(0.5) ? MiddlewareRig.SENDER : MiddlewareRig.RECEIVER;
    } else {
      v = string();
    }
    return chance(0.85) ? GoJson.quote(v) : jsonString(v);
  }

  /** ICS-20 packet data bytes: mostly malformed, sometimes valid. */
  byte[] packetData() {
    int kind = r.nextInt(20);
    return switch (kind) {
      case 0 -> randomBytes(r.nextInt(64));
      case 1 -> utf8(pick(STRINGS));
      case 2 -> utf8(nested(chance(0.5) ? 100_000 : r.nextInt(2_000), chance(0.5) ? '[' : '{'));
      case 3 -> validPacketJson(); // valid, to reach the quota checks
      case 4 -> mutateBytes(validPacketJson());
      case 5 -> utf8("[" + objectJson() + "]");
      default -> {
        byte[] b = utf8(objectJson());
        yield chance(0.2) ? mutateBytes(b) : b;
      }
    };
  }

  /** A JSON object with a random subset of ICS-20 keys (sometimes duplicated or odd) and values. */
  String objectJson() {
    List<String> members = new ArrayList<>();
    for (String k : KEYS) {
      if (chance(0.85)) {
        members.add(GoJson.quote(k) + ":" + jsonValue(k));
      }
      if (chance(0.03)) {
        members.add(GoJson.quote(k) + ":" + jsonValue(k)); // duplicate key
      }
    }
    if (chance(0.1)) {
      members.add(GoJson.quote(pick(ODD_KEYS)) + ":" + jsonValue("memo"));
    }
    if (chance(0.03)) {
      members.add(GoJson.quote("memo") + ":" + GoJson.quote(TEN_KB + TEN_KB));
    }
    java.util.Collections.shuffle(members, r);
    String body = "{" + String.join(",", members) + "}";
    if (chance(0.05)) {
      body = body + pick(new String[] {" ", "x", "{}", "\u0000", ",", "]"});
    }
    if (chance(0.03)) {
      body = "\uFEFF" + body;
    }
    return body;
  }

  byte[] validPacketJson() {
    String amount = chance(0.7) ? Integer.toString(1 + r.nextInt(120)) : amount();
    return utf8("{\"denom\":" + GoJson.quote(pick(DENOMS)) + ",\"amount\":" + GoJson.quote(amount)
        + ",\"sender\":\"alice\",\"receiver\":\"bob\"}");
  }

  private static String nested(int depth, char open) {
    StringBuilder sb = new StringBuilder(depth * 2 + 8);
    for (int i = 0; i < depth; i++) {
      sb.append(open == '[' ? "[" : "{\"denom\":");
    }
    return sb.toString();
  }

  byte[] mutateBytes(byte[] in) {
    byte[] b = in.clone();
    int n = 1 + r.nextInt(4);
    for (int i = 0; i < n && b.length > 0; i++) {
      switch (r.nextInt(4)) {
        case 0 -> b[r.nextInt(b.length)] = (byte) r.nextInt(256);
        case 1 -> b = java.util.Arrays.copyOf(b, r.nextInt(b.length)); // truncate
        case 2 -> b[r.nextInt(b.length)] = (byte) (0x80 | r.nextInt(0x40)); // stray continuation
        default -> {
          byte[] longer = java.util.Arrays.copyOf(b, b.length + 1);
          longer[b.length] = (byte) (0xC0 | r.nextInt(0x20)); // dangling lead byte
          b = longer;
        }
      }
    }
    return b;
  }

  byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  // ---------------------------------------------------------------- packets and acks

  long sequence() {
    return switch (r.nextInt(6)) {
      case 0 -> 0;
      case 1 -> -1; // 2^64 - 1
      case 2 -> Long.MIN_VALUE;
      default -> 1 + r.nextInt(50);
    };
  }

  String port() {
    return chance(0.8) ? "transfer" : pick(new String[] {"", "transfer/x", "/", "icahost",
        "transfer\u0000", TEN_KB, "ｔｒａｎｓｆｅｒ"});
  }

  /** A packet arriving on one of our channels (or a hostile one) with hostile fields. */
  Packet incomingPacket() {
    return new Packet(
        sequence(),
        port(),
        chance(0.6) ? "channel-999" : id(),
        port(),
        chance(0.6) ? pick(CHANNELS) : id(),
        packetData(),
        chance(0.9) ? Height.ZERO : new Height(r.nextLong(), r.nextLong()),
        r.nextLong());
  }

  /** A packet this chain sent (or claims to have sent), for ack and timeout callbacks. */
  Packet outgoingPacket() {
    return new Packet(
        sequence(),
        port(),
        chance(0.6) ? pick(CHANNELS) : id(),
        port(),
        chance(0.6) ? "channel-999" : id(),
        packetData(),
        Height.ZERO,
        r.nextLong());
  }

  /** Acknowledgement bytes: mostly malformed, sometimes a valid success or error. */
  byte[] ack() {
    return switch (r.nextInt(14)) {
      case 0 -> utf8("{\"result\":\"AQ==\"}");
      case 1 -> utf8("{\"error\":" + GoJson.quote(string()) + "}");
      case 2 -> GoModuleBugRegressionTest.universalErrorAck();
      case 3 -> randomBytes(r.nextInt(40));
      case 4 -> new byte[0];
      case 5 -> utf8(nested(chance(0.5) ? 100_000 : 500, '['));
      case 6 -> mutateBytes(utf8("{\"result\":\"AQ==\"}"));
      case 7 -> java.util.Arrays.copyOf(GoModuleBugRegressionTest.universalErrorAck(),
          31 + r.nextInt(3) * (r.nextBoolean() ? 1 : 0));
      case 8 -> utf8("{\"result\":" + jsonValue("result") + "}");
      case 9 -> utf8("{\"error\":" + jsonValue("error") + "}");
      case 10 -> utf8("{\"result\":\"AQ==\",\"error\":\"x\"}");
      case 11 -> utf8("{" + GoJson.quote(pick(ODD_KEYS)) + ":\"AQ==\"}");
      case 12 -> utf8(pick(STRINGS));
      default -> null;
    };
  }

  // ---------------------------------------------------------------- governance

  String percent() {
    return chance(0.4)
        ? Integer.toString(r.nextInt(102))
        : pick(new String[] {"", "-1", "+5", "010", "101", "100", "0", "1000", " 5", "５",
            "4294967306", "99999999999999999999", "5.0", "1e1", TEN_KB, "\u00005"});
  }

  long duration() {
    return switch (r.nextInt(6)) {
      case 0 -> 0;
      case 1 -> -1; // uint64 max
      case 2 -> Long.MIN_VALUE;
      case 3 -> Long.MAX_VALUE;
      default -> 1 + r.nextInt(48);
    };
  }

  String authority() {
    return chance(0.6) ? AUTHORITY : pick(new String[] {"", " ", "\t", "attacker",
        AUTHORITY + " ", " " + AUTHORITY, AUTHORITY.toUpperCase(java.util.Locale.ROOT),
        AUTHORITY + "\u0000", TEN_KB});
  }

  String govDenom() {
    return chance(0.5) ? pick(DENOMS) : string();
  }

  String govId() {
    return chance(0.5) ? pick(CHANNELS) : id();
  }

  /** A governance message in an {@link Any}: hostile fields, broken bytes or a bad type URL. */
  Any govMessage() {
    Message m = switch (r.nextInt(4)) {
      case 0 -> MsgAddRateLimit.newBuilder().setAuthority(authority()).setDenom(govDenom())
          .setChannelOrClientId(govId()).setMaxPercentSend(percent())
          .setMaxPercentRecv(percent()).setDurationHours(duration()).build();
      case 1 -> MsgUpdateRateLimit.newBuilder().setAuthority(authority()).setDenom(govDenom())
          .setChannelOrClientId(govId()).setMaxPercentSend(percent())
          .setMaxPercentRecv(percent()).setDurationHours(duration()).build();
      case 2 -> MsgRemoveRateLimit.newBuilder().setAuthority(authority()).setDenom(govDenom())
          .setChannelOrClientId(govId()).build();
      default -> MsgResetRateLimit.newBuilder().setAuthority(authority()).setDenom(govDenom())
          .setChannelOrClientId(govId()).build();
    };
    String typeUrl = "/" + m.getDescriptorForType().getFullName();
    ByteString value = m.toByteString();
    switch (r.nextInt(12)) {
      case 0 -> value = ByteString.copyFrom(randomBytes(r.nextInt(64)));
      case 1 -> value = ByteString.copyFrom(mutateBytes(value.toByteArray()));
      case 2 -> value = value.concat(unknownField(99)); // an unknown, critical field
      case 3 -> value = value.concat(unknownField(1024 + 7)); // non-critical: allowed
      case 4 -> value = value.concat(invalidUtf8StringField(2)); // denom not UTF-8
      case 5 -> value = value.concat(wrongWireType(6)); // duration as a string
      case 6 -> typeUrl = pick(new String[] {"", "/", typeUrl + "Response", typeUrl + "X",
          typeUrl.toLowerCase(java.util.Locale.ROOT), "type.googleapis.com" + typeUrl,
          "/cosmos.bank.v1beta1.MsgSend", string()});
      case 7 -> typeUrl = typeUrl.replace("/ratelimit.v1.", "/ibc.applications.rate_limiting.v1.");
      default -> { /* well-formed bytes, hostile fields */ }
    }
    return Any.newBuilder().setTypeUrl(typeUrl).setValue(value).build();
  }

  private static ByteString unknownField(int number) {
    return encode(out -> out.writeUInt64(number, 1));
  }

  private static ByteString invalidUtf8StringField(int number) {
    return encode(out -> out.writeByteArray(number, new byte[] {(byte) 0xff, (byte) 0xc3, 'a'}));
  }

  private static ByteString wrongWireType(int number) {
    return encode(out -> out.writeString(number, "1"));
  }

  private interface Writer {
    void write(CodedOutputStream out) throws IOException;
  }

  private static ByteString encode(Writer w) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      w.write(out);
      out.flush();
      return ByteString.copyFrom(bytes.toByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---------------------------------------------------------------- genesis

  private static final Pattern JSON_SCALAR =
      Pattern.compile("(\": )(\"(?:[^\"\\\\]|\\\\.)*\"|-?[0-9]+|true|false|null)");

  /** A genesis file: a valid one with a value, key or byte broken, or garbage. */
  String genesisJson(Genesis valid) {
    String json = GenesisCodec.toJson(valid);
    return switch (r.nextInt(10)) {
      case 0 -> new String(randomBytes(r.nextInt(100)), StandardCharsets.ISO_8859_1);
      case 1 -> nested(chance(0.3) ? 100_000 : 300, chance(0.5) ? '[' : '{');
      case 2 -> "{\"rate_limits\":" + nested(chance(0.3) ? 50_000 : 200, '[');
      case 3 -> new String(mutateBytes(utf8(json)), StandardCharsets.UTF_8);
      case 4 -> json.replaceFirst("\\{", "{\"unknown_field\": 1, ");
      case 5 -> json.replace("\"channel-0/", "\"" + pick(GENESIS_PENDING_PREFIXES));
      case 6 -> json + pick(new String[] {"x", "{}", ",", "]"});
      default -> replaceScalars(json, 1 + r.nextInt(3));
    };
  }

  private static final String[] GENESIS_PENDING_PREFIXES = {
    "channel-0/0/", "channel-0/01/", "channel-0/x/", "bad id/", "channel-0//", "/", "",
    "channel-0/18446744073709551616/", "channel-0/-1/",
  };

  private String replaceScalars(String json, int count) {
    Matcher m = JSON_SCALAR.matcher(json);
    List<int[]> spans = new ArrayList<>();
    while (m.find()) {
      spans.add(new int[] {m.start(2), m.end(2)});
    }
    if (spans.isEmpty()) {
      return json;
    }
    StringBuilder sb = new StringBuilder(json);
    List<int[]> chosen = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      chosen.add(spans.get(r.nextInt(spans.size())));
    }
    chosen.sort((a, b) -> Integer.compare(b[0], a[0])); // replace from the end
    int lastStart = Integer.MAX_VALUE;
    for (int[] span : chosen) {
      if (span[1] > lastStart) {
        continue; // overlapping duplicate pick
      }
      String replacement = switch (r.nextInt(5)) {
        case 0 -> pick(JSON_NON_STRINGS);
        case 1 -> GoJson.quote(amount());
        case 2 -> GoJson.quote(id());
        case 3 -> GoJson.quote(string());
        default -> jsonString(string());
      };
      sb.replace(span[0], span[1], replacement);
      lastStart = span[0];
    }
    return sb.toString();
  }

  static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A short, printable description of an input for failure messages. */
  static String describe(Object o) {
    String s;
    if (o instanceof byte[] b) {
      s = "bytes(" + b.length + ") "
          + new String(b, 0, Math.min(b.length, 200), StandardCharsets.UTF_8);
    } else {
      s = String.valueOf(o);
    }
    return dev.ratelimit.core.model.Texts.quote(s.length() > 300 ? s.substring(0, 300) : s);
  }
}
