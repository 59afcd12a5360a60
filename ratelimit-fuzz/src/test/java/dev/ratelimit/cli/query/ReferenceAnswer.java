package dev.ratelimit.cli.query;

import dev.ratelimit.cli.query.ReferenceProto.Read;
import dev.ratelimit.cli.query.ReferenceProto.Type;
import dev.ratelimit.fuzz.ReferenceJson;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the CLI must make of a node's answer to one query, written from the CLI's README ("Asking a
 * running node"), RFC 8259, RFC 4648 and CometBFT's JSON-RPC shape (every field at its zero value
 * left out), sharing no code with the CLI: the answer it prints, or how it fails.
 */
final class ReferenceAnswer {
  /** The limits JSON readers here set (RFC 8259 §9 lets them): Jackson's defaults. */
  private static final int MAX_DEPTH = 1000;
  private static final int MAX_DIGITS = 1000;
  private static final int HIGHEST_MODULE_CODE = 14; // SPEC §6: codes 1-14 of "ratelimit"

  /** The six methods, with their response types. */
  enum Rpc {
    ALL_RATE_LIMITS(ReferenceProto.LIMITS_RESPONSE),
    RATE_LIMIT(ReferenceProto.LIMITS_RESPONSE),
    RATE_LIMITS_BY_CHAIN_ID(ReferenceProto.LIMITS_RESPONSE),
    RATE_LIMITS_BY_CHANNEL_OR_CLIENT_ID(ReferenceProto.LIMITS_RESPONSE),
    ALL_BLACKLISTED_DENOMS(ReferenceProto.DENOMS_RESPONSE),
    ALL_WHITELISTED_ADDRESSES(ReferenceProto.PAIRS_RESPONSE);

    final Type response;

    Rpc(Type response) {
      this.response = response;
    }
  }

  record Path(String denom, String channelOrClientId) {}

  record Quota(String maxPercentSend, String maxPercentRecv, long durationHours) {}

  record Flow(String inflow, String outflow, String channelValue) {}

  /** A rate limit; a part the answer left out is null. */
  record Limit(Path path, Quota quota, Flow flow) {}

  record Pair(String sender, String receiver) {}

  sealed interface Outcome permits Answered, Failed {}

  /**
   * An answer: its limits, denoms or pairs in order ({@code RateLimit}'s: none, or its one limit).
   */
  record Answered(List<Object> items) implements Outcome {}

  /**
   * A failure, by the exit it maps to: {@code "module N"} (the module's error N, as from a home),
   * {@code "refused"} (a request the node refused: a usage error) or {@code "node"} (exit 3).
   */
  record Failed(String exit) implements Outcome {}

  static final Failed NODE = new Failed("node");

  private ReferenceAnswer() {}

  static Outcome expected(Rpc rpc, int status, byte[] body) {
    // RFC 8259 §8.1: UTF-8, and a byte-order mark is not added (a reader may ignore one; as Go's
    // client, CometBFT's, this one does not)
    Object json = ReferenceJson.decodeUtf8(body)
        .flatMap(cps -> ReferenceJson.readValue(cps, MAX_DEPTH, MAX_DIGITS))
        .orElse(null);
    if (!(json instanceof Map<?, ?> root)) {
      return NODE;
    }
    Object error = root.get("error");
    if (error != null && error != ReferenceJson.NULL) { // JSON-RPC's error
      return NODE;
    }
    if (status != 200
        || !(root.get("result") instanceof Map<?, ?> result)
        || !(result.get("response") instanceof Map<?, ?> response)) {
      return NODE;
    }
    Object code = response.get("code");
    BigInteger number;
    if (code == null || code == ReferenceJson.NULL) { // left out at zero
      number = BigInteger.ZERO;
    } else if (code instanceof ReferenceJson.Number n && n.integer()) {
      number = new BigInteger(n.literal());
    } else {
      return NODE;
    }
    Object value = response.get("value");
    byte[] bytes;
    if (value == null || value == ReferenceJson.NULL) {
      bytes = new byte[0];
    } else if (value instanceof String s && base64(s).isPresent()) {
      bytes = base64(s).get();
    } else {
      return NODE;
    }
    if (number.signum() != 0) {
      return failure(number, response.get("codespace"), response.get("log"));
    }
    return ReferenceProto.read(bytes, rpc.response)
        .<Outcome>map(r -> answered(rpc, r))
        .orElse(NODE);
  }

