package dev.ratelimit.core.keeper;

import dev.ratelimit.core.store.StorageException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Order-preserving, self-delimiting key parts (SPEC §8), as FoundationDB's tuple layer writes
 * them: a string is its UTF-8 bytes with each 0x00 written as 0x00 0xFF, then a 0x00 terminator;
 * a number is 8 bytes big-endian (unsigned). So keys never collide, {@code channel-1} is not a
 * prefix of {@code channel-11}, and byte order is the canonical order (strings by unsigned UTF-8
 * bytes, then numbers numerically). Read front to back, a number whose first byte is 0xFF right
 * after a string's terminator reads like an escaped 0x00: no table puts a number after a string.
 */
final class KeyEncoding {
  private KeyEncoding() {}

  /** The encoded size of {@code s} as a key part if it is ASCII without NUL (else a lower bound). */
  static int stringSize(String s) {
    return s.length() + 1;
  }

  /** The encoded size of a number part. */
  static final int U64_SIZE = Long.BYTES;

  /** Builds one key: table id then parts. */
  static final class Builder {
    private byte[] buf;
    private int len;

    Builder(byte tableId) {
      this(tableId, 128);
    }

    /** A builder sized for a key of {@code capacity} bytes (it grows if needed). */
    Builder(byte tableId, int capacity) {
      buf = new byte[Math.max(1, capacity)];
      buf[len++] = tableId;
    }

    Builder string(String s) {
      byte[] utf8 = s.getBytes(StandardCharsets.UTF_8); // ASCII (the usual case): one array copy
      // a string has a NUL iff its UTF-8 has a 0x00 byte; the JDK's indexOf is vectorized
      int nuls = 0;
      if (s.indexOf('\0') >= 0) {
        for (byte b : utf8) {
          if (b == 0) {
            nuls++;
          }
        }
      }
      ensure(utf8.length + nuls + 1);
      if (nuls == 0) {
        System.arraycopy(utf8, 0, buf, len, utf8.length);
        len += utf8.length;
      } else {
        for (byte b : utf8) {
          buf[len++] = b;
          if (b == 0) {
            buf[len++] = (byte) 0xFF;
          }
        }
      }
      buf[len++] = 0;
      return this;
    }

    Builder u64(long v) {
      ensure(8);
      for (int shift = 56; shift >= 0; shift -= 8) {
        buf[len++] = (byte) (v >>> shift);
      }
      return this;
    }

    /** Fixed-width raw bytes (a hash): order-preserving among parts of the same width. */
    Builder fixed(byte[] raw) {
      ensure(raw.length);
      System.arraycopy(raw, 0, buf, len, raw.length);
      len += raw.length;
      return this;
    }

    byte[] build() {
      // an exactly sized buffer is handed over (the builder is not used after build)
      return len == buf.length ? buf : java.util.Arrays.copyOf(buf, len);
    }

    private void ensure(int more) {
      if (len + more > buf.length) {
        buf = java.util.Arrays.copyOf(buf, Math.max(2 * buf.length, len + more));
      }
    }
  }

  /** Reads the parts of a key back; any malformation is store corruption. */
  static final class Reader {
    private final byte[] key;
    private int pos;
    private int limit;

    Reader(byte[] key, byte expectedTable) {
      if (key.length == 0 || key[0] != expectedTable) {
        throw new StorageException("key does not belong to table " + expectedTable);
      }
      this.key = key;
      this.pos = 1;
      this.limit = key.length;
    }

    String string() {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      while (true) {
        if (pos >= limit) {
          throw new StorageException("unterminated string in key");
        }
        byte b = key[pos++];
        if (b == 0) {
          if (pos < limit && key[pos] == (byte) 0xFF) {
            out.write(0);
            pos++;
            continue;
          }
          return out.toString(StandardCharsets.UTF_8);
        }
        out.write(b);
      }
    }

    long u64() {
      if (pos + 8 > limit) {
        throw new StorageException("truncated number in key");
      }
      long v = 0;
      for (int i = 0; i < 8; i++) {
        v = (v << 8) | (key[pos++] & 0xFF);
      }
      return v;
    }

    byte[] fixed(int n) {
      if (pos + n > limit) {
        throw new StorageException("truncated fixed-width part in key");
      }
      byte[] out = java.util.Arrays.copyOfRange(key, pos, pos + n);
      pos += n;
      return out;
    }

    void end() {
      if (pos != limit) {
        throw new StorageException("trailing bytes in key");
      }
    }
  }
}
