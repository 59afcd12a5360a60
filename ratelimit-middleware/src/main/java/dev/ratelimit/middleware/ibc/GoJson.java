package dev.ratelimit.middleware.ibc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.JsonSyntax;
import dev.ratelimit.core.model.Texts;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * JSON exactly as the Go side writes it, and one strict reader for the flat JSON objects IBC
 * carries (ICS-20 packet data, acknowledgements). Shared so the middleware and the transfer app
 * produce and accept the same bytes.
 */
public final class GoJson {
  private static final char[] HEX = "0123456789abcdef".toCharArray();
  private static final int MAX_REASON_CHARS = 200;

  // Field names are not interned: a hostile packet could otherwise fill the symbol table. Every
  // read limit is pinned, none left to Jackson's defaults: those changed between releases (a 5 M
  // then 20 M-character string limit), so two nodes linking different jackson-core versions
  // would split on one packet (a memo or an ack result longer than the limit). The bounds are
  // SPEC's: JsonSyntax has refused nesting past its depth already, and the packet's size is the
  // chain's to bound.
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
          .streamReadConstraints(StreamReadConstraints.builder()
              .maxStringLength(Integer.MAX_VALUE)
              .maxNameLength(Integer.MAX_VALUE)
              .maxNumberLength(Integer.MAX_VALUE)
              .maxNestingDepth(Integer.MAX_VALUE)
              .maxDocumentLength(-1)
              .maxTokenCount(-1)
              .build())
          .build();

  private GoJson() {}

