package dev.ratelimit.middleware;

import static dev.ratelimit.middleware.MiddlewareHarness.RELAYER;
import static dev.ratelimit.middleware.MiddlewareHarness.TIMEOUT_HEIGHT;
import static dev.ratelimit.middleware.MiddlewareHarness.TIMEOUT_TIMESTAMP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.mockito.Mockito.verifyNoInteractions;

import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.testing.StoreEngine;
import dev.ratelimit.middleware.ibc.Acknowledgement;
import dev.ratelimit.middleware.ibc.GoJson;
import dev.ratelimit.middleware.ibc.Packet;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Malformed packet data and ids from a seeded generator (SPEC §5 "packet data that cannot be
 * decoded", §6 acknowledgement bytes): every case is invalid by construction and names the code
 * it must get. Through send, only a {@link RateLimitException} with that code may escape and the
 * channel keeper is never called; through recv nothing escapes, the answer is ibc-go's error ack
 * with that code (8, 9 or 10), the app is never called; and after every case the store digest is
 * unchanged. The chain has rate limits, a blacklist and a whitelist, so a leak would show.
 */
class MiddlewareBadInputTest {
  private static final long SEED = 0x5EED_2024_0101L;
  private static final int CASES = 2_500;
  private static final Instant GENESIS = Instant.parse("2024-01-01T07:10:00Z");

  /** What a case must be rejected with; the data is otherwise valid around its one defect. */
  record Case(String kind, String sourceChannel, String destinationChannel, byte[] data, int code) {
    @Override
    public String toString() {
      String shown = HexFormat.of().formatHex(data, 0, Math.min(data.length, 96));
      return kind + " [" + sourceChannel + " -> " + destinationChannel + "] code " + code + " data " + shown;
    }
  }

  @Test
  void seededMalformedInput_onMemory() {
    run(StoreEngine.MEMORY, null, CASES);
  }

  @Test
  void seededMalformedInput_onLevelDb(@TempDir java.nio.file.Path tempDir) {
    run(StoreEngine.LEVELDB, tempDir, 600);
  }

  @Test
  void theGeneratorCoversEveryKindAndEveryCode() {
    Generator g = new Generator(new Random(SEED));
    Map<String, Integer> kinds = new java.util.TreeMap<>();
    java.util.Set<Integer> codes = new java.util.TreeSet<>();
    for (int i = 0; i < CASES; i++) {
      Case c = g.next();
      kinds.merge(c.kind(), 1, Integer::sum);
      codes.add(c.code());
    }
    assertEquals(java.util.Set.of(8, 9, 10), codes);
    assertEquals(Generator.KINDS.size(), kinds.size(), kinds.toString());
    kinds.forEach((k, n) -> assertTrue(n >= 20, () -> k + " only " + n + " times"));
  }

  private static void run(StoreEngine engine, java.nio.file.Path tempDir, int cases) {
    try (MiddlewareHarness h = new MiddlewareHarness(engine, tempDir, GENESIS)) {
      // Limits the valid parts of the cases would hit, on both ends of the packets.
      for (String channel : List.of("channel-0", "channel-1")) {
        h.addLimit("ustrd", channel, 10, 10, 24, 1000);
        h.addLimit(MiddlewareHarness.ibcHash("transfer/" + channel + "/uatom"), channel, 10, 10, 24, 1000);
        h.addLimit(MiddlewareHarness.ibcHash("transfer/channel-0/ustrd"), channel, 10, 10, 24, 1000);
      }
      h.keeper.addDenomToBlacklist(h.ctx(), "ubanned");
      h.keeper.setWhitelistedAddressPair(h.ctx(), new WhitelistedAddressPair("a", "b"));
      String digest = h.digest();
      Generator g = new Generator(new Random(SEED));

      for (int i = 0; i < cases; i++) {
        Case c = g.next();
        h.chain.events().clear();
        try {
          checkSend(h, c);
          assertEquals(digest, h.digest(), "store changed by a rejected send");
          checkRecv(h, c);
          assertEquals(digest, h.digest(), "store changed by a rejected recv");
        } catch (AssertionError | RuntimeException e) {
          throw new AssertionError("case " + i + ": " + c, e);
        }
      }
      verifyNoInteractions(h.app);
      verifyNoInteractions(h.downstream);
    }
  }

  private static void checkSend(MiddlewareHarness h, Case c) {
    try {
      h.middleware.sendPacket(
          h.ctx(), "transfer", c.sourceChannel(), TIMEOUT_HEIGHT, TIMEOUT_TIMESTAMP, c.data());
      fail("send accepted malformed input");
    } catch (RateLimitException e) {
      assertEquals(c.code(), e.code().code(), e.getMessage());
    }
    assertEquals(List.of(), h.events(RateLimitEvents.TRANSFER_DENIED));
  }

  private static void checkRecv(MiddlewareHarness h, Case c) {
    h.chain.events().clear();
    Packet p =
        new Packet(
            7, "transfer", c.sourceChannel(), "transfer", c.destinationChannel(), c.data(),
            TIMEOUT_HEIGHT, TIMEOUT_TIMESTAMP);
    Optional<Acknowledgement> ack = h.middleware.onRecvPacket(h.ctx(), p, RELAYER);

    assertEquals(
        "{\"error\":\"ABCI code: "
            + c.code()
            + ": error handling packet: see events for details\"}",
        new String(ack.orElseThrow().toJsonBytes(), StandardCharsets.UTF_8));
    List<Event> events = h.chain.events().events();
    assertEquals(1, events.size(), events::toString);
    assertEquals(RateLimitEvents.INVALID_PACKET, events.get(0).type());
    assertEquals(Integer.toString(c.code()), events.get(0).attribute("code").orElseThrow());
  }

  // ---------------------------------------------------------------- the generator

  /**
   * Builds one defect into otherwise valid ICS-20 data (whose strings carry unicode, escaped NULs
   * and 10 kB texts), or pairs valid data with an invalid channel id.
   */
  static final class Generator {
    static final List<String> KINDS =
        List.of(
            "garbage",
            "token-soup",
            "wrong-type",
            "missing-key",
            "blank-value",
            "duplicate-key",
            "unknown-key",
            "trailing-data",
            "truncated",
            "invalid-utf8",
            "lone-surrogate-escape",
            "raw-control-char",
            "bad-amount",
            "out-of-range-amount",
            "empty-base-denom",
            "not-an-object",
            "lenient-json",
            "invalid-channel");

    private static final List<String> FIELDS = List.of("denom", "amount", "sender", "receiver", "memo");
    private static final List<String> REQUIRED = List.of("denom", "amount", "sender", "receiver");
    private static final List<String> BAD_AMOUNTS =
        List.of(
            "010", "00", "+5", "-1", "-0", "0x64", "1_000", "1e3", "1.0", " 5", "5 ", "5\n",
            "\u0661\u0662", "\uff15", "\u0665", "1,000", "٫", "0b101", "Infinity", "NaN", "5a",
            "\u00a05", "one");
    private static final List<String> BLANKS =
        List.of("", " ", "\t", "\n \r", "\u00a0", "\u3000", "\u2028", "\u0085", "\u200a\u202f");
    private static final List<String> WRONG_TYPES =
        List.of("5", "-1", "1e400", "null", "true", "false", "[]", "[\"5\"]", "{}",
            "{\"a\":\"b\"}", "0.5", "\"5\"x");
    private static final List<String> LENIENT =
        List.of(
            "{'denom':'ustrd','amount':'5','sender':'a','receiver':'b'}",
            "{denom:\"ustrd\",amount:\"5\",sender:\"a\",receiver:\"b\"}",
            "{\"denom\":\"ustrd\",\"amount\":\"5\",\"sender\":\"a\",\"receiver\":\"b\",}",
            "/*c*/{\"denom\":\"ustrd\",\"amount\":\"5\",\"sender\":\"a\",\"receiver\":\"b\"}",
            "{\"denom\":\"ustrd\",\"amount\":\"5\",\"sender\":\"a\",\"receiver\":\"b\"}//c",
            "\uFEFF{\"denom\":\"ustrd\",\"amount\":\"5\",\"sender\":\"a\",\"receiver\":\"b\"}",
            "{\"denom\":\"ustrd\",\"amount\":\"5\",\"sender\":\"a\",\"receiver\":\"b\"\u000b}",
            "{\"denom\":\"u\\qstrd\",\"amount\":\"5\",\"sender\":\"a\",\"receiver\":\"b\"}",
            "{\"denom\":\"ustrd\",\"amount\":\"5\",\"sender\":\"a\",\"receiver\":\"b\"}{}",
            "{\"denom\":\"ustrd\",\"amount\":\"5\",\"sender\":\"a\"\"receiver\":\"b\"}",
            "{\"denom\":\"ustrd\" \"amount\":\"5\",\"sender\":\"a\",\"receiver\":\"b\"}",
            "{\"denom\":\"ustrd\",\"amount\":\"5\",\"sender\":\"a\",\"receiver\":\"b\"]");
    private static final List<String> NOT_OBJECTS =
        List.of("null", "[]", "\"denom\"", "5", "true", "[{\"denom\":\"ustrd\"}]", "", " ", "\n");
    private static final List<String> EMPTY_BASES =
        List.of(
            "transfer/channel-1/transfer/channel-2",
            "transfer/channel-0/",
            "transfer/channel-1/ ",
            "transfer/channel-0/transfer/channel-1/\u3000",
            "p/07-tendermint-0/",
            "a/09-localhost/b/channel-18446744073709551615/");
    private static final List<String> BAD_CHANNELS =
        List.of(
            "", "channel-", "channel-x", "channel--1", "-1", "channel-1 ", " channel-1",
            "channel-18446744073709551616", "channel-000000000000000000001", "a/b-1", "chan nel-1",
            "channel-\u0661", "channel-1/", "\u0000", "-", "a-", "_-", "channel_1");

    private final Random r;

    Generator(Random r) {
      this.r = r;
    }

    private <T> T pick(List<T> list) {
      return list.get(r.nextInt(list.size()));
    }

    /** A valid, decorated packet-data field set: key -> JSON literal, in a random order. */
    private List<String[]> validFields() {
      List<String[]> fields = new ArrayList<>();
      fields.add(new String[] {"denom", GoJson.quote(denom())});
      fields.add(new String[] {"amount", GoJson.quote(amount())});
      fields.add(new String[] {"sender", GoJson.quote(text())});
      fields.add(new String[] {"receiver", GoJson.quote(text())});
      if (r.nextBoolean()) {
        fields.add(new String[] {"memo", GoJson.quote(r.nextInt(3) == 0 ? "" : text())});
      }
      java.util.Collections.shuffle(fields, r);
      return fields;
    }

    private String denom() {
      return switch (r.nextInt(8)) {
        case 0 -> "ustrd";
        case 1 -> "transfer/channel-0/uatom";
        case 2 -> "transfer/channel-1/uatom";
        case 3 -> "ubanned";
        case 4 -> "u\u0000strd"; // a NUL inside: valid JSON once escaped
        case 5 -> "u" + unicode(1 + r.nextInt(12));
        case 6 -> "u" + "d".repeat(10_000);
        default -> "ibc/" + "AB".repeat(32);
      };
    }

    private String amount() {
      return switch (r.nextInt(4)) {
        case 0 -> "0";
        case 1 -> Integer.toString(1 + r.nextInt(1000));
        case 2 -> Amounts.LIMIT.subtract(BigInteger.ONE).toString();
        default -> new BigInteger(200, r).toString();
      };
    }

    private String text() {
      return switch (r.nextInt(5)) {
        case 0 -> "a";
        case 1 -> "b";
        case 2 -> "x" + unicode(1 + r.nextInt(20));
        case 3 -> "y" + "\u0000\u0001\"\\<>&\u2028".repeat(1 + r.nextInt(3));
        default -> "z".repeat(10_000);
      };
    }

    /** Random code points: BMP, astral (emoji), combining marks, RTL, NUL; never a lone half. */
    private String unicode(int n) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < n; i++) {
        int cp =
            switch (r.nextInt(6)) {
              case 0 -> 0x20 + r.nextInt(0x5f);
              case 1 -> 0xA0 + r.nextInt(0xD7FF - 0xA0);
              case 2 -> 0x1F300 + r.nextInt(0x300);
              case 3 -> 0x0300 + r.nextInt(0x70);
              case 4 -> 0x0590 + r.nextInt(0x100);
              default -> r.nextInt(0x20);
            };
        sb.appendCodePoint(cp);
      }
      return sb.toString();
    }

    private static String object(List<String[]> fields) {
      StringBuilder sb = new StringBuilder("{");
      for (int i = 0; i < fields.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        sb.append(GoJson.quote(fields.get(i)[0])).append(':').append(fields.get(i)[1]);
      }
      return sb.append('}').toString();
    }

    private static byte[] utf8(String s) {
      return s.getBytes(StandardCharsets.UTF_8);
    }

    private void replace(List<String[]> fields, String key, String literal) {
      for (String[] f : fields) {
        if (f[0].equals(key)) {
          f[1] = literal;
          return;
        }
      }
      fields.add(new String[] {key, literal});
    }

    Case next() {
      String kind = pick(KINDS);
      String src = "channel-" + r.nextInt(3);
      String dst = "channel-" + r.nextInt(3);
      List<String[]> fields = validFields();
      return switch (kind) {
        case "garbage" -> {
          byte[] b = new byte[r.nextInt(120)];
          r.nextBytes(b);
          yield new Case(kind, src, dst, b, 9);
        }
        case "token-soup" -> {
          // JSON-ish tokens; "receiver" is never among them, so no soup is valid data.
          List<String> tokens =
              List.of("{", "}", "[", "]", ":", ",", "\"denom\"", "\"amount\"", "\"sender\"",
                  "\"memo\"", "\"5\"", "\"ustrd\"", "null", "1", " ", "\"", "\\", "\"\\u0000\"");
          StringBuilder sb = new StringBuilder();
          int n = r.nextInt(30);
          for (int i = 0; i < n; i++) {
            sb.append(pick(tokens));
          }
          yield new Case(kind, src, dst, utf8(sb.toString()), 9);
        }
        case "wrong-type" -> {
          replace(fields, pick(FIELDS), pick(WRONG_TYPES));
          yield new Case(kind, src, dst, utf8(object(fields)), 9);
        }
        case "missing-key" -> {
          String key = pick(REQUIRED);
          fields.removeIf(f -> f[0].equals(key));
          yield new Case(kind, src, dst, utf8(object(fields)), 9);
        }
        case "blank-value" -> {
          String key = pick(List.of("denom", "sender", "receiver", "amount"));
          replace(fields, key, GoJson.quote(pick(BLANKS)));
          yield new Case(kind, src, dst, utf8(object(fields)), 9);
        }
        case "duplicate-key" -> {
          String key = pick(FIELDS);
          replace(fields, key, GoJson.quote(key.equals("amount") ? "7" : "dup"));
          String[] copy = fields.stream().filter(f -> f[0].equals(key)).findFirst().orElseThrow().clone();
          if (key.equals("amount") && r.nextBoolean()) {
            copy[1] = GoJson.quote("1000000"); // the A-style bypass: which amount counts?
          }
          fields.add(r.nextInt(fields.size() + 1), copy);
          yield new Case(kind, src, dst, utf8(object(fields)), 9);
        }
        case "unknown-key" -> {
          String key =
              pick(List.of("Denom", "AMOUNT", "amount ", "denom\u0000", "extra", "", "\u00e9",
                  "memo2", "receiver_", "x".repeat(10_000)));
          fields.add(r.nextInt(fields.size() + 1), new String[] {key, GoJson.quote("v")});
          yield new Case(kind, src, dst, utf8(object(fields)), 9);
        }
        case "trailing-data" -> {
          String tail = pick(List.of("x", "{}", ",", "]", "}", "null", "\"\"", " 1", "\u0000"));
          yield new Case(kind, src, dst, utf8(object(fields) + tail), 9);
        }
        case "truncated" -> {
          byte[] full = utf8(object(fields));
          byte[] cut = java.util.Arrays.copyOf(full, r.nextInt(full.length));
          yield new Case(kind, src, dst, cut, 9);
        }
        case "invalid-utf8" -> {
          byte[] bad =
              pick(
                  List.of(
                      new byte[] {(byte) 0xff},
                      new byte[] {(byte) 0xc0, (byte) 0x80},
                      new byte[] {(byte) 0x80},
                      new byte[] {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
                      new byte[] {(byte) 0xf4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
                      new byte[] {(byte) 0xe2, (byte) 0x82}));
          String key = pick(FIELDS);
          replace(fields, key, "\"@@\"");
          String json = object(fields);
          int at = json.indexOf("@@");
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          out.writeBytes(utf8(json.substring(0, at)));
          out.writeBytes(bad);
          out.writeBytes(utf8(json.substring(at + 2)));
          yield new Case(kind, src, dst, out.toByteArray(), 9);
        }
        case "lone-surrogate-escape" -> {
          String key = pick(FIELDS);
          replace(fields, key, "\"v\\u" + pick(List.of("d800", "dbff", "dc00", "dfff")) + "\"");
          yield new Case(kind, src, dst, utf8(object(fields)), 9);
        }
        case "raw-control-char" -> {
          String key = pick(FIELDS);
          char c = (char) r.nextInt(0x20);
          replace(fields, key, "\"v" + c + "\"");
          yield new Case(kind, src, dst, utf8(object(fields)), 9);
        }
        case "bad-amount" -> {
          replace(fields, "amount", GoJson.quote(pick(BAD_AMOUNTS)));
          yield new Case(kind, src, dst, utf8(object(fields)), 10);
        }
        case "out-of-range-amount" -> {
          BigInteger big =
              switch (r.nextInt(4)) {
                case 0 -> Amounts.LIMIT;
                case 1 -> Amounts.LIMIT.add(new BigInteger(64, r));
                case 2 -> BigInteger.TEN.pow(100 + r.nextInt(1000));
                default -> new BigInteger("9".repeat(10_000));
              };
          replace(fields, "amount", GoJson.quote(big.toString()));
          yield new Case(kind, src, dst, utf8(object(fields)), 10);
        }
        case "empty-base-denom" -> {
          replace(fields, "denom", GoJson.quote(pick(EMPTY_BASES)));
          yield new Case(kind, src, dst, utf8(object(fields)), 9);
        }
        case "not-an-object" -> new Case(kind, src, dst, utf8(pick(NOT_OBJECTS)), 9);
        case "lenient-json" -> new Case(kind, src, dst, utf8(pick(LENIENT)), 9);
        case "invalid-channel" -> {
          // Valid data on an invalid channel id: the source (send) and the destination (recv).
          String bad = pick(BAD_CHANNELS);
          yield new Case(kind, bad, bad, utf8(object(fields)), 8);
        }
        default -> throw new AssertionError(kind);
      };
    }
  }
}
