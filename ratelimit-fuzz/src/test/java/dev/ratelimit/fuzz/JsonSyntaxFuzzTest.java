package dev.ratelimit.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.ratelimit.core.model.JsonSyntax;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The one JSON syntax check ({@link JsonSyntax}) against Jackson's byte parser in its strict
 * defaults with duplicate detection, which reads a {@code \}{@code u} escape's digits correctly
 * (its text parser does not). They must agree on every valid UTF-8 input.
 */
class JsonSyntaxFuzzTest {
  private static final JsonFactory STRICT =
      JsonFactory.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

  @FuzzTest(maxDuration = "5m")
  void problem_agreesWithJacksonsByteParser(byte[] input) {
    Optional<int[]> cps = ReferenceJson.decodeUtf8(input);
    if (cps.isEmpty()) {
      return; // the readers decode UTF-8 strictly before they look at the syntax
    }
    String text = new String(input, StandardCharsets.UTF_8);
    Optional<String> problem = JsonSyntax.problem(text);
    problem.ifPresent(p -> assertTrue(p.matches("line \\d+ column \\d+: .+"), p));

    Boolean jackson = jacksonAccepts(input, text);
    if (jackson != null) {
      assertEquals(jackson, problem.isEmpty(), () -> "JsonSyntax says " + problem);
    }
  }

  /** Whether Jackson reads one value and nothing after it; null where its own limits decide. */
  private static Boolean jacksonAccepts(byte[] utf8, String text) {
    // Jackson guesses UTF-16 or UTF-32 from zero bytes and skips a byte-order mark; both make the
    // text invalid JSON (a raw U+0000 is allowed nowhere, U+FEFF is no white space)
    if (text.indexOf('\u0000') >= 0 || text.startsWith("\uFEFF")) {
      return false;
    }
    try (JsonParser p = STRICT.createParser(utf8)) {
      if (p.nextToken() == null) {
        return false;
      }
      p.skipChildren();
      return p.nextToken() == null;
    } catch (StreamConstraintsException e) {
      return e.getMessage().contains("nesting depth") ? false : null; // a number over 1000 digits
    } catch (IOException e) {
      // Jackson refuses an escaped lone surrogate in a name (not in a value); JSON's grammar, and
      // Go, take it: which one a reader then refuses is the caller's rule, not the syntax
      String m = e.getMessage();
      return (m.contains("surrogate") && m.contains(" in field name")) ? null : false;
    }
  }
}