  /**
   * {@code value} as a JSON string literal, quotes included, escaped like Go's {@code
   * encoding/json} (Go 1.22+, HTML escaping on, which {@code json.Marshal} and the Cosmos SDK's
   * sorted JSON use): {@code "} and {@code \} get a backslash; {@code \b \f \n \r \t} their short
   * forms; other characters below U+0020 {@code \}{@code u00XX} in lower-case hex; {@code <},
   * {@code >}, {@code &}, U+2028 and U+2029 {@code \}{@code u003c}, {@code \}{@code u003e}, {@code
   * \}{@code u0026}, {@code \}{@code u2028}, {@code \}{@code u2029}; a lone surrogate (which Go, on
   * bytes, sees as invalid UTF-8) {@code \}{@code ufffd}. Everything else, DEL and non-ASCII
   * included, is written as is.
   *
   * @throws NullPointerException if {@code value} is {@code null}
   */
  public static String quote(String value) {
    Objects.requireNonNull(value, "value");
    StringBuilder sb = new StringBuilder(value.length() + 2);
    sb.append('"');
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '<', '>', '&', '\u2028', '\u2029' -> appendUnicodeEscape(sb, c);
        default -> {
          if (c < 0x20) {
            appendUnicodeEscape(sb, c);
          } else if (Character.isHighSurrogate(c)
              && i + 1 < value.length()
              && Character.isLowSurrogate(value.charAt(i + 1))) {
            sb.append(c).append(value.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            sb.append("\\ufffd");
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  private static void appendUnicodeEscape(StringBuilder sb, char c) {
    sb.append("\\u")
        .append(HEX[(c >> 12) & 0xf])
        .append(HEX[(c >> 8) & 0xf])
        .append(HEX[(c >> 4) & 0xf])
        .append(HEX[c & 0xf]);
  }

  /**
   * Reads {@code json} as one flat JSON object whose values are all strings, strictly: the bytes
   * must be valid UTF-8 (no replacement of bad bytes), hold exactly one JSON object and nothing but
   * whitespace after it, with no duplicate key, no key outside {@code allowedKeys} (exact case) and
   * only string values ({@code null}, numbers, booleans, arrays and objects are rejected). Escapes
   * are decoded; a {@code \}{@code u} escape of a lone surrogate is kept as is. Never fails on deep
   * nesting or huge input other than by the exception below.
   *
   * @param code the error code of every rejection (the caller's notion of "invalid")
   * @return the entries in document order
   * @throws RateLimitException with {@code code} and a reason naming the problem (which key, what
   *     was found) when {@code json} is {@code null} or breaks any rule above
   * @throws NullPointerException if {@code allowedKeys} or {@code code} is {@code null}
   */
  public static Map<String, String> readStringObject(
      byte[] json, Set<String> allowedKeys, ErrorCode code) {
    Objects.requireNonNull(allowedKeys, "allowedKeys");
    Objects.requireNonNull(code, "code");
    if (json == null) {
      throw new RateLimitException(code, "no data (null)");
    }
    FieldNames names = FieldNames.of(List.copyOf(allowedKeys));
    String[] values = new String[names.size()];
    int[] order = new int[names.size()];
    int count = scanSimple(json, names, values, order);
    if (count < 0) {
      return readStringObjectGeneral(json, allowedKeys, code);
    }
    Map<String, String> entries = new LinkedHashMap<>();
    for (int i = 0; i < count; i++) {
      entries.put(names.keys().get(order[i]), values[order[i]]);
    }
    return Collections.unmodifiableMap(entries);
  }

  /**
   * {@link #readStringObject} into an array, for a reader that knows its keys: by the same rules
   * and with the same errors, with {@code keys} as the allowed keys.
   *
   * @param keys the allowed keys, distinct
   * @return the value of {@code keys.get(i)} at {@code i}, {@code null} where the key is absent
   * @throws RateLimitException as {@link #readStringObject}
   * @throws NullPointerException if {@code keys} or {@code code} is {@code null}
   * @throws IllegalArgumentException if a key is listed twice
   */
  public static String[] readStringFields(byte[] json, List<String> keys, ErrorCode code) {
    return readStringFields(json, FieldNames.of(keys), code);
  }

  /**
   * {@link #readStringFields(byte[], List, ErrorCode)} with the keys prepared once ({@link
   * FieldNames#of}), for a reader that decodes on every packet.
   *
   * @return the value of {@code names.keys().get(i)} at {@code i}, {@code null} where absent
   * @throws RateLimitException as {@link #readStringObject}
   * @throws NullPointerException if {@code names} or {@code code} is {@code null}
   */
  public static String[] readStringFields(byte[] json, FieldNames names, ErrorCode code) {
    Objects.requireNonNull(names, "names");
    Objects.requireNonNull(code, "code");
    if (json == null) {
      throw new RateLimitException(code, "no data (null)");
    }
    String[] values = new String[names.size()];
    if (scanSimple(json, names, values, null) < 0) {
      Map<String, String> entries =
          readStringObjectGeneral(json, Set.copyOf(names.keys()), code);
      for (int i = 0; i < values.length; i++) {
        values[i] = entries.get(names.keys().get(i));
      }
    }
    return values;
  }

  /**
   * {@link #readStringFields(byte[], FieldNames, ErrorCode)} of {@code packet}'s data, read in
   * place (a packet hands out copies of its data; this reader only reads).
   *
   * @throws NullPointerException if an argument is {@code null}
   */
  public static String[] readStringFields(Packet packet, FieldNames names, ErrorCode code) {
    return readStringFields(Objects.requireNonNull(packet, "packet").dataForReading(), names, code);
  }

  /**
   * The keys of a flat JSON object a reader knows, prepared for matching in place: each key's
   * bytes with the closing quote, so a key is recognised without scanning it first.
   */
  public static final class FieldNames {
    private final List<String> keys;
    /** Each key's ASCII bytes and {@code "}; null for a key that is not a simple string. */
    private final byte[][] quoted;
    /**
     * For a quoted key of 1 to 16 bytes, matched with one or two word reads: its first eight bytes
     * as a little-endian word (a shorter key's bytes, the rest zero), and its last eight bytes (for
     * a key of over eight bytes; the two words overlap below sixteen).
     */
    private final long[] firstWord;
    private final long[] lastWord;
    /** The bytes of the first word that are the key's; 0 for a key without words. */
    private final long[] firstMask;

    private FieldNames(List<String> keys) {
      this.keys = keys;
      this.quoted = new byte[keys.size()][];
      this.firstWord = new long[keys.size()];
      this.lastWord = new long[keys.size()];
      this.firstMask = new long[keys.size()];
      for (int k = 0; k < keys.size(); k++) {
        byte[] q = quotedIfSimple(keys.get(k));
        quoted[k] = q;
        if (q != null && q.length <= 2 * Long.BYTES) {
          firstWord[k] = littleEndian(q, 0, Math.min(q.length, Long.BYTES));
          firstMask[k] = q.length >= Long.BYTES ? -1L : (1L << (8 * q.length)) - 1;
          lastWord[k] = littleEndian(q, Math.max(0, q.length - Long.BYTES), q.length);
        }
      }
    }

    private static long littleEndian(byte[] b, int from, int to) {
      long w = 0;
      for (int i = to - 1; i >= from; i--) {
        w = (w << 8) | (b[i] & 0xFF);
      }
      return w;
    }

    /**
     * The prepared form of {@code keys}.
     *
     * @throws NullPointerException if {@code keys} or a key is {@code null}
     * @throws IllegalArgumentException if a key is listed twice
     */
    public static FieldNames of(List<String> keys) {
      List<String> copy = List.copyOf(keys);
      if (Set.copyOf(copy).size() != copy.size()) {
        throw new IllegalArgumentException("keys must be distinct, got " + copy);
      }
      return new FieldNames(copy);
    }

    /** The keys, in the order a reader's result array follows. */
    public List<String> keys() {
      return keys;
    }

    int size() {
      return keys.size();
    }

    /**
     * The key the string literal whose content starts at {@code from} spells exactly (the key's
     * bytes then the closing quote: a simple key's bytes need no scanning), trying key {@code
     * first} first (writers emit the keys in one order), then the others (ibc-go before v10 sorts
     * them); -1 if it is none of the simple keys.
     */
    int spelledAt(byte[] json, int from, int first) {
      if (first < quoted.length && spells(json, from, first)) {
        return first;
      }
      for (int k = 0; k < quoted.length; k++) {
        if (k != first && spells(json, from, k)) {
          return k;
        }
      }
      return -1;
    }

    /** The length of key {@code k} with its closing quote, for a key {@link #spelledAt} found. */
    int quotedLength(int k) {
      return quoted[k].length;
    }

    private boolean spells(byte[] json, int from, int k) {
      byte[] q = quoted[k];
      long mask = firstMask[k];
      if (mask != 0 && from <= json.length - Long.BYTES) { // whole words: no range compare
        int n = q.length;
        if (n <= Long.BYTES) {
          return ((long) LITTLE_ENDIAN_LONGS.get(json, from) & mask) == firstWord[k];
        }
        return from <= json.length - n
            && (long) LITTLE_ENDIAN_LONGS.get(json, from) == firstWord[k]
            && (long) LITTLE_ENDIAN_LONGS.get(json, from + n - Long.BYTES) == lastWord[k];
      }
      return q != null
          && from <= json.length - q.length
          && Arrays.equals(json, from, from + q.length, q, 0, q.length);
    }

    private static byte[] quotedIfSimple(String key) {
      byte[] q = new byte[key.length() + 1];
      for (int i = 0; i < key.length(); i++) {
        char c = key.charAt(i);
        if (c > 0xFF || !SIMPLE_BYTE[c]) {
          return null; // written with escapes or non-ASCII: only the general path reads it
        }
        q[i] = (byte) c;
      }
      q[key.length()] = '"';
      return q;
    }
  }

  /** {@link #readStringObject} with the general parser only (tests compare the two paths). */
  static Map<String, String> readStringObjectGeneral(
      byte[] json, Set<String> allowedKeys, ErrorCode code) {
    String text = decodeUtf8(json, code);
    // Go's syntax first: Jackson's text parser takes non-ASCII digits in a u-escape (by the low
    // byte), and this is where duplicate keys are refused
    Optional<String> syntax = JsonSyntax.problem(text);
    if (syntax.isPresent()) {
      throw new RateLimitException(code, "malformed JSON: " + shorten(syntax.get()));
    }
    try (JsonParser p = FACTORY.createParser(text)) {
      JsonToken t = p.nextToken();
      if (t == null) {
        throw new RateLimitException(code, "empty input, expected a JSON object");
      }
      if (t != JsonToken.START_OBJECT) {
        throw new RateLimitException(code, "expected a JSON object, got " + describe(t));
      }
      Map<String, String> entries = new LinkedHashMap<>();
      while ((t = p.nextToken()) == JsonToken.FIELD_NAME) {
        String key = p.currentName();
        if (!allowedKeys.contains(key)) {
          throw new RateLimitException(
              code,
              "unknown key "
                  + Texts.quote(key)
                  + ", allowed keys are "
                  + new TreeSet<>(allowedKeys));
        }
        JsonToken value = p.nextToken();
        if (value != JsonToken.VALUE_STRING) {
          throw new RateLimitException(
              code, Texts.quote(key) + " must be a JSON string, got " + describe(value));
        }
        entries.put(key, p.getText());
      }
      if (t != JsonToken.END_OBJECT) { // the parser reports structural errors itself; be safe
        throw new RateLimitException(code, "malformed JSON object");
      }
      JsonToken after = p.nextToken();
      if (after != null) {
        throw new RateLimitException(
            code, "unexpected data (" + describe(after) + ") after the JSON object");
      }
      return Collections.unmodifiableMap(entries);
    } catch (RateLimitException e) {
      throw e;
    } catch (JsonProcessingException e) {
      throw new RateLimitException(code, "malformed JSON: " + shorten(e.getOriginalMessage()));
    } catch (IOException e) { // reading a String: not expected, but never let it escape unchecked
      throw new RateLimitException(code, "unreadable JSON: " + shorten(e.getMessage()));
    } catch (RuntimeException e) { // any other parser failure is bad input, never a crash
      throw new RateLimitException(code, "malformed JSON: " + shorten(e.toString()));
    }
  }

  /**
   * The common case without a general parser: a non-empty object of allowed, distinct keys with
   * string values, all printable ASCII without escapes, JSON whitespace between tokens. For such
   * input any JSON parser reads exactly these entries; anything else (escapes, non-ASCII, other
   * value types, duplicate or unknown keys, trailing data) returns -1, and the general path decides
   * and words the error. Packet data is decoded on every send and receive: keys are matched in
   * place and only values become strings.
   *
   * @param values receives the value of {@code keys.get(i)} at {@code i}; all null on entry
   * @param order if not null, receives the key indexes in document order
   * @return the number of entries, or -1 when the input is not simple
   */
  private static int scanSimple(byte[] json, FieldNames names, String[] values, int[] order) {
    int i = skipWhitespace(json, 0);
    if (i >= json.length || json[i] != '{') {
      return -1;
    }
    int count = 0;
    int expected = 0; // the key after the last one is tried first
    i++;
    while (true) {
      i = skipWhitespace(json, i);
      if (i >= json.length || json[i] != '"') {
        return -1;
      }
      int k = names.spelledAt(json, i + 1, expected);
      if (k < 0 || values[k] != null) {
        return -1;
      }
      int keyEnd = i + names.quotedLength(k); // the closing quote
      expected = k + 1;
      i = skipWhitespace(json, keyEnd + 1);
      if (i >= json.length || json[i] != ':') {
        return -1;
      }
      i = skipWhitespace(json, i + 1);
      int valueEnd = simpleStringEnd(json, i);
      if (valueEnd < 0) {
        return -1;
      }
      // printable ASCII, checked: read as Latin-1, which the JDK copies without checking again
      values[k] = new String(json, i + 1, valueEnd - i - 1, StandardCharsets.ISO_8859_1);
      if (order != null) {
        order[count] = k;
      }
      count++;
      i = skipWhitespace(json, valueEnd + 1);
      if (i >= json.length) {
        return -1;
      }
      byte b = json[i++];
      if (b == '}') {
        break;
      }
      if (b != ',') {
        return -1;
      }
    }
    return skipWhitespace(json, i) == json.length ? count : -1;
  }

  /** Longer strings take the general path, which applies the parser's own length limit. */
  private static final int SIMPLE_MAX_STRING = 65_536;

  /**
   * The index of the closing quote of a string literal of printable ASCII without escapes, at
   * most {@link #SIMPLE_MAX_STRING} characters, that opens at {@code start}; or -1.
   */
  static int simpleStringEnd(byte[] json, int start) {
    if (start >= json.length || json[start] != '"') {
      return -1;
    }
    int end = Math.min(json.length, start + 1 + SIMPLE_MAX_STRING);
    int i = start + 1;
    // eight bytes per step while they fit (addresses are 40-65 bytes): the first byte that is not
    // simple is the lowest flagged one, so the word's flags locate it exactly
    while (i <= end - Long.BYTES) {
      long stops = notSimple((long) LITTLE_ENDIAN_LONGS.get(json, i));
      if (stops != 0) {
        i += Long.numberOfTrailingZeros(stops) >>> 3;
        return json[i] == '"' ? i : -1;
      }
      i += Long.BYTES;
    }
    while (i < end && SIMPLE_BYTE[json[i] & 0xFF]) { // the last few bytes: one table load each
      i++;
    }
    return i < end && json[i] == '"' ? i : -1;
  }

  private static final VarHandle LITTLE_ENDIAN_LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGH_BITS = 0x8080808080808080L;

  /**
   * The high bit of every byte of {@code word} (little-endian: byte 0 lowest) that is not a
   * {@link #SIMPLE_BYTE}, or possibly set above such a byte, never below the first one: a byte
   * below 0x20, at or above 0x7F, {@code "} or {@code \}. Zero iff all eight bytes are simple.
   * (Borrows and carries run upward only, and only from a byte that is not simple, so bytes under
   * the first one stay clear.)
   */
  static long notSimple(long word) {
    // outside [0x20, 0x7E]: b - 0x20 has its high bit for b < 0x20 (borrow) and b >= 0xA0, and
    // b + 1 for 0x7F <= b <= 0xFE (0xFF is caught by the first)
    long outside = (word - 0x20 * ONES) | (word + ONES);
    long quote = zeroByte(word ^ ('"' * ONES));
    long backslash = zeroByte(word ^ ('\\' * ONES));
    return (outside | quote | backslash) & HIGH_BITS;
  }

  /** The high bit of each zero byte of {@code x} (and possibly of bytes above the first). */
  private static long zeroByte(long x) {
    return (x - ONES) & ~x;
  }

  /** The bytes a simple string holds: printable ASCII but {@code "} and {@code \}. */
  private static final boolean[] SIMPLE_BYTE = new boolean[256];

  static {
    for (int b = 0x20; b <= 0x7E; b++) {
      SIMPLE_BYTE[b] = b != '"' && b != '\\';
    }
  }

  private static int skipWhitespace(byte[] json, int i) {
    if (i < json.length && json[i] > ' ') { // compact JSON: no whitespace (and no loop) at all
      return i;
    }
    while (i < json.length && (json[i] == ' ' || json[i] == '\n' || json[i] == '\t' || json[i] == '\r')) {
      i++;
    }
    return i;
  }

  private static String decodeUtf8(byte[] bytes, ErrorCode code) {
    return utf8(bytes, 0, bytes.length, code, "");
  }

  /**
   * {@link Texts#strictUtf8} for the middleware's decoders (JSON here, the binary payload
   * encodings), refusing with their error code.
   *
   * @throws RateLimitException with {@code code}: {@code what} + "not valid UTF-8 at byte N", N the
   *     offending byte's index in {@code bytes}
   */
  public static String utf8(byte[] bytes, int from, int length, ErrorCode code, String what) {
    try {
      return Texts.strictUtf8(bytes, from, length);
    } catch (Texts.MalformedUtf8Exception e) {
      throw new RateLimitException(code, what + e.getMessage());
    }
  }

  private static String describe(JsonToken t) {
    if (t == null) {
      return "end of input";
    }
    return switch (t) {
      case START_OBJECT -> "an object";
      case START_ARRAY -> "an array";
      case VALUE_STRING -> "a string";
      case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
      case VALUE_TRUE, VALUE_FALSE -> "a boolean";
      case VALUE_NULL -> "null";
      default -> t.name();
    };
  }

  private static String shorten(String s) {
    if (s == null) {
      return "(no detail)";
    }
    return s.length() <= MAX_REASON_CHARS ? s : s.substring(0, MAX_REASON_CHARS) + "...";
  }
}
