package dev.ratelimit.cli.query;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import dev.ratelimit.cli.query.ReferenceAnswer.Rpc;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;

/**
 * A node's HTTP bodies built from the fuzzer's choices: mostly CometBFT's JSON-RPC shape, each
 * field left out, null or of another JSON type, and a value that is mostly the base64 of the
 * method's response, its records well-formed or with a field of another number or wire type.
 * The order of {@code consume} calls is what a saved input means: keep it.
 */
final class AnswerBodies {
  private static final String[] CODES = {"0", "1", "2", "6", "8", "14", "15", "18", "26", "-2",
      "-0", "4294967295", "9223372036854775808", "1.0", "2e0", "\"0\"", "null", "true", "{}",
      "[6]"};
  private static final String[] CODESPACES = {"\"sdk\"", "\"ratelimit\"", "\"\"", "null", "7",
      "[\"sdk\"]", "\"rate\\u006cimit\""};
  private static final String[] LOGS = {"\"unknown query path\"",
      "\"codespace sdk code 6: unknown request: unknown query path\"", "\"rate limit not found\"",
      "null", "{}", "12", "\"unknown query\\npath\""};
  private static final String[] TEXTS = {"uatom", "channel-0", "07-tendermint-0", "10", "", " ",
      "ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2", "\u202e1", "a\nb",
      "\u0085", "\u00e9", "\ud83d\ude00", "\u2028", "\u00ad", "\"\\", "\u001b[2J"};

  private AnswerBodies() {}

  static byte[] body(FuzzedDataProvider in, Rpc rpc) {
    List<String> members = new ArrayList<>();
    if (in.consumeBoolean()) {
      members.add("\"jsonrpc\":\"2.0\"");
      members.add("\"id\":" + in.pickValue(new String[] {"1", "-1", "\"x\"", "null"}));
    }
    switch (in.consumeInt(0, 9)) {
      case 0 -> members.add("\"error\":" + error(in));
      case 1 -> members.add("\"result\":" + in.pickValue(new String[] {"null", "{}", "[]", "\"\"",
          "{\"response\":null}", "{\"response\":[]}", "{\"response\":\"{}\"}"}));
      case 2 -> { } // no result
      default -> members.add("\"result\":{\"response\":" + response(in, rpc) + "}");
    }
    if (in.consumeInt(0, 15) == 0 && !members.isEmpty()) { // a name twice
      members.add(members.get(in.consumeInt(0, members.size() - 1)));
    }
    if (in.consumeInt(0, 15) == 0) {
      members.add("\"error\":null");
    }
    String text = "{" + String.join(",", members) + "}";
    return switch (in.consumeInt(0, 31)) {
      case 0 -> ("\ufeff" + text).getBytes(StandardCharsets.UTF_8);
      case 1 -> (text + in.consumeString(4)).getBytes(StandardCharsets.UTF_8);
      case 2 -> (" \n\t" + text + "\r\n").getBytes(StandardCharsets.UTF_8);
      case 3 -> text.getBytes(StandardCharsets.UTF_16BE);
      default -> text.getBytes(StandardCharsets.UTF_8);
    };
  }

  private static String error(FuzzedDataProvider in) {
    return in.consumeBoolean()
        ? "{\"code\":-32603,\"message\":" + quote(in.consumeString(20)) + ",\"data\":"
            + quote(in.consumeString(40)) + "}"
        : in.pickValue(new String[] {"{}", "\"x\"", "0", "[]"});
  }

  private static String response(FuzzedDataProvider in, Rpc rpc) {
    List<String> fields = new ArrayList<>();
    if (present(in)) {
      fields.add("\"code\":"
          + (in.consumeInt(0, 7) == 0 ? Integer.toString(in.consumeInt()) : in.pickValue(CODES)));
    }
    if (present(in)) {
      fields.add("\"codespace\":" + text(in, CODESPACES));
    }
    if (present(in)) {
      fields.add("\"log\":" + text(in, LOGS));
    }
    if (present(in)) {
      fields.add("\"value\":" + value(in, rpc));
    }
    if (in.consumeBoolean()) {
      fields.add("\"height\":\"42\"");
    }
    Collections.rotate(fields, in.consumeInt(0, 4));
    return "{" + String.join(",", fields) + "}";
  }

  private static boolean present(FuzzedDataProvider in) {
    return in.consumeInt(0, 3) != 0;
  }

  private static String text(FuzzedDataProvider in, String[] pool) {
    return in.consumeInt(0, 3) == 0 ? quote(in.consumeString(40)) : in.pickValue(pool);
  }

