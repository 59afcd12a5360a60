package dev.ratelimit.cli.simulate;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Timestamps;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A JSON object read strictly: every read names the key, a value of the wrong type fails with the
 * key's path, and {@link #done()} fails on any key that was never read (an unknown key). A key
 * whose value is {@code null} is absent (a generator's {@code None}), as protobuf JSON reads it.
 */
final class StrictObject {
  private static final Pattern SIGNED_DIGITS = Pattern.compile("-?[0-9]+");
  private static final Pattern DIGITS = Pattern.compile("[0-9]+");
  private static final Pattern NO_OFFSET =
      Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?");

  private final JsonNode node;
  private final Where where;
  private final String path;
  private final Set<String> read = new LinkedHashSet<>();

  private StrictObject(JsonNode node, Where where, String path) {
    this.node = node;
    this.where = where;
    this.path = path;
  }

  /** Reads {@code node} as an object; {@code path} names it in errors ("" for the top). */
  static StrictObject of(JsonNode node, Where where, String path) {
    if (node == null || !node.isObject()) {
      throw where.malformed(label(path) + "expected an object, got " + kind(node));
    }
    return new StrictObject(node, where, path);
  }

  Where where() {
    return where;
  }

  /** The raw value (marked read), {@code null} included as a JSON null; Java null when absent. */
  JsonNode rawOrNull(String key) {
    read.add(key);
    return node.get(key);
  }

  /** Whether the key is there with the value {@code null} (which reads as absent). */
  boolean hasNull(String key) {
    JsonNode v = node.get(key);
    return v != null && v.isNull();
  }

  /** The keys, in the order written. */
  List<String> fieldNames() {
    List<String> out = new ArrayList<>();
    node.fieldNames().forEachRemaining(out::add);
    return out;
  }

  /** The raw value (marked read), or null when absent or {@code null}. */
  JsonNode raw(String key) {
    read.add(key);
    JsonNode v = node.get(key);
    return v == null || v.isNull() ? null : v;
  }

  /**
   * Fails at once on a key outside {@code allowed}, so a misspelt key is reported as unknown
   * rather than as a required key missing.
   */
  StrictObject allowOnly(java.util.Collection<String> allowed) {
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String k = names.next();
      if (!allowed.contains(k) && !node.get(k).isNull()) { // null: as if left out
        throw where.malformed(
            "unknown key \"" + k + "\"" + (path.isEmpty() ? "" : " in " + path) + "; expected "
                + String.join(", ", allowed));
      }
    }
    return this;
  }

  /** Fails on every key that was not read. */
  void done() {
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String k = names.next();
      if (!read.contains(k) && !node.get(k).isNull()) {
        throw where.malformed("unknown key \"" + k + "\"" + (path.isEmpty() ? "" : " in " + path));
      }
    }
  }

  MalformedScenarioException fail(String key, String problem) {
    return where.malformed(label(child(key)) + problem);
  }

  String child(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  // ---------------------------------------------------------------- typed reads

  String string(String key) {
    return optString(key).orElseThrow(() -> fail(key, "is required"));
  }

  Optional<String> optString(String key) {
    JsonNode v = raw(key);
    if (v == null) {
      return Optional.empty();
    }
    if (!v.isTextual()) {
      throw fail(key, "expected a string, got " + kind(v));
    }
    return Optional.of(v.textValue());
  }

  Optional<Boolean> optBoolean(String key) {
    JsonNode v = raw(key);
    if (v == null) {
      return Optional.empty();
    }
    if (!v.isBoolean()) {
      throw fail(key, "expected true or false, got " + kind(v));
    }
    return Optional.of(v.booleanValue());
  }

  StrictObject object(String key) {
    return optObject(key).orElseThrow(() -> fail(key, "is required"));
  }

  Optional<StrictObject> optObject(String key) {
    JsonNode v = raw(key);
    if (v == null) {
      return Optional.empty();
    }
    return Optional.of(of(v, where, child(key)));
  }

  List<JsonNode> array(String key) {
    return optArray(key).orElseThrow(() -> fail(key, "is required"));
  }

  Optional<List<JsonNode>> optArray(String key) {
    JsonNode v = raw(key);
    if (v == null) {
      return Optional.empty();
    }
    if (!v.isArray()) {
      throw fail(key, "expected a list, got " + kind(v));
    }
    List<JsonNode> out = new ArrayList<>();
    v.forEach(out::add);
    return Optional.of(out);
  }

  /**
   * An integer given as a JSON integer or a string of digits ({@code "48"} and {@code 48} are the
   * same); {@code signed} allows a leading minus.
   */
  Optional<BigInteger> optInteger(String key, boolean signed) {
    JsonNode v = raw(key);
    if (v == null) {
      return Optional.empty();
    }
    return Optional.of(integer(v, child(key), signed));
  }

  BigInteger integer(String key, boolean signed) {
    return optInteger(key, signed).orElseThrow(() -> fail(key, "is required"));
  }

  BigInteger integer(JsonNode v, String at, boolean signed) {
    BigInteger value;
    Optional<BigInteger> number = wholeNumber(v);
    if (number.isPresent()) {
      value = number.get();
    } else if (v.isTextual() && (signed ? SIGNED_DIGITS : DIGITS).matcher(v.textValue()).matches()
        && v.textValue().length() <= 100) {
      value = new BigInteger(v.textValue());
    } else {
      throw where.malformed(
          label(at) + "expected " + (signed ? "an" : "a non-negative") + " integer, got "
              + kind(v) + (v.isTextual() ? " \"" + v.textValue() + "\"" : ""));
    }
    if (!signed && value.signum() < 0) {
      throw where.malformed(label(at) + "expected a non-negative integer, got " + value);
    }
    return value;
  }

  /**
   * A JSON number that is a whole number: an integer, or a float such as {@code 0.0} or {@code
   * 4e1} (numbers compare numerically) of at most 100 digits, so {@code 1e999999999} is never
   * expanded.
   */
  static Optional<BigInteger> wholeNumber(JsonNode v) {
    if (v.isIntegralNumber()) {
      return Optional.of(v.bigIntegerValue());
    }
    if (v.isFloatingPointNumber()) {
      BigDecimal n = v.decimalValue().stripTrailingZeros();
      if (n.scale() <= 0 && n.precision() - n.scale() <= 100) {
        return Optional.of(n.toBigIntegerExact());
      }
    }
    return Optional.empty();
  }

  /**
   * An RFC 3339 time ({@code 2024-01-01T00:00:00Z}). Also taken, as the format's times are UTC: a
   * space for the {@code T} (RFC 3339 allows it; Python's {@code str(datetime)} writes it) and no
   * offset at all (a naive {@code isoformat()}), read as UTC.
   */
  Optional<Instant> optTime(String key) {
    return optString(key).map(text -> time(text, child(key)));
  }

  Instant time(String text, String at) {
    Instant t;
    try {
      // RFC 3339 allows a lower-case "t" and "z"
      String iso = text.toUpperCase(java.util.Locale.ROOT);
      if (iso.length() > 10 && iso.charAt(10) == ' ') {
        iso = iso.substring(0, 10) + 'T' + iso.substring(11);
      }
      t = NO_OFFSET.matcher(iso).matches()
          ? LocalDateTime.parse(iso).toInstant(ZoneOffset.UTC)
          : OffsetDateTime.parse(iso).toInstant();
    } catch (DateTimeParseException e) {
      throw where.malformed(
          label(at) + "expected an RFC 3339 time such as 2024-01-01T00:00:00Z, got \"" + text
              + "\"");
    }
    if (!isTimestamp(t)) {
      throw where.malformed(label(at) + "is outside " + FIRST_TIME + " to " + LAST_TIME);
    }
    return t;
  }

  /** The range of a protobuf Timestamp (block times, epoch start times, genesis export). */
  static final Instant FIRST_TIME = instant(Timestamps.MIN_VALUE);

  static final Instant LAST_TIME = instant(Timestamps.MAX_VALUE);

  static boolean isTimestamp(Instant t) {
    return Timestamps.isValid(t.getEpochSecond(), t.getNano());
  }

  private static Instant instant(Timestamp t) {
    return Instant.ofEpochSecond(t.getSeconds(), t.getNanos());
  }

  // ---------------------------------------------------------------- helpers

  static String label(String path) {
    return path.isEmpty() ? "" : path + ": ";
  }

  static String kind(JsonNode v) {
    if (v == null || v.isMissingNode()) {
      return "nothing";
    }
    if (v.isNull()) {
      return "null";
    }
    if (v.isTextual()) {
      return "a string";
    }
    if (v.isBoolean()) {
      return "a boolean";
    }
    if (v.isIntegralNumber()) {
      return "an integer";
    }
    if (v.isNumber()) {
      return "a number";
    }
    if (v.isArray()) {
      return "a list";
    }
    if (v.isObject()) {
      return "an object";
    }
    return v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
  }
}
