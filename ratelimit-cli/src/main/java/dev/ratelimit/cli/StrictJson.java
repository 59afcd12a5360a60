package dev.ratelimit.cli;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.ratelimit.core.model.JsonSyntax;
import dev.ratelimit.core.model.Texts;
import java.util.Optional;

/**
 * Reads the JSON files the command line takes (scenarios, genesis) strictly: valid UTF-8, one
 * value and nothing after it, no comments, no duplicate keys: Go's syntax ({@link JsonSyntax}),
 * then Jackson builds the tree. A lenient reader (protobuf's own JSON parser accepts trailing
 * values, comments and unquoted names) would call a file valid that a chain rejects. Reasons are
 * worded for one line, with the line and column.
 */
public final class StrictJson {
  /** The reader; numbers with a fraction are read exactly. */
  private static final ObjectMapper MAPPER =
      JsonMapper.builder()
          .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
          .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
          .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
          .disable(JsonParser.Feature.ALLOW_COMMENTS)
          .build();

  /** Why a file's content is not strict JSON. */
  public static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String reason) {
      super(reason);
    }
  }

  private StrictJson() {}

  /**
   * The text of {@code content}, which must be valid UTF-8, without a leading byte-order mark
   * (which RFC 8259 lets a JSON reader ignore, and some editors write).
   */
  public static String utf8(byte[] content) throws Malformed {
    String text = strictUtf8(content).orElseThrow(() -> new Malformed("not valid UTF-8"));
    return text.startsWith("\uFEFF") ? text.substring(1) : text;
  }

  /**
   * The text of {@code bytes} if they are valid UTF-8 ({@link Texts#strictUtf8}: where {@code new
   * String(bytes, UTF_8)} would replace what is not), as it is.
   */
  public static Optional<String> strictUtf8(byte[] bytes) {
    try {
      return Optional.of(Texts.strictUtf8(bytes, 0, bytes.length));
    } catch (Texts.MalformedUtf8Exception e) {
      return Optional.empty();
    }
  }

  /** The one JSON value {@code text} holds. */
  public static JsonNode parse(String text) throws Malformed {
    if (text.isBlank()) {
      throw new Malformed("bad JSON: the file is empty");
    }
    Optional<String> syntax = JsonSyntax.problem(text); // Go's syntax, which Jackson's bends
    if (syntax.isPresent()) {
      throw new Malformed("bad JSON at " + syntax.get());
    }
    try {
      return MAPPER.readTree(text);
    } catch (JsonProcessingException e) {
      String loc =
          e.getLocation() == null
              ? ""
              : " at line " + e.getLocation().getLineNr() + " column "
                  + e.getLocation().getColumnNr();
      String why = e.getOriginalMessage();
      int cut = why.indexOf(" (start marker at"); // Jackson's tails name its own classes
      cut = cut > 0 ? cut : why.indexOf(" (bound as");
      throw new Malformed("bad JSON" + loc + ": " + (cut > 0 ? why.substring(0, cut) : why));
    }
  }
}
