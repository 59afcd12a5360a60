package dev.ratelimit.cli.query;

import dev.ratelimit.fuzz.ReferenceJson;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The query service's responses read from protobuf's wire format by hand
 * (protobuf.dev/programming-guides/encoding), with the messages of {@code query.proto} and {@code
 * ratelimit.proto} written out below, and the CLI's shape rule (its README, "Asking a running
 * node"): a known field must come with its declared wire type, and a record ({@code RateLimit},
 * {@code Path}, {@code Quota}, {@code Flow}, {@code WhitelistedAddressPair}) may have no field of
 * another number; a response may (a newer release's pagination, say).
 *
 * <p>Where the format leaves a reader free, or protobuf-java reads more than it, this reads as
 * protobuf-java does, since the CLI leaves the bytes to it: a varint of up to ten bytes keeps its
 * low 64 bits (a tag or a length its low 32; see {@link #varint(int, boolean)}), and messages and
 * groups nest at most 100 deep below the response.
 */
final class ReferenceProto {
  /** protobuf-java's default recursion limit. */
  private static final int MAX_NESTING = 100;

  enum Kind {
    STRING(2),
    UINT64(0),
    MESSAGE(2);

    final int wireType;

    Kind(int wireType) {
      this.wireType = wireType;
    }
  }

  record Field(Kind kind, Type type) {}

  /** A message type: its fields by number, and whether it is a record (no unknown fields). */
  record Type(boolean record, Map<Integer, Field> fields) {}

  private static Field string() {
    return new Field(Kind.STRING, null);
  }

  private static Field message(Type type) {
    return new Field(Kind.MESSAGE, type);
  }

  static final Type PATH = new Type(true, Map.of(1, string(), 2, string()));
  static final Type QUOTA =
      new Type(true, Map.of(1, string(), 2, string(), 3, new Field(Kind.UINT64, null)));
  static final Type FLOW = new Type(true, Map.of(1, string(), 2, string(), 3, string()));
  static final Type RATE_LIMIT =
      new Type(true, Map.of(1, message(PATH), 2, message(QUOTA), 3, message(FLOW)));
  static final Type PAIR = new Type(true, Map.of(1, string(), 2, string()));
  /**
   * {@code repeated RateLimit rate_limits = 1} (three responses), or {@code RateLimit rate_limit =
   * 1}.
   */
  static final Type LIMITS_RESPONSE = new Type(false, Map.of(1, message(RATE_LIMIT)));
  static final Type DENOMS_RESPONSE = new Type(false, Map.of(1, string()));
  static final Type PAIRS_RESPONSE = new Type(false, Map.of(1, message(PAIR)));

  /** Malformed bytes, or a shape the CLI refuses. */
  private static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused() {
      super(null, null, false, false);
    }
  }

  /**
   * A message as read: each known field's values by number, every occurrence in order (a {@code
   * String}, a {@code Long} or a nested {@code Read}).
   */
  record Read(Map<Integer, List<Object>> fields) {
    List<Object> all(int number) {
      return fields.getOrDefault(number, List.of());
    }

    /** A singular scalar: the last occurrence wins; absent is {@code orElse}. */
    Object last(int number, Object orElse) {
      List<Object> values = all(number);
      return values.isEmpty() ? orElse : values.get(values.size() - 1);
    }

    /** A singular message: its occurrences merged (as one message of their bytes in order). */
    Optional<Read> merged(int number) {
      List<Object> values = all(number);
      if (values.isEmpty()) {
        return Optional.empty();
      }
      Map<Integer, List<Object>> merged = new LinkedHashMap<>();
      for (Object v : values) {
        ((Read) v).fields.forEach((n, occurrences) ->
            merged.computeIfAbsent(n, k -> new ArrayList<>()).addAll(occurrences));
      }
      return Optional.of(new Read(merged));
    }
  }

  private final byte[] b;
  private int at;

  private ReferenceProto(byte[] b) {
    this.b = b;
  }

  /** {@code bytes} as a message of {@code type}, or empty when the CLI must refuse them. */
  static Optional<Read> read(byte[] bytes, Type type) {
    ReferenceProto r = new ReferenceProto(bytes);
    try {
      return Optional.of(r.message(bytes.length, type, 0));
    } catch (Refused e) {
      return Optional.empty();
    }
  }

  private Read message(int end, Type type, int depth) throws Refused {
    Map<Integer, List<Object>> fields = new LinkedHashMap<>();
    while (at < end) {
      int tag = (int) varint(end);
      int number = tag >>> 3;
      int wireType = tag & 7;
      if (number == 0 || wireType == 4) { // field 0 is no field; an end-group opened nowhere
        throw new Refused();
      }
      Field field = type.fields().get(number);
      if (field == null ? type.record() : field.kind().wireType != wireType) {
        throw new Refused(); // the shape rule
      }
      if (field == null) {
        skip(number, wireType, end, depth);
        continue;
      }
      Object value;
      if (field.kind() == Kind.UINT64) {
        value = varintValue(end);
      } else {
        int length = length(end);
        int stop = at + length;
        if (field.kind() == Kind.STRING) {
          byte[] text = java.util.Arrays.copyOfRange(b, at, stop);
          Optional<int[]> cps = ReferenceJson.decodeUtf8(text); // proto3 strings are valid UTF-8
          if (cps.isEmpty()) {
            throw new Refused();
          }
          value = new String(text, StandardCharsets.UTF_8);
        } else {
          if (depth >= MAX_NESTING) {
            throw new Refused();
          }
          value = message(stop, field.type(), depth + 1);
        }
        at = stop;
      }
      fields.computeIfAbsent(number, n -> new ArrayList<>()).add(value);
    }
    return new Read(fields);
  }

  /** Skips a field's value; a group to its own end-group. */
  private void skip(int number, int wireType, int end, int depth) throws Refused {
    switch (wireType) {
      case 0 -> varintValue(end);
      case 1 -> bytes(8, end);
      case 2 -> bytes(length(end), end);
      case 5 -> bytes(4, end);
      case 3 -> {
        if (depth >= MAX_NESTING) {
          throw new Refused();
        }
        while (true) {
          if (at >= end) {
            throw new Refused(); // no end-group
          }
          int tag = (int) varint(end);
          if (tag >>> 3 == 0) {
            throw new Refused();
          }
          if ((tag & 7) == 4) {
            if (tag >>> 3 != number) {
              throw new Refused();
            }
            return;
          }
          skip(tag >>> 3, tag & 7, end, depth + 1);
        }
      }
      default -> throw new Refused(); // 4 is handled by the caller; 6 and 7 are no wire type
    }
  }

  private void bytes(int n, int end) throws Refused {
    if (n > end - at) {
      throw new Refused();
    }
    at += n;
  }

  private int length(int end) throws Refused {
    int n = (int) varint(end);
    if (n < 0 || n > end - at) {
      throw new Refused();
    }
    return n;
  }

  /** A tag or a length (protobuf-java reads them as 32-bit varints). */
  private long varint(int end) throws Refused {
    return varint(end, false);
  }

  /** A varint field's value (wire type 0), read as protobuf-java reads 64-bit varints. */
  private long varintValue(int end) throws Refused {
    return varint(end, true);
  }

  /**
   * Up to ten bytes, seven bits each, least significant first; bits beyond 64 dropped. For a
   * 64-bit value protobuf-java also ends the varint at a tenth byte whose lowest bit is set,
   * whatever its high bit, where the format would refuse a tenth byte that continues (found by
   * this test; the CLI leaves the wire format to protobuf-java, as its README says).
   */
  private long varint(int end, boolean value64) throws Refused {
    long value = 0;
    for (int i = 0; i < 10; i++) {
      if (at >= end) {
        throw new Refused();
      }
      int next = b[at++] & 0xFF;
      value |= (long) (next & 0x7F) << (7 * i);
      if (next < 0x80 || (value64 && i == 9 && (next & 1) == 1)) {
        return value;
      }
    }
    throw new Refused();
  }
}