  private static String value(FuzzedDataProvider in, Rpc rpc) {
    switch (in.consumeInt(0, 9)) {
      case 0 -> {
        return "null";
      }
      case 1 -> {
        return in.pickValue(new String[] {"0", "{}", "[]", "true"});
      }
      case 2 -> {
        return quote(in.consumeString(16));
      }
      default -> { }
    }
    String b64 = Base64.getEncoder().encodeToString(message(in, rpc));
    return quote(switch (in.consumeInt(0, 15)) {
      case 0 -> b64.replace("=", "");
      case 1 -> b64.replace('+', '-').replace('/', '_');
      case 2 -> {
        int at = in.consumeInt(0, b64.length());
        yield b64.substring(0, at) + "\n" + b64.substring(at);
      }
      case 3 -> b64 + "=";
      default -> b64;
    });
  }

  /** A response: the method's own, mostly, or another method's, or any bytes. */
  private static byte[] message(FuzzedDataProvider in, Rpc rpc) {
    if (in.consumeInt(0, 15) == 0) {
      return in.consumeBytes(48);
    }
    Rpc as = in.consumeInt(0, 7) == 0 ? in.pickValue(Rpc.values()) : rpc;
    Wire m = new Wire();
    int n = as == Rpc.RATE_LIMIT
        ? (in.consumeInt(0, 7) == 0 ? 2 : in.consumeInt(0, 1)) // twice: merged
        : in.consumeInt(0, 3);
    for (int i = 0; i < n; i++) {
      m.bytes(1, switch (as) {
        case ALL_BLACKLISTED_DENOMS -> string(in);
        case ALL_WHITELISTED_ADDRESSES -> strings(in, 2);
        default -> limit(in);
      });
    }
    oddity(in, m);
    return m.toBytes();
  }

  private static byte[] limit(FuzzedDataProvider in) {
    Wire l = new Wire();
    if (present(in)) {
      l.bytes(1, strings(in, 2)); // path
    }
    if (present(in)) {
      Wire quota = new Wire();
      quota.raw(strings(in, 2));
      if (present(in)) {
        quota.tag(3, 0).varint(in.consumeInt(0, 3) == 0 ? in.consumeLong() : in.consumeInt(0, 48));
      }
      l.bytes(2, quota.toBytes());
    }
    if (present(in)) {
      l.bytes(3, strings(in, 3)); // flow
    }
    oddity(in, l);
    return l.toBytes();
  }

  /** A record of {@code n} string fields (numbered from 1), each there or not. */
  private static byte[] strings(FuzzedDataProvider in, int n) {
    Wire r = new Wire();
    for (int f = 1; f <= n; f++) {
      if (present(in)) {
        r.bytes(f, string(in));
      }
    }
    oddity(in, r);
    return r.toBytes();
  }

  private static byte[] string(FuzzedDataProvider in) {
    return switch (in.consumeInt(0, 7)) {
      case 0 -> in.consumeString(12).getBytes(StandardCharsets.UTF_8);
      case 1 -> in.consumeBytes(6); // maybe not UTF-8
      default -> in.pickValue(TEXTS).getBytes(StandardCharsets.UTF_8);
    };
  }

  /** Now and then, a field this library's message lacks, or a known one of another wire type. */
  private static void oddity(FuzzedDataProvider in, Wire m) {
    if (in.consumeInt(0, 7) != 0) {
      return;
    }
    int number = in.consumeInt(1, 40);
    switch (in.consumeInt(0, 5)) {
      case 0 -> m.tag(1, 0).varint(10); // Stride's first releases: amounts as numbers
      case 1 -> m.bytes(number, string(in));
      case 2 -> m.tag(number, 0).varint(in.consumeLong());
      case 3 -> m.tag(number, 3).tag(1, 0).varint(1).tag(number, 4); // a group
      case 4 -> m.tag(number, in.pickValue(new int[] {1, 5})).raw(in.consumeBytes(8));
      default -> m.raw(in.consumeBytes(8));
    }
  }

  /** A JSON string of {@code s}: quotes, backslashes, controls and surrogates escaped. */
  static String quote(String s) {
    StringBuilder sb = new StringBuilder("\"");
    s.chars().forEach(c -> {
      if (c == '"' || c == '\\') {
        sb.append('\\').append((char) c);
      } else if (c < 0x20 || Character.isSurrogate((char) c)) {
        sb.append(String.format(java.util.Locale.ROOT, "\\u%04x", c));
      } else {
        sb.append((char) c);
      }
    });
    return sb.append('"').toString();
  }

  /** Protobuf's wire format written by hand, so a value can break any of its rules. */
  private static final class Wire {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Wire varint(long v) {
      while ((v & ~0x7FL) != 0) {
        out.write((int) (v & 0x7F) | 0x80);
        v >>>= 7;
      }
      out.write((int) v);
      return this;
    }

    Wire tag(int number, int wireType) {
      return varint(((long) number << 3) | wireType);
    }

    Wire bytes(int number, byte[] b) {
      tag(number, 2).varint(b.length);
      return raw(b);
    }

    Wire raw(byte[] b) {
      out.writeBytes(b);
      return this;
    }

    byte[] toBytes() {
      return out.toByteArray();
    }
  }
}
