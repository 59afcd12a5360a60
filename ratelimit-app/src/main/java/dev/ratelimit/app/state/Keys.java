package dev.ratelimit.app.state;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Store keys of the example chain's modules, encoded like the rate-limit module's own keys (SPEC
 * §8): a module prefix, a one-byte table id, then the parts. A string is its UTF-8 bytes with each
 * {@code 0x00} written as {@code 0x00 0xFF}, then a {@code 0x00} terminator; a number is 8 bytes
 * big-endian (unsigned order). So keys never collide, {@code channel-1} is not a prefix of {@code
 * channel-11}, and a prefix scan over leading parts iterates in their logical order.
 *
 * <pre>{@code
 * byte[] key = Keys.of(PREFIX, BALANCE).string(address).string(denom).build();
 * }</pre>
 */
public final class Keys {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream(48);

  private Keys(byte[] modulePrefix, int table) {
    out.writeBytes(modulePrefix);
    out.write(table);
  }

  /**
   * A key of {@code table} under {@code modulePrefix}.
   *
   * @throws IllegalArgumentException if {@code table} is not in [0, 255]
   */
  public static Keys of(byte[] modulePrefix, int table) {
    Objects.requireNonNull(modulePrefix, "modulePrefix");
    if (table < 0 || table > 0xFF) {
      throw new IllegalArgumentException("table id must be in [0, 255], got " + table);
    }
    return new Keys(modulePrefix, table);
  }

  /** Appends a self-delimiting, order-preserving string. */
  public Keys string(String part) {
    for (byte b : Objects.requireNonNull(part, "part").getBytes(StandardCharsets.UTF_8)) {
      out.write(b);
      if (b == 0) {
        out.write(0xFF);
      }
    }
    out.write(0);
    return this;
  }

  /** Appends an unsigned 64-bit number, big-endian. */
  public Keys u64(long part) {
    for (int shift = 56; shift >= 0; shift -= 8) {
      out.write((int) (part >>> shift));
    }
    return this;
  }

  public byte[] build() {
    return out.toByteArray();
  }

  /** Reads the parts of a key back, after its module prefix and table id. */
  public static Reader reader(byte[] key, int headerLength) {
    return new Reader(key, headerLength);
  }

  /**
   * Sequential reader of key parts, front to back; the mirror of the builder. A number whose first
   * byte is 0xFF right after a string reads like an escaped 0x00 ({@code 00 FF}): this app only
   * reads back keys whose strings are followed by strings or nothing, or numbers alone.
   */
  public static final class Reader {
    private final byte[] key;
    private int pos;

    private Reader(byte[] key, int pos) {
      this.key = Objects.requireNonNull(key, "key");
      this.pos = pos;
    }

    public String string() {
      ByteArrayOutputStream s = new ByteArrayOutputStream();
      while (true) {
        if (pos >= key.length) {
          throw new IllegalArgumentException("unterminated string in key");
        }
        byte b = key[pos++];
        if (b != 0) {
          s.write(b);
        } else if (pos < key.length && key[pos] == (byte) 0xFF) {
          s.write(0);
          pos++;
        } else {
          return s.toString(StandardCharsets.UTF_8);
        }
      }
    }

    public long u64() {
      if (pos + 8 > key.length) {
        throw new IllegalArgumentException("key too short for a 64-bit number");
      }
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v = (v << 8) | (key[pos++] & 0xFF);
      }
      return v;
    }
  }
}
