package dev.ratelimit.core.model;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * JSON syntax exactly as RFC 8259 and Go's {@code encoding/json} (which protojson and ibc-go read
 * with) define it, checked before any lenient parser sees the text. Every JSON text the module
 * reads passes here first: packet data, acknowledgements, genesis files, governance messages.
 *
 * <p>Why not leave it to the parsers: protobuf-java's {@code JsonFormat} reads through Gson in
 * lenient mode, so it took comments, unquoted names, single quotes, {@code ;} and {@code =>} as
 * separators, a bare {@code NaN} as a string and anything after the value, and kept the last of
 * two equal keys; Jackson's text parser reads a {@code \}{@code u} escape digit by its low byte
 * only, so {@code \}{@code u00e}U+FD36 read as {@code \}{@code u00e6}. A chain reading Go's way
 * refuses all of these; two readings of one input are how a limit gets bypassed.
 *
 * <p>The rules: one value, with only space, tab, line feed and carriage return around and between
 * tokens (no byte-order mark); strings with no raw character below U+0020 and only the escapes
 * {@code \" \\ \/ \b \f \n \r \t} and {@code \}{@code u} with four ASCII hex digits; numbers by the
 * RFC's grammar ({@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}); the literals {@code
 * true}, {@code false}, {@code null}; no two keys of one object equal after unescaping (Go keeps
 * the last, protojson refuses; we refuse); at most {@value #MAX_DEPTH} nested arrays and objects.
 * An escaped lone surrogate is syntax like any other escape; the readers refuse it where text must
 * be valid Unicode.
 */
public final class JsonSyntax {
  /** Jackson's default limit; Go allows 10,000, but nothing the module reads nests beyond 4. */
  static final int MAX_DEPTH = 1000;

  private final String text;
  private int at;

  private JsonSyntax(String text) {
    this.text = text;
  }

  /**
   * The first way {@code text} breaks the rules above, as {@code line L column C: what} (both
   * from 1, columns in UTF-16 units), or empty when it is one valid JSON value.
   *
   * @throws NullPointerException if {@code text} is {@code null}
   */
  public static Optional<String> problem(String text) {
    Objects.requireNonNull(text, "text");
    JsonSyntax s = new JsonSyntax(text);
    try {
      s.document();
      return Optional.empty();
    } catch (Bad bad) {
      return Optional.of(s.where(bad.at) + ": " + bad.getMessage());
    }
  }

  /** A syntax error at {@code at}; carries no stack (it is the expected outcome of bad input). */
  private static final class Bad extends Exception {
    private static final long serialVersionUID = 1L;
    final int at;

    Bad(int at, String what) {
      super(what, null, false, false);
      this.at = at;
    }
  }

  /** The open arrays and objects; an object's frame holds the keys it has seen. */
  private static final class Frame {
    final Set<String> keys; // null for an array

    Frame(boolean object) {
      keys = object ? new HashSet<>() : null;
    }
  }

  private void document() throws Bad {
    ws();
    if (at == text.length()) {
      throw new Bad(at, "no JSON value (the text is empty or only white space)");
    }
    value();
    ws();
    if (at < text.length()) {
      throw new Bad(at, "unexpected " + describe(at) + " after the JSON value");
    }
  }

  /** One value; nesting is walked with an explicit stack, so no input can overflow the thread's. */
  private void value() throws Bad {
    Deque<Frame> open = new ArrayDeque<>();
    while (true) {
      // a value starts here
      int c = peek();
      if (c == '{' || c == '[') {
        if (open.size() == MAX_DEPTH) {
          throw new Bad(at, "arrays and objects nested deeper than " + MAX_DEPTH);
        }
        at++;
        Frame f = new Frame(c == '{');
        open.push(f);
        ws();
        if (peek() == (c == '{' ? '}' : ']')) {
          at++;
          open.pop();
        } else {
          if (f.keys != null) {
            key(f); // ends at the member's value
          }
          continue; // the first member's value
        }
      } else {
        scalar();
      }
      // after a value: close what ends here, or go on to the next member
      while (true) {
        if (open.isEmpty()) {
          return;
        }
        ws();
        Frame f = open.peek();
        int next = peek();
        if (next == ',') {
          at++;
          ws();
          if (f.keys != null) {
            key(f);
          }
          break;
        }
        char close = f.keys != null ? '}' : ']';
        if (next != close) {
          throw new Bad(at, "expected ',' or '" + close + "', got " + describe(at));
        }
        at++;
        open.pop();
      }
    }
  }

  /** An object member's key and its colon; the key must be new to the object. */
  private void key(Frame f) throws Bad {
    if (peek() != '"') {
      throw new Bad(at, "expected a string key, got " + describe(at));
    }
    int start = at;
    String key = string();
    if (!f.keys.add(key)) {
      throw new Bad(start, "duplicate key " + Texts.quote(key));
    }
    ws();
    if (peek() != ':') {
      throw new Bad(at, "expected ':' after a key, got " + describe(at));
    }
    at++;
    ws();
  }

  private void scalar() throws Bad {
    int c = peek();
    if (c == '"') {
      string();
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      number();
    } else if (!literal("true") && !literal("false") && !literal("null")) {
      throw new Bad(at, "expected a JSON value, got " + describe(at));
    }
  }

  private boolean literal(String word) {
    if (text.startsWith(word, at)) {
      at += word.length();
      return true;
    }
    return false;
  }

  /** A string literal from its opening quote; returns its text with escapes decoded. */
  private String string() throws Bad {
    at++; // the opening quote
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (at == text.length()) {
        throw new Bad(at, "unterminated string");
      }
      char c = text.charAt(at);
      if (c == '"') {
        at++;
        return sb.toString();
      }
      if (c < 0x20) {
        throw new Bad(at, "control character " + describe(at) + " in a string (escape it)");
      }
      if (c != '\\') {
        sb.append(c);
        at++;
        continue;
      }
      int escape = at;
      at++;
      char e = at < text.length() ? text.charAt(at) : 0;
      at++;
      switch (e) {
        case '"', '\\', '/' -> sb.append(e);
        case 'b' -> sb.append('\b');
        case 'f' -> sb.append('\f');
        case 'n' -> sb.append('\n');
        case 'r' -> sb.append('\r');
        case 't' -> sb.append('\t');
        case 'u' -> {
          int v = 0;
          for (int i = 0; i < 4; i++, at++) {
            int h = at < text.length() ? hexDigit(text.charAt(at)) : -1;
            if (h < 0) {
              throw new Bad(escape, "a \\u escape needs four hex digits (0-9, a-f, A-F)");
            }
            v = (v << 4) | h;
          }
          sb.append((char) v);
        }
        default -> throw new Bad(escape, "invalid escape in a string (\\\", \\\\, \\/, \\b,"
            + " \\f, \\n, \\r, \\t or \\u followed by four hex digits)");
      }
    }
  }

  private static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  private void number() throws Bad {
    int start = at;
    if (peek() == '-') {
      at++;
    }
    if (peek() == '0') {
      at++;
    } else if (!digits()) {
      throw new Bad(start, "a number needs digits");
    }
    if (peek() == '.') {
      at++;
      if (!digits()) {
        throw new Bad(start, "a number's fraction needs digits");
      }
    }
    if (peek() == 'e' || peek() == 'E') {
      at++;
      if (peek() == '+' || peek() == '-') {
        at++;
      }
      if (!digits()) {
        throw new Bad(start, "a number's exponent needs digits");
      }
    }
  }

  private boolean digits() {
    int start = at;
    while (peek() >= '0' && peek() <= '9') {
      at++;
    }
    return at > start;
  }

  private void ws() {
    while (at < text.length()) {
      char c = text.charAt(at);
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return;
      }
      at++;
    }
  }

  private int peek() {
    return at < text.length() ? text.charAt(at) : -1;
  }

  private String describe(int i) {
    if (i >= text.length()) {
      return "the end of the text";
    }
    int cp = text.codePointAt(i);
    if (cp >= 0x21 && cp <= 0x7E) {
      return "'" + (char) cp + "'";
    }
    return String.format(java.util.Locale.ROOT, "U+%04X", cp);
  }

  private String where(int i) {
    int line = 1;
    int lineStart = 0;
    for (int k = 0; k < i && k < text.length(); k++) {
      if (text.charAt(k) == '\n') {
        line++;
        lineStart = k + 1;
      }
    }
    return "line " + line + " column " + (i - lineStart + 1);
  }
}
