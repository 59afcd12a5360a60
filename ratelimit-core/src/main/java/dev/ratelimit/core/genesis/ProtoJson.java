package dev.ratelimit.core.genesis;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import dev.ratelimit.core.model.JsonSyntax;
import dev.ratelimit.core.model.Texts;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The rules of Go's protojson (what a Cosmos SDK chain reads genesis and messages with) that
 * protobuf-java's {@code JsonFormat} does not keep, checked before {@code JsonFormat} parses:
 *
 * <ul>
 *   <li>the text is strict JSON ({@link JsonSyntax}): {@code JsonFormat} reads through Gson in
 *       lenient mode, which takes comments, unquoted names, trailing text and the last of two
 *       equal keys;
 *   <li>a string field takes a JSON string: {@code JsonFormat} reads the number {@code 10} (or
 *       {@code true}) into a string field as {@code "10"}. So an Int field (a percent, a flow),
 *       which SPEC §7 makes a decimal string, is never a JSON number;
 *   <li>an integer field given as a string holds a JSON number: {@code "24"}, {@code "1e1"}, not
 *       {@code "024"} or {@code "+24"}, which {@code JsonFormat} takes.
 * </ul>
 *
 * Everything else (unknown fields, ranges, timestamps) is left to {@code JsonFormat}. {@link
 * #print} is the one way the module writes protobuf JSON.
 */
public final class ProtoJson {
  /** RFC 8259's number grammar: what Go's protojson accepts inside an integer's string. */
  private static final Pattern JSON_NUMBER =
      Pattern.compile("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?");

  private static final int MAX_SHOWN = 64;

  private static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().preservingProtoFieldNames().alwaysPrintFieldsWithNoPresence();

  /**
   * JsonFormat's pretty form of an empty message (a line break and indentation between the
   * braces). A JSON string holds no raw line break, so this never matches inside one.
   */
  private static final Pattern EMPTY_OBJECT = Pattern.compile("\\{\n\\s*}");

  private ProtoJson() {}

  /**
   * The first value of {@code json} that breaks one of the rules above for a message of {@code
   * type}, named by its path ({@code rate_limits[0].quota.max_percent_send: ...}), or where {@code
   * json} is not strict JSON ({@code line 1 column 4: ...}); empty when there is none. A key that
   * names no field is a problem too, with its path and the fields there are, except {@code
   * "@type"} (of an {@code Any}: {@code JsonFormat} says what is wrong with it).
   */
  public static Optional<String> problem(String json, Descriptor type) {
    Objects.requireNonNull(json, "json");
    Objects.requireNonNull(type, "type");
    Optional<String> syntax = JsonSyntax.problem(json); // Gson, below, reads leniently
    if (syntax.isPresent()) {
      return syntax;
    }
    JsonElement root;
    try {
      root = JsonParser.parseString(json);
    } catch (JsonParseException | IllegalStateException notJson) { // not expected after the check
      return Optional.of("not JSON: " + notJson.getMessage());
    }
    return message(root, type, "");
  }

  private static Optional<String> message(JsonElement json, Descriptor type, String where) {
    if (!json.isJsonObject()) {
      return Optional.empty(); // not an object where a message goes: JsonFormat says so
    }
    for (Map.Entry<String, JsonElement> e : json.getAsJsonObject().entrySet()) {
      Optional<FieldDescriptor> known = field(type, e.getKey());
      if (known.isEmpty()) {
        if (e.getKey().equals("@type")) {
          continue; // an Any's type: JsonFormat says what is wrong with it
        }
        // JsonFormat would say it without the path: "Cannot find field: x in message y"
        return Optional.of((where.isEmpty() ? "" : where + ": ") + "unknown field "
            + Texts.quote(e.getKey(), MAX_SHOWN) + " (" + type.getFullName() + " has "
            + String.join(", ", type.getFields().stream().map(FieldDescriptor::getName).toList())
            + ")");
      }
      FieldDescriptor field = known.get();
      String at = where.isEmpty() ? e.getKey() : where + "." + e.getKey();
      Optional<String> problem;
      if (field.isRepeated() && e.getValue().isJsonArray()) {
        problem = Optional.empty();
        JsonArray items = e.getValue().getAsJsonArray();
        for (int i = 0; i < items.size() && problem.isEmpty(); i++) {
          problem = value(items.get(i), field, at + "[" + i + "]");
        }
      } else {
        problem = value(e.getValue(), field, at);
      }
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  private static Optional<String> value(JsonElement v, FieldDescriptor field, String at) {
    if (v.isJsonNull()) {
      return Optional.empty();
    }
    switch (field.getJavaType()) {
      case STRING -> {
        if (!(v.isJsonPrimitive() && v.getAsJsonPrimitive().isString())) {
          return Optional.of(at + ": expected a JSON string, got " + shown(v));
        }
      }
      case INT, LONG -> {
        if (v.isJsonPrimitive() && v.getAsJsonPrimitive().isString()
            && !JSON_NUMBER.matcher(v.getAsString()).matches()) {
          return Optional.of(at + ": not an integer: " + shown(v));
        }
      }
      case MESSAGE -> {
        // google.protobuf types have JSON forms of their own (Timestamp, Duration): JsonFormat's
        if (!field.getMessageType().getFile().getPackage().equals("google.protobuf")) {
          return message(v, field.getMessageType(), at);
        }
      }
      default -> { }
    }
    return Optional.empty();
  }

  /**
   * A value as an error shows it: a string quoted, escaped and cut (a genesis file may hold a
   * megabyte value, or control characters that would forge log lines), a number or a boolean as
   * written but cut, an object or an array by its kind.
   */
  private static String shown(JsonElement v) {
    if (v.isJsonObject()) {
      return "an object";
    }
    if (v.isJsonArray()) {
      return "an array";
    }
    JsonPrimitive p = v.getAsJsonPrimitive();
    if (p.isString()) {
      return Texts.quote(p.getAsString(), MAX_SHOWN);
    }
    String text = p.getAsString(); // JSON's grammar: nothing to escape in a number or a boolean
    return text.length() <= MAX_SHOWN
        ? text
        : text.substring(0, MAX_SHOWN) + "... (" + text.length() + " chars)";
  }

  /**
   * The field a protobuf JSON key names in {@code type}: by its proto name or its lowerCamelCase
   * JSON name, as protobuf JSON accepts both; empty for any other key, {@code "@type"} included.
   */
  public static Optional<FieldDescriptor> field(Descriptor type, String key) {
    FieldDescriptor byName = type.findFieldByName(key);
    if (byName != null) {
      return Optional.of(byName);
    }
    return type.getFields().stream().filter(f -> f.getJsonName().equals(key)).findFirst();
  }

  /**
   * Protobuf JSON as the module writes it (genesis export, query answers): proto field names
   * (snake_case), every field present (an empty list as {@code []}, a zero as {@code "0"}, as
   * the Cosmos SDK's export does), an empty message as {@code {}}; no trailing newline.
   */
  public static String print(MessageOrBuilder message) {
    try {
      return EMPTY_OBJECT.matcher(PRINTER.print(message)).replaceAll("{}");
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("cannot print " + message.getClass().getSimpleName(), e);
    }
  }
}
