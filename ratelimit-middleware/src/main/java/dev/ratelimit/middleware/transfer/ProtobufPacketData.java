package dev.ratelimit.middleware.transfer;

import dev.ratelimit.core.ErrorCode;
import dev.ratelimit.core.RateLimitException;
import dev.ratelimit.middleware.ibc.GoJson;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * ICS-20 packet data as the protobuf message {@code ibc.applications.transfer.v1
 * .FungibleTokenPacketData} (denom = 1, amount = 2, sender = 3, receiver = 4, memo = 5, all {@code
 * string}), the {@code application/x-protobuf} payload encoding.
 *
 * <p>Read from the wire by hand rather than with protobuf-java's {@code CodedInputStream}, which
 * keeps the low 32 bits of a longer tag or length varint and lets a 10-byte varint's last byte
 * overflow: a payload Go refuses would get a meaning here. Varints are read as Go's {@code
 * protowire} reads them (at most 10 bytes, the 10th at most 1; longer forms than needed are
 * accepted).
 */
final class ProtobufPacketData {
  private static final int LENGTH_DELIMITED = 2; // the wire type of a string
  private static final int MAX_VARINT_BYTES = 10;

  private final byte[] in;
  private int pos;

  private ProtobufPacketData(byte[] in) {
    this.in = in;
  }

  /**
   * Decodes the message strictly: refuses (code 9) a field number other than 1 to 5, a field of
   * another wire type than length-delimited, a field given twice, text that is not UTF-8, and cut
   * or malformed bytes. Fields may come in any order. As proto3 leaves empty strings off the wire,
   * a field not given is the empty string; then {@link PacketDataCodec#fromFields} applies the
   * field rules (a blank required field is code 9, a bad amount code 10).
   */
  static FungibleTokenPacketData decode(byte[] value) {
    return new ProtobufPacketData(value).read();
  }

  private FungibleTokenPacketData read() {
    int count = PacketDataCodec.KEYS.size();
    String[] fields = new String[count];
    while (pos < in.length) {
      int tagAt = pos;
      long tag = varint();
      long number = tag >>> 3;
      if (number < 1 || number > count) {
        throw refused(
            String.format(
                Locale.ROOT,
                "field number %s at byte %d is not one of FungibleTokenPacketData's (1 to %d)",
                Long.toUnsignedString(number),
                tagAt,
                count));
      }
      int index = (int) number - 1;
      String field = "field " + number + " (" + PacketDataCodec.KEYS.get(index) + ")";
      int wireType = (int) (tag & 7);
      if (wireType != LENGTH_DELIMITED) {
        throw refused(
            String.format(
                Locale.ROOT,
                "%s at byte %d has wire type %d, not %d (length-delimited)",
                field,
                tagAt,
                wireType,
                LENGTH_DELIMITED));
      }
      if (fields[index] != null) {
        throw refused(field + " is given twice (again at byte " + tagAt + ")");
      }
      int lengthAt = pos;
      long length = varint();
      if (Long.compareUnsigned(length, in.length - pos) > 0) {
        throw refused(
            String.format(
                Locale.ROOT,
                "%s length %s at byte %d runs past the end of the %d-byte value",
                field,
                Long.toUnsignedString(length),
                lengthAt,
                in.length));
      }
      fields[index] = GoJson.utf8(in, pos, (int) length,
          ErrorCode.INVALID_PACKET_DATA, field + " is ");
      pos += (int) length;
    }
    for (int i = 0; i < count; i++) {
      if (fields[i] == null) {
        fields[i] = ""; // proto3: not given and empty are the same
      }
    }
    return PacketDataCodec.fromFields(fields);
  }

  /** A base-128 varint from {@link #pos}, as Go's {@code protowire.ConsumeVarint} reads it. */
  private long varint() {
    int start = pos;
    long value = 0;
    for (int i = 0; i < MAX_VARINT_BYTES; i++) {
      if (pos >= in.length) {
        throw refused("the varint at byte " + start + " is cut off by the end");
      }
      int b = in[pos++] & 0xff;
      if (i == MAX_VARINT_BYTES - 1 && b > 1) {
        throw refused("the varint at byte " + start + " does not fit 64 bits");
      }
      value |= (long) (b & 0x7f) << (7 * i);
      if (b < 0x80) {
        return value;
      }
    }
    throw new AssertionError("unreachable: the 10th byte ends the varint or is refused");
  }

  private static RateLimitException refused(String message) {
    return new RateLimitException(ErrorCode.INVALID_PACKET_DATA, message);
  }

  /**
   * Encodes deterministically: the fields in number order, each once, the empty memo left out (as
   * proto3 and ibc-go's {@code proto.Marshal} write it).
   *
   * @throws NullPointerException if {@code data} is {@code null}
   */
  static byte[] encode(FungibleTokenPacketData data) {
    String[] fields = {
      data.denom(), data.amount().toString(), data.sender(), data.receiver(), data.memo()
    };
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < fields.length; i++) {
      if (fields[i].isEmpty()) {
        continue;
      }
      byte[] utf8 = fields[i].getBytes(StandardCharsets.UTF_8);
      writeVarint(out, (long) (i + 1) << 3 | LENGTH_DELIMITED);
      writeVarint(out, utf8.length);
      out.write(utf8, 0, utf8.length);
    }
    return out.toByteArray();
  }

  private static void writeVarint(ByteArrayOutputStream out, long value) {
    long v = value;
    while ((v & ~0x7fL) != 0) {
      out.write((int) (v & 0x7f) | 0x80);
      v >>>= 7;
    }
    out.write((int) v);
  }
}
