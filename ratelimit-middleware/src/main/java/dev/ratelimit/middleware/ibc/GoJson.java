package dev.ratelimit.middleware.ibc;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.core.model.Texts;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
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

  // Field names are not interned: a hostile packet could otherwise fill the symbol table.
  private static final JsonFactory FACTORY =
      JsonFactory.builder().disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build();

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
    Map<String, String> simple = readSimpleStringObject(json, allowedKeys);
    return simple != null ? simple : readStringObjectGeneral(json, allowedKeys, code);
  }

  /** {@link #readStringObject} with the general parser only (tests compare the two paths). */
  static Map<String, String> readStringObjectGeneral(
      byte[] json, Set<String> allowedKeys, ErrorCode code) {
    String text = decodeUtf8(json, code);
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
        if (entries.containsKey(key)) {
          throw new RateLimitException(code, "duplicate key " + Texts.quote(key));
        }
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
   * input any JSON parser returns exactly this map; anything else (escapes, non-ASCII, other value
   * types, duplicate or unknown keys, trailing data) returns null, and the general path decides
   * and words the error. Packet data is decoded on every send and receive: this is a third of a
   * send's time saved.
   */
  private static Map<String, String> readSimpleStringObject(byte[] json, Set<String> allowedKeys) {
    int[] pos = {skipWhitespace(json, 0)};
    if (pos[0] >= json.length || json[pos[0]] != '{') {
      return null;
    }
    Map<String, String> entries = new LinkedHashMap<>();
    pos[0]++;
    while (true) {
      pos[0] = skipWhitespace(json, pos[0]);
      String key = simpleString(json, pos);
      if (key == null || !allowedKeys.contains(key) || entries.containsKey(key)) {
        return null;
      }
      pos[0] = skipWhitespace(json, pos[0]);
      if (pos[0] >= json.length || json[pos[0]] != ':') {
        return null;
      }
      pos[0] = skipWhitespace(json, pos[0] + 1);
      String value = simpleString(json, pos);
      if (value == null) {
        return null;
      }
      entries.put(key, value);
      pos[0] = skipWhitespace(json, pos[0]);
      if (pos[0] >= json.length) {
        return null;
      }
      byte b = json[pos[0]++];
      if (b == '}') {
        break;
      }
      if (b != ',') {
        return null;
      }
    }
    return skipWhitespace(json, pos[0]) == json.length ? Collections.unmodifiableMap(entries) : null;
  }

  /** Longer strings take the general path, which applies the parser's own length limit. */
  private static final int SIMPLE_MAX_STRING = 65_536;

  /**
   * A string literal of printable ASCII without escapes, at most {@link #SIMPLE_MAX_STRING}
   * characters, at {@code pos[0]}; or null.
   */
  private static String simpleString(byte[] json, int[] pos) {
    int start = pos[0];
    if (start >= json.length || json[start] != '"') {
      return null;
    }
    int end = Math.min(json.length, start + 1 + SIMPLE_MAX_STRING);
    for (int i = start + 1; i < end; i++) {
      byte b = json[i];
      if (b == '"') {
        pos[0] = i + 1;
        return new String(json, start + 1, i - start - 1, StandardCharsets.US_ASCII);
      }
      if (b < 0x20 || b > 0x7E || b == '\\') {
        return null;
      }
    }
    return null;
  }

  private static int skipWhitespace(byte[] json, int i) {
    while (i < json.length && (json[i] == ' ' || json[i] == '\n' || json[i] == '\t' || json[i] == '\r')) {
      i++;
    }
    return i;
  }

  private static String decodeUtf8(byte[] bytes, ErrorCode code) {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      CharBuffer chars = decoder.decode(in);
      return chars.toString();
    } catch (CharacterCodingException e) {
      throw new RateLimitException(code, "not valid UTF-8 at byte " + in.position());
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