  /** A non-zero code. */
  private static Failed failure(BigInteger code, Object codespace, Object log) {
    if (code.equals(BigInteger.valueOf(6)) && "sdk".equals(codespace)
        && log instanceof String text && text.contains("unknown query path")) {
      return NODE; // the same answer to every path tried: no service answers
    }
    if ("ratelimit".equals(codespace) && code.signum() > 0
        && code.compareTo(BigInteger.valueOf(HIGHEST_MODULE_CODE)) <= 0) {
      return new Failed("module " + code);
    }
    if ("sdk".equals(codespace)
        && (code.equals(BigInteger.valueOf(18)) || code.equals(BigInteger.valueOf(26)))) {
      return new Failed("refused"); // invalid request, invalid height
    }
    return NODE;
  }

  /**
   * The answer, unless a limit in it lacks a part (a path with a denom and an id, a quota, a
   * flow) or {@code RateLimit}'s is of another path than {@code uatom} on {@code channel-0}, the
   * one the test asks: the node's failure then.
   */
  private static Outcome answered(Rpc rpc, Read response) {
    Answered answered = read(rpc, response);
    for (Object item : answered.items()) {
      if (item instanceof Limit l && (l.path() == null || l.path().denom().isEmpty()
          || l.path().channelOrClientId().isEmpty() || l.quota() == null || l.flow() == null
          || rpc == Rpc.RATE_LIMIT && !l.path().equals(new Path("uatom", "channel-0")))) {
        return NODE;
      }
    }
    return answered;
  }

  private static Answered read(Rpc rpc, Read response) {
    return new Answered(switch (rpc) {
      case RATE_LIMIT -> response.merged(1).stream().map(ReferenceAnswer::limit).toList();
      case ALL_BLACKLISTED_DENOMS -> List.copyOf(response.all(1));
      case ALL_WHITELISTED_ADDRESSES -> response.all(1).stream()
          .map(p -> (Read) p)
          .map(p -> new Pair((String) p.last(1, ""), (String) p.last(2, "")))
          .map(Object.class::cast)
          .toList();
      default -> response.all(1).stream().map(l -> limit((Read) l)).toList();
    });
  }

  private static Object limit(Read l) {
    return new Limit(
        l.merged(1).map(p -> new Path((String) p.last(1, ""), (String) p.last(2, ""))).orElse(null),
        l.merged(2).map(q -> new Quota((String) q.last(1, ""), (String) q.last(2, ""),
            (Long) q.last(3, 0L))).orElse(null),
        l.merged(3).map(f -> new Flow((String) f.last(1, ""), (String) f.last(2, ""),
            (String) f.last(3, ""))).orElse(null));
  }

  /**
   * RFC 4648 §4 base64: the standard alphabet, padded to a multiple of four characters (§3.2),
   * nothing else (§3.3: no line breaks). Pad bits need not be zero (§3.5 leaves it to the
   * reader).
   */
  static Optional<byte[]> base64(String text) {
    String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (text.length() % 4 != 0) {
      return Optional.empty();
    }
    int pad = text.endsWith("==") ? 2 : text.endsWith("=") ? 1 : 0;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int bits = 0;
    int buffer = 0;
    for (int i = 0; i < text.length() - pad; i++) {
      int sextet = alphabet.indexOf(text.charAt(i));
      if (sextet < 0) {
        return Optional.empty();
      }
      buffer = ((buffer << 6) | sextet) & 0xFFFF;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out.write(buffer >> bits);
      }
    }
    return Optional.of(out.toByteArray());
  }
}
