package dev.ratelimit.core.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonSyntaxTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "{}",
        "[]",
        " \t\r\n{\"a\": [1, -0, 0.5, -1.25e+10, 2E-3, 10e5], \"b\": {\"c\": null}} \n",
        "\"a string alone\"",
        "0",
        "true",
        "[false, null, {}, [], \"\"]",
        "{\"\\u0061\": 1, \"b\": 2}",
        "\"\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\uD83D\\uDE00 \\ud800 é 😀\"",
        "{\"a\": 1, \"A\": 2, \"a \": 3}"
      })
  void validJson_hasNoProblem(String text) {
    assertEquals(Optional.empty(), JsonSyntax.problem(text));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "|line 1 column 1: no JSON value (the text is empty or only white space)",
        " \n |line 2 column 2: no JSON value (the text is empty or only white space)",
        "{} x|line 1 column 4: unexpected 'x' after the JSON value",
        "{}{}|line 1 column 3: unexpected '{' after the JSON value",
        "\uFEFF{}|line 1 column 1: expected a JSON value, got U+FEFF",
        "{}\u00a0|line 1 column 3: unexpected U+00A0 after the JSON value",
        "// c\n{}|line 1 column 1: expected a JSON value, got '/'",
        "{a: 1}|line 1 column 2: expected a string key, got 'a'",
        "{'a': 1}|line 1 column 2: expected a string key, got '''",
        "{\"a\" = 1}|line 1 column 6: expected ':' after a key, got '='",
        "{\"a\": 1,}|line 1 column 9: expected a string key, got '}'",
        "[1,]|line 1 column 4: expected a JSON value, got ']'",
        "[1; 2]|line 1 column 3: expected ',' or ']', got ';'",
        "{\"a\": 1 \"b\": 2}|line 1 column 9: expected ',' or '}', got '\"'",
        "[1|line 1 column 3: expected ',' or ']', got the end of the text",
        "{\"a\": 1, \"a\": 2}|line 1 column 10: duplicate key \"a\"",
        "{\"a\": {\"a\": 1}, \"b\": [{\"a\": 1}, {\"a\": 2}], \"\\u0061\": 0}|line 1 column 44: duplicate key \"a\"",
        "[NaN]|line 1 column 2: expected a JSON value, got 'N'",
        "[tru]|line 1 column 2: expected a JSON value, got 't'",
        "[True]|line 1 column 2: expected a JSON value, got 'T'",
        "[01]|line 1 column 3: expected ',' or ']', got '1'",
        "[+1]|line 1 column 2: expected a JSON value, got '+'",
        "[-]|line 1 column 2: a number needs digits",
        "[1.]|line 1 column 2: a number's fraction needs digits",
        "[.5]|line 1 column 2: expected a JSON value, got '.'",
        "[1e]|line 1 column 2: a number's exponent needs digits",
        "[0x10]|line 1 column 3: expected ',' or ']', got 'x'",
        "\"abc|line 1 column 5: unterminated string",
        "\"a\tb\"|line 1 column 3: control character U+0009 in a string (escape it)",
        "\"a\\'b\"|line 1 column 3: invalid escape in a string",
        "\"a\\xb\"|line 1 column 3: invalid escape in a string",
        "\"\\u00e\"|line 1 column 2: a \\u escape needs four hex digits (0-9, a-f, A-F)",
        "\"\\u00e\uFD36\"|line 1 column 2: a \\u escape needs four hex digits (0-9, a-f, A-F)",
        "\"\\u00\u0661\u0661\"|line 1 column 2: a \\u escape needs four hex digits (0-9, a-f, A-F)",
        "{\n  \"a\": 1,\n  \"a\": 2\n}|line 3 column 3: duplicate key \"a\""
      })
  void invalidJson_isNamedWithLineAndColumn(String testCase) {
    String[] parts = testCase.split("\\|", 2);
    String problem = JsonSyntax.problem(parts[0]).orElseThrow();
    // the whole message where the case gives it whole, else its start (position and kind)
    assertEquals(parts[1], problem.substring(0, Math.min(problem.length(), parts[1].length())));
  }

  @Test
  void nesting_upToTheLimit_isJson_oneMoreIsNot() {
    int max = JsonSyntax.MAX_DEPTH;
    assertEquals(Optional.empty(), JsonSyntax.problem("[".repeat(max) + "]".repeat(max)));
    assertEquals(
        Optional.of("line 1 column " + (max + 1) + ": arrays and objects nested deeper than " + max),
        JsonSyntax.problem("[".repeat(max + 1) + "]".repeat(max + 1)));
    // objects count too, and a huge depth is answered without recursion
    assertEquals(
        Optional.of("line 1 column " + (6 * max + 1) + ": arrays and objects nested deeper than " + max),
        JsonSyntax.problem("{\"a\": ".repeat(1_000_000)));
  }
}
