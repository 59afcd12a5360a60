package dev.ratelimit.fuzz;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An independent reading of {@code ibc.applications.transfer.v1.FungibleTokenPacketData} on the
 * protobuf wire (protobuf's "Encoding" guide: records of a varint tag, field number times 8 plus
 * wire type, and a payload; a string is wire type 2, a varint length and the bytes), with the
 * strictness {@code Ics20PayloadCodec}'s javadoc documents: only fields 1 to 5, only wire type 2,
 * each at most once, UTF-8 text; a varint is at most 10 bytes and fits 64 bits, a longer form than
 * needed is taken. Shares no code with {@code ProtobufPacketData}.
 */
final class ReferenceProtobuf {
  static final List<String> FIELDS = List.of("denom", "amount", "sender", "receiver", "memo");

  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

  private final byte[] in;
  private int at;

  private ReferenceProtobuf(byte[] in) {
    this.in = in;
  }

  /**
   * Every field by name, a field not on the wire as {@code ""} (proto3 does not tell them apart),
   * or empty when the bytes break a rule.
   */
  static Optional<Map<String, String>> read(byte[] value) {
    ReferenceProtobuf r = new ReferenceProtobuf(value);
    Map<String, String> fields = new LinkedHashMap<>();
    while (r.at < value.length) {
      BigInteger tag = r.varint();
      if (tag == null) {
        return Optional.empty();
      }
      BigInteger number = tag.shiftRight(3);
      int wireType = tag.intValue() & 7;
      if (number.signum() == 0 || number.compareTo(BigInteger.valueOf(FIELDS.size())) > 0
          || wireType != 2) {
        return Optional.empty();
      }
      String name = FIELDS.get(number.intValue() - 1);
      BigInteger length = r.varint();
      if (length == null || fields.containsKey(name)
          || length.compareTo(BigInteger.valueOf(value.length - r.at)) > 0) {
        return Optional.empty();
      }
      byte[] text = java.util.Arrays.copyOfRange(value, r.at, r.at + length.intValue());
      Optional<int[]> cps = ReferenceJson.decodeUtf8(text);
      if (cps.isEmpty()) {
        return Optional.empty();
      }
      fields.put(name, new String(cps.get(), 0, cps.get().length));
      r.at += length.intValue();
    }
    for (String name : FIELDS) {
      fields.putIfAbsent(name, "");
    }
    return Optional.of(fields);
  }

  /** A base-128 varint, low groups first; null when cut, longer than 10 bytes or over 64 bits. */
  private BigInteger varint() {
    BigInteger v = BigInteger.ZERO;
    for (int i = 0; i < 10; i++) {
      if (at >= in.length) {
        return null;
      }
      int b = in[at++] & 0xff;
      v = v.or(BigInteger.valueOf(b & 0x7f).shiftLeft(7 * i));
      if (b < 0x80) {
        return v.compareTo(TWO_TO_64) < 0 ? v : null;
      }
    }
    return null;
  }

  /** As proto3 writes the message: fields in number order, an empty one left out. */
  static byte[] write(String... texts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < texts.length; i++) {
      byte[] utf8 = texts[i].getBytes(StandardCharsets.UTF_8);
      if (utf8.length > 0) {
        writeVarint(out, (i + 1) * 8L + 2);
        writeVarint(out, utf8.length);
        out.writeBytes(utf8);
      }
    }
    return out.toByteArray();
  }

  /** A non-negative {@code value} as a varint: 7 bits a byte, low groups first. */
  private static void writeVarint(ByteArrayOutputStream out, long value) {
    long v = value;
    while (v >= 0x80) {
      out.write((int) (v & 0x7f) | 0x80);
      v >>= 7;
    }
    out.write((int) v);
  }
}
