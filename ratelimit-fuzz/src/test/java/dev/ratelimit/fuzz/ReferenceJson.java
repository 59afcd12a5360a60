package dev.ratelimit.fuzz;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An independent reading of JSON, written from RFC 8259 and the spec, sharing no code with {@code
 * GoJson}, {@code JsonSyntax} or Jackson, so the fuzzer can compare two readings of every input:
 * the one shape IBC carries here (SPEC §5: valid UTF-8 holding exactly one object whose keys are
 * distinct, allowed and whose values are all strings, with only JSON white space around tokens),
 * and any JSON value (a node's answers to the CLI).
 */
public final class ReferenceJson {
  /** JSON's {@code null}, as {@link #readValue} gives it. */
  public static final Object NULL = new Object() {
    @Override
    public String toString() {
      return "null";
    }
  };

  /** A number as written; RFC 8259's grammar. */
  public record Number(String literal) {
    /** Whether it has neither a fraction nor an exponent. */
    public boolean integer() {
      return literal.chars().noneMatch(c -> c == '.' || c == 'e' || c == 'E');
    }
  }

  private final int[] cps; // the input's code points
  private final int maxDepth;
  private final int maxDigits;
  private int at;

  private ReferenceJson(int[] cps, int maxDepth, int maxDigits) {
    this.cps = cps;
    this.maxDepth = maxDepth;
    this.maxDigits = maxDigits;
  }

  /** The object's entries in document order, or empty when the input breaks any rule. */
  static Optional<Map<String, String>> readFlatStringObject(byte[] utf8, Set<String> allowed) {
    Optional<int[]> cps = decodeUtf8(utf8);
    if (cps.isEmpty()) {
      return Optional.empty();
    }
    ReferenceJson r = new ReferenceJson(cps.get(), Integer.MAX_VALUE, Integer.MAX_VALUE);
    try {
      return Optional.of(r.object(allowed));
    } catch (Malformed e) {
      return Optional.empty();
    }
  }

  private static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed() {
      super(null, null, false, false);
    }
  }

  private Map<String, String> object(Set<String> allowed) throws Malformed {
    ws();
    expect('{');
    Map<String, String> entries = new LinkedHashMap<>();
    ws();
    if (peek() == '}') {
      at++;
    } else {
      while (true) {
        ws();
        String key = string();
        if (!allowed.contains(key) || entries.containsKey(key)) {
          throw new Malformed();
        }
        ws();
        expect(':');
        ws();
        entries.put(key, string());
        ws();
        int c = next();
        if (c == '}') {
          break;
        }
        if (c != ',') {
          throw new Malformed();
        }
      }
    }
    ws();
    if (at != cps.length) {
      throw new Malformed();
    }
    return entries;
  }

  /**
   * The one JSON value {@code cps} holds (RFC 8259 §2-§7, only JSON white space around it): an
   * object as an ordered map, an array as a list, a string, a {@link Number}, a boolean or {@link
   * #NULL}; or empty when it holds none. Within the limits §9 lets a reader set: at most {@code
   * maxDepth} nested arrays and objects, at most {@code maxDigits} digits in a number (its integer,
   * fraction and exponent together). Two equal names in one object are refused (§4 leaves them to
   * the reader; Go's protojson refuses them), and so is a name holding a surrogate that is not half
   * of a pair (§8.2 leaves such strings to the reader; a value may hold one).
   */
  public static Optional<Object> readValue(int[] cps, int maxDepth, int maxDigits) {
    ReferenceJson r = new ReferenceJson(cps, maxDepth, maxDigits);
    try {
      Object value = r.value(0);
      r.ws();
      return r.at == cps.length ? Optional.of(value) : Optional.empty();
    } catch (Malformed e) {
      return Optional.empty();
    }
  }

  private Object value(int depth) throws Malformed {
    ws();
    int c = peek();
    if ((c == '{' || c == '[') && depth >= maxDepth) {
      throw new Malformed();
    }
    switch (c) {
      case '{' -> {
        Map<String, Object> members = new LinkedHashMap<>();
        if (!empty('}')) {
          do {
            ws();
            String name = string();
            if (members.containsKey(name) || Expected.loneSurrogate(name)) {
              throw new Malformed();
            }
            ws();
            expect(':');
            members.put(name, value(depth + 1));
          } while (another('}'));
        }
        return members;
      }
      case '[' -> {
        List<Object> elements = new ArrayList<>();
        if (!empty(']')) {
          do {
            elements.add(value(depth + 1));
          } while (another(']'));
        }
        return elements;
      }
      case '"' -> {
        return string();
      }
      case 't' -> {
        return literal("true", Boolean.TRUE);
      }
      case 'f' -> {
        return literal("false", Boolean.FALSE);
      }
      case 'n' -> {
        return literal("null", NULL);
      }
      default -> {
        return number();
      }
    }
  }

  /** Past an object's or array's opening: whether {@code close} follows at once (then past it). */
  private boolean empty(int close) {
    at++;
    ws();
    if (peek() == close) {
      at++;
      return true;
    }
    return false;
  }

  /** After a member or element: whether a comma (another follows) or {@code close} (the end). */
  private boolean another(int close) throws Malformed {
    ws();
    int n = next();
    if (n != ',' && n != close) {
      throw new Malformed();
    }
    return n == ',';
  }

  private Object literal(String word, Object value) throws Malformed {
    for (int i = 0; i < word.length(); i++) {
      expect(word.charAt(i));
    }
    return value;
  }

  /** {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}, its digits counted. */
  private Number number() throws Malformed {
    int start = at;
    if (peek() == '-') {
      at++;
    }
    int digits;
    if (peek() == '0') {
      at++;
      digits = 1;
    } else if (peek() >= '1' && peek() <= '9') {
      digits = digits();
    } else {
      throw new Malformed();
    }
    if (peek() == '.') {
      at++;
      digits += requiredDigits();
    }
    if (peek() == 'e' || peek() == 'E') {
      at++;
      if (peek() == '+' || peek() == '-') {
        at++;
      }
      digits += requiredDigits();
    }
    if (digits > maxDigits) {
      throw new Malformed();
    }
    return new Number(new String(cps, start, at - start));
  }

  private int requiredDigits() throws Malformed {
    int n = digits();
    if (n == 0) {
      throw new Malformed();
    }
    return n;
  }

  private int digits() {
    int n = 0;
    while (peek() >= '0' && peek() <= '9') {
      at++;
      n++;
    }
    return n;
  }

  private String string() throws Malformed {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (true) {
      int c = next();
      if (c == '"') {
        return sb.toString();
      }
      if (c < 0x20) {
        throw new Malformed();
      }
      if (c != '\\') {
        sb.appendCodePoint(c);
        continue;
      }
      int e = next();
      switch (e) {
        case '"', '\\', '/' -> sb.append((char) e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          int v = 0;
          for (int i = 0; i < 4; i++) {
            int h = hexDigit(next());
            v = v * 16 + h;
          }
          sb.append((char) v); // UTF-16 units: an escaped pair joins, a lone half stays
        }
        default -> throw new Malformed();
      }
    }
  }

  /** An ASCII hex digit's value (Character.digit would also take other scripts' digits). */
  private static int hexDigit(int c) throws Malformed {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')) {
      return (c | 0x20) - 'a' + 10;
    }
    throw new Malformed();
  }

  private void ws() {
    while (at < cps.length && (cps[at] == ' ' || cps[at] == '\t' || cps[at] == '\n' || cps[at] == '\r')) {
      at++;
    }
  }

  private int peek() {
    return at < cps.length ? cps[at] : -1;
  }

  private int next() throws Malformed {
    if (at >= cps.length) {
      throw new Malformed();
    }
    return cps[at++];
  }

  private void expect(int c) throws Malformed {
    if (next() != c) {
      throw new Malformed();
    }
  }

  /** Strict UTF-8 (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF. */
  public static Optional<int[]> decodeUtf8(byte[] b) {
    int[] out = new int[b.length];
    int n = 0;
    int i = 0;
    while (i < b.length) {
      int b0 = b[i] & 0xFF;
      int len;
      int cp;
      int min;
      if (b0 < 0x80) {
        out[n++] = b0;
        i++;
        continue;
      } else if (b0 >= 0xC2 && b0 <= 0xDF) {
        len = 2;
        cp = b0 & 0x1F;
        min = 0x80;
      } else if (b0 >= 0xE0 && b0 <= 0xEF) {
        len = 3;
        cp = b0 & 0x0F;
        min = 0x800;
      } else if (b0 >= 0xF0 && b0 <= 0xF4) {
        len = 4;
        cp = b0 & 0x07;
        min = 0x10000;
      } else {
        return Optional.empty();
      }
      if (i + len > b.length) {
        return Optional.empty();
      }
      for (int k = 1; k < len; k++) {
        int bk = b[i + k] & 0xFF;
        if ((bk & 0xC0) != 0x80) {
          return Optional.empty();
        }
        cp = (cp << 6) | (bk & 0x3F);
      }
      if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
        return Optional.empty();
      }
      out[n++] = cp;
      i += len;
    }
    return Optional.of(java.util.Arrays.copyOf(out, n));
  }
}
