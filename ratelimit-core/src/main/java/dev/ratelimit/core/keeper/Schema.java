package dev.ratelimit.core.keeper;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.PacketDirection;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.rules.QuotaRules;
import dev.ratelimit.core.store.StorageException;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Arrays;

/**
 * Every table of the module's store, in one place. Table ids are never reused (01-04 held the
 * first layout's quota, flow and pending rows). Keys start with the table id, then order-preserving
 * parts ({@link KeyEncoding}) or a fixed-width path hash.
 *
 * <p>Two kinds of rows. What governance writes and lists is keyed canonically: the rate limit
 * index by (channel_or_client_id, denom), the blacklist by denom, the whitelist by (sender,
 * receiver), so listings iterate in canonical order. What every packet touches is keyed short:
 * the limit row (quota, blacklist bit, flow in one value) and the pending markers are keyed by
 * {@link PathHash} (the first 16 bytes of SHA-256 over the path), because each key byte a packet
 * writes costs gas (30 per byte in the Cosmos SDK schedule) and the denom alone is 68 bytes for
 * an {@code ibc/} voucher. One path's markers are one 17-byte prefix; listings of markers resolve
 * the hash through the index (or, for a path without a rate limit, the marker-path table) and
 * sort canonically. docs/PERFORMANCE.md prices this layout against the first one.
 *
 * <pre>
 * id  table            key                                  value
 * 05  blacklist        denom                                empty
 * 06  whitelist        sender, receiver                     empty
 * 07  hour_epoch       (none)                               HourEpoch (protobuf)
 * 08  reset_schedule   duration_hours(u64), channel, denom  empty
 * 09  limit_index      channel, denom                       empty
 * 0A  limit            path hash (16 bytes)                 LimitRow (quota, blacklist bit, flow)
 * 0B  pending_send     path hash, sequence(u64)             empty
 * 0C  pending_recv     path hash, sequence(u64)             empty
 * 0D  marker_path      path hash                            channel, denom (key-encoded)
 * 0E  limit_by_denom   denom, channel                       empty
 * 0F  layout           (none)                               layout version (u64), written by InitGenesis
 * </pre>
 *
 * <p>0D names the markers of a path without a rate limit (imported by genesis or set through the
 * keeper API); 0E lets a blacklist change find the limits of its denom.
 */
final class Schema {
  private Schema() {}

  /** The marker value of set-like tables. */
  enum Unit {
    INSTANCE
  }

  static final Table<String, Unit> BLACKLIST =
      new Table<>(0x05, "blacklist", stringKeys(), unitValues());
  static final Table<WhitelistedAddressPair, Unit> WHITELIST =
      new Table<>(0x06, "whitelist", whitelistKeys(), unitValues());
  static final Table<Unit, HourEpoch> HOUR_EPOCH =
      new Table<>(0x07, "hour_epoch", unitKeys(), epochValues());
  static final Table<ScheduledReset, Unit> RESET_SCHEDULE =
      new Table<>(0x08, "reset_schedule", scheduleKeys(), unitValues());
  static final Table<Path, Unit> LIMIT_INDEX =
      new Table<>(0x09, "limit_index", pathKeys(), unitValues());
  static final Table<Path, LimitRow> LIMIT =
      new Table<>(0x0A, "limit", hashedPathKeys(), limitValues());
  static final Table<Marker, Unit> PENDING_SEND =
      new Table<>(0x0B, "pending_send", markerKeys(), unitValues());
  static final Table<Marker, Unit> PENDING_RECV =
      new Table<>(0x0C, "pending_recv", markerKeys(), unitValues());
  static final Table<Path, Path> MARKER_PATH =
      new Table<>(0x0D, "marker_path", hashedPathKeys(), pathValues());
  static final Table<Path, Unit> LIMIT_BY_DENOM =
      new Table<>(0x0E, "limit_by_denom", denomFirstPathKeys(), unitValues());
  static final Table<Unit, Long> LAYOUT = new Table<>(0x0F, "layout", unitKeys(), u64Values());
  /**
   * A receive the app acknowledged through the middleware while its onRecvPacket still ran: kept
   * in the store, not in a field, so that it rolls back with the branch that wrote the ack.
   * Written and removed within the receive's transaction, so no committed state holds it; its
   * delete reaches the block's write batch like any other (a settled marker's does too).
   */
  static final Table<Marker, Unit> SETTLED_WHILE_RECEIVING =
      new Table<>(0x10, "settled_while_receiving", markerKeys(), unitValues());

  /** This layout's version: 1 was the first layout (tables 01-08), 2 this one. */
  static final long LAYOUT_VERSION = 2;

  /** The table ids of the first layout that this one retired: data under them is version 1's. */
  static final int FIRST_RETIRED_TABLE = 0x01;

  static final int LAST_RETIRED_TABLE = 0x04;

  /** An entry of the reset schedule: limits grouped by window length, so a rollover reads only
   * the groups whose window ends. */
  record ScheduledReset(long durationHours, Path path) {}

  /**
   * A rate limit's per-packet row: the quota, whether its denom is blacklisted (kept here so a
   * packet on a limited path needs no blacklist lookup; the keeper rewrites the bit when the
   * blacklist changes) and the flow.
   */
  record LimitRow(Quota quota, boolean blacklisted, Flow flow) {
    LimitRow withFlow(Flow f) {
      return new LimitRow(quota, blacklisted, f);
    }

    LimitRow withBlacklisted(boolean b) {
      return new LimitRow(quota, b, flow);
    }
  }

  /** A pending marker's key: its path's hash and the packet sequence. */
  record Marker(byte[] pathHash, long sequence) {
    static Marker of(PendingPacket p) {
      return of(p.channelOrClientId(), p.denom(), p.sequence());
    }

    static Marker of(String channelOrClientId, String denom, long sequence) {
      return new Marker(PathHash.of(channelOrClientId, denom), sequence);
    }
  }

  /** {@code LIMIT.key(new Path(denom, channel))} for values validated already (the hot path). */
  static byte[] limitKey(String channelOrClientId, String denom) {
    return PathHash.prefixed(LIMIT.id(), channelOrClientId, denom);
  }

  /** The 17-byte key prefix of one path's markers in {@code table}. */
  static byte[] markerPrefix(Table<Marker, Unit> table, Path path) {
    return PathHash.prefixed(table.id(), path.channelOrClientId(), path.denom());
  }

  private static Table.KeyCodec<Path> denomFirstPathKeys() {
    return new Table.KeyCodec<>() {
      @Override
      public void write(Path p, KeyEncoding.Builder out) {
        out.string(p.denom()).string(p.channelOrClientId());
      }

      @Override
      public int size(Path p) {
        return KeyEncoding.stringSize(p.denom()) + KeyEncoding.stringSize(p.channelOrClientId());
      }

      @Override
      public Path read(KeyEncoding.Reader in) {
        String denom = in.string();
        return path(denom, in.string());
      }
    };
  }

  private static Table.KeyCodec<Path> hashedPathKeys() {
    return new Table.KeyCodec<>() {
      @Override
      public void write(Path p, KeyEncoding.Builder out) {
        out.fixed(PathHash.of(p.channelOrClientId(), p.denom()));
      }

      @Override
      public int size(Path p) {
        return PathHash.LENGTH;
      }

      @Override
      public Path read(KeyEncoding.Reader in) {
        throw new StorageException("a hashed path key cannot be read back; list the index");
      }
    };
  }

  private static Table.KeyCodec<Marker> markerKeys() {
    return new Table.KeyCodec<>() {
      @Override
      public void write(Marker m, KeyEncoding.Builder out) {
        out.fixed(m.pathHash()).u64(m.sequence());
      }

      @Override
      public int size(Marker m) {
        return PathHash.LENGTH + KeyEncoding.U64_SIZE;
      }

      @Override
      public Marker read(KeyEncoding.Reader in) {
        return new Marker(in.fixed(PathHash.LENGTH), in.u64());
      }
    };
  }

  private static Table.ValueCodec<Path> pathValues() {
    return new Table.ValueCodec<>() {
      @Override
      public byte[] encode(Path p) {
        byte[] k = new KeyEncoding.Builder((byte) 0)
            .string(p.channelOrClientId()).string(p.denom()).build();
        return Arrays.copyOfRange(k, 1, k.length);
      }

      @Override
      public Path decode(byte[] bytes) {
        byte[] k = new byte[bytes.length + 1];
        System.arraycopy(bytes, 0, k, 1, bytes.length);
        KeyEncoding.Reader r = new KeyEncoding.Reader(k, (byte) 0);
        String channel = r.string();
        Path p = path(r.string(), channel);
        r.end();
        return p;
      }
    };
  }

  private static Table.KeyCodec<Path> pathKeys() {
    return new Table.KeyCodec<>() {
      @Override
      public void write(Path p, KeyEncoding.Builder out) {
        out.string(p.channelOrClientId()).string(p.denom());
      }

      @Override
      public int size(Path p) {
        return KeyEncoding.stringSize(p.channelOrClientId()) + KeyEncoding.stringSize(p.denom());
      }

      @Override
      public Path read(KeyEncoding.Reader in) {
        String channel = in.string();
        return path(in.string(), channel);
      }
    };
  }

  private static Table.KeyCodec<String> stringKeys() {
    return new Table.KeyCodec<>() {
      @Override
      public void write(String s, KeyEncoding.Builder out) {
        out.string(s);
      }

      @Override
      public int size(String s) {
        return KeyEncoding.stringSize(s);
      }

      @Override
      public String read(KeyEncoding.Reader in) {
        return in.string();
      }
    };
  }

  private static Table.KeyCodec<WhitelistedAddressPair> whitelistKeys() {
    return new Table.KeyCodec<>() {
      @Override
      public void write(WhitelistedAddressPair p, KeyEncoding.Builder out) {
        out.string(p.sender()).string(p.receiver());
      }

      @Override
      public int size(WhitelistedAddressPair p) {
        return KeyEncoding.stringSize(p.sender()) + KeyEncoding.stringSize(p.receiver());
      }

      @Override
      public WhitelistedAddressPair read(KeyEncoding.Reader in) {
        String sender = in.string();
        String receiver = in.string();
        try {
          return new WhitelistedAddressPair(sender, receiver);
        } catch (IllegalArgumentException e) {
          throw new StorageException("corrupt whitelist key: " + e.getMessage(), e);
        }
      }
    };
  }

  private static Table.KeyCodec<Unit> unitKeys() {
    return new Table.KeyCodec<>() {
      @Override
      public void write(Unit u, KeyEncoding.Builder out) {}

      @Override
      public Unit read(KeyEncoding.Reader in) {
        return Unit.INSTANCE;
      }
    };
  }

  private static Table.KeyCodec<ScheduledReset> scheduleKeys() {
    return new Table.KeyCodec<>() {
      @Override
      public void write(ScheduledReset s, KeyEncoding.Builder out) {
        out.u64(s.durationHours()).string(s.path().channelOrClientId()).string(s.path().denom());
      }

      @Override
      public ScheduledReset read(KeyEncoding.Reader in) {
        long duration = in.u64();
        String channel = in.string();
        return new ScheduledReset(duration, path(in.string(), channel));
      }
    };
  }

  private static Path path(String denom, String channel) {
    try {
      return new Path(denom, channel);
    } catch (IllegalArgumentException e) {
      throw new StorageException("corrupt rate limit key: " + e.getMessage(), e);
    }
  }

  /** 8 bytes big-endian. */
  private static Table.ValueCodec<Long> u64Values() {
    return new Table.ValueCodec<>() {
      @Override
      public byte[] encode(Long v) {
        return java.nio.ByteBuffer.allocate(Long.BYTES).putLong(v).array();
      }

      @Override
      public Long decode(byte[] bytes) {
        if (bytes.length != Long.BYTES) {
          throw new StorageException("corrupt layout value: " + bytes.length + " bytes");
        }
        return java.nio.ByteBuffer.wrap(bytes).getLong();
      }
    };
  }

  private static Table.ValueCodec<Unit> unitValues() {
    return new Table.ValueCodec<>() {
      private final byte[] empty = new byte[0];

      @Override
      public byte[] encode(Unit value) {
        return empty;
      }

      @Override
      public Unit decode(byte[] bytes) {
        return Unit.INSTANCE;
      }
    };
  }

  /**
   * A {@link LimitRow}: byte 0 = max_percent_send (0..100) with bit 7 set when the denom is
   * blacklisted, byte 1 = max_percent_recv, duration_hours as an unsigned LEB128 varint, then the
   * flow's inflow, outflow and channel value, each a length byte (0..32) and its big-endian
   * magnitude without leading zeros.
   */
  private static Table.ValueCodec<LimitRow> limitValues() {
    return new Table.ValueCodec<>() {
      @Override
      public byte[] encode(LimitRow row) {
        // a plain array of the exact size: ByteArrayOutputStream locks on every write
        Quota q = row.quota();
        Flow f = row.flow();
        long d = q.durationHours();
        int varint = 1;
        for (long rest = d >>> 7; rest != 0; rest >>>= 7) {
          varint++;
        }
        int magnitudes =
            magnitudeLength(f.inflow())
                + magnitudeLength(f.outflow())
                + magnitudeLength(f.channelValue());
        byte[] bytes = new byte[2 + varint + 3 + magnitudes];
        bytes[0] = (byte) (q.maxPercentSend() | (row.blacklisted() ? 0x80 : 0));
        bytes[1] = (byte) q.maxPercentRecv();
        int pos = 2;
        while ((d & ~0x7FL) != 0) {
          bytes[pos++] = (byte) ((d & 0x7F) | 0x80);
          d >>>= 7;
        }
        bytes[pos++] = (byte) d;
        pos = putMagnitude(bytes, pos, f.inflow());
        pos = putMagnitude(bytes, pos, f.outflow());
        putMagnitude(bytes, pos, f.channelValue());
        return bytes;
      }

      @Override
      public LimitRow decode(byte[] bytes) {
        RowLayout layout = RowLayout.of(bytes);
        return new LimitRow(layout.quota(), layout.blacklisted(), layout.flow(bytes));
      }
    };
  }

  /**
   * Where a stored limit row's parts are ({@link #limitValues}): its quota (checked), blacklist
   * bit and the three flow magnitudes, each a length byte then its bytes. Reading one checks the
   * whole row, so a corrupt row fails the same way whatever is read of it next.
   *
   * @param inAt the inflow's length byte; {@code outAt}, {@code cvAt} the others'; {@code end}
   *     the row's length
   */
  record RowLayout(Quota quota, boolean blacklisted, int inAt, int outAt, int cvAt, int end) {
    /** @throws StorageException naming what is corrupt */
    static RowLayout of(byte[] bytes) {
      if (bytes.length < 3) {
        throw new StorageException("corrupt limit value: truncated");
      }
      boolean blacklisted = (bytes[0] & 0x80) != 0;
      int send = bytes[0] & 0x7F;
      int recv = bytes[1] & 0xFF;
      int pos = 2;
      long duration = 0;
      for (int shift = 0; ; shift += 7) {
        if (pos >= bytes.length || shift > 63) {
          throw new StorageException("corrupt limit value: bad duration");
        }
        int b = bytes[pos++] & 0xFF;
        duration |= (long) (b & 0x7F) << shift;
        if ((b & 0x80) == 0) {
          break;
        }
      }
      int inAt = pos;
      int outAt = skipMagnitude(bytes, inAt);
      int cvAt = skipMagnitude(bytes, outAt);
      int end = skipMagnitude(bytes, cvAt);
      if (end != bytes.length) {
        throw new StorageException("corrupt limit value: trailing bytes");
      }
      try {
        return new RowLayout(new Quota(send, recv, duration), blacklisted, inAt, outAt, cvAt, end);
      } catch (IllegalArgumentException e) {
        throw new StorageException("corrupt limit value: " + e.getMessage(), e);
      }
    }

    Flow flow(byte[] bytes) {
      return new Flow(magnitude(bytes, inAt), magnitude(bytes, outAt), magnitude(bytes, cvAt));
    }

    private static int skipMagnitude(byte[] bytes, int at) {
      if (at >= bytes.length) {
        throw new StorageException("corrupt limit value: truncated flow");
      }
      int len = bytes[at] & 0xFF;
      if (len > 32 || at + 1 + len > bytes.length) {
        throw new StorageException("corrupt limit value: bad flow length " + len);
      }
      return at + 1 + len;
    }

    private static BigInteger magnitude(byte[] bytes, int at) {
      return new BigInteger(1, bytes, at + 1, bytes[at] & 0xFF);
    }

    /** The magnitude at {@code at} if it is below {@link QuotaRules#SHORTCUT_LIMIT}, else -1. */
    private static long shortcutMagnitude(byte[] bytes, int at) {
      if ((bytes[at] & 0xFF) > Long.BYTES) {
        return -1;
      }
      long v = lowBits(bytes, at);
      return v >= 0 && v < QuotaRules.SHORTCUT_LIMIT ? v : -1; // eight bytes may read negative
    }

    /** The low 64 bits of the magnitude at {@code at}: its value when it has at most 63 bits. */
    private static long lowBits(byte[] bytes, int at) {
      long v = 0;
      for (int i = at + 1; i <= at + (bytes[at] & 0xFF); i++) {
        v = (v << 8) | (bytes[i] & 0xFF);
      }
      return v;
    }

    /** The bit length of the magnitude at {@code at}. */
    private static int bitLength(byte[] bytes, int at) {
      int len = bytes[at] & 0xFF;
      int i = at + 1;
      while (len > 0 && bytes[i] == 0) { // leading zeros: the encoder writes none, a reader allows them
        i++;
        len--;
      }
      return len == 0 ? 0 : 8 * (len - 1) + (32 - Integer.numberOfLeadingZeros(bytes[i] & 0xFF));
    }
  }

  /**
   * The packet hot path's row update without BigIntegers: the encoding of the row {@code stored}
   * with {@code amount} added to {@code direction}'s flow when {@link QuotaRules#addIfWithin}
   * accepts it, else null, and then the exact rules ({@link QuotaRules#check}) decide: a
   * rejection, a flow or amount of {@link QuotaRules#SHORTCUT_LIMIT} or more, or a channel value
   * of 64 to 70 bits. Same bytes as {@link #encodeWithFlow} of the accepted flow.
   */
  static byte[] addToFlowIfWithin(
      byte[] stored, RowLayout layout, PacketDirection direction, BigInteger amount) {
    if (amount.bitLength() >= 63) {
      return null;
    }
    long in = RowLayout.shortcutMagnitude(stored, layout.inAt());
    long out = RowLayout.shortcutMagnitude(stored, layout.outAt());
    long a = amount.longValue();
    if (in < 0 || out < 0 || a >= QuotaRules.SHORTCUT_LIMIT) {
      return null;
    }
    int cvBits = RowLayout.bitLength(stored, layout.cvAt());
    long cv = cvBits <= 63 ? RowLayout.lowBits(stored, layout.cvAt()) : 0;
    long updated =
        QuotaRules.addIfWithin(
            direction, in, out, a, cvBits, cv, QuotaRules.percent(layout.quota(), direction));
    if (updated < 0) {
      return null;
    }
    if (a == 0) { // the same row, as stored
      return stored.clone();
    }
    int at = direction == PacketDirection.SEND ? layout.outAt() : layout.inAt();
    int next = direction == PacketDirection.SEND ? layout.cvAt() : layout.outAt();
    int length = magnitudeLength(updated);
    byte[] bytes = new byte[stored.length - (next - at) + 1 + length];
    System.arraycopy(stored, 0, bytes, 0, at);
    int end = putMagnitude(bytes, at, updated, length);
    System.arraycopy(stored, next, bytes, end, stored.length - next);
    return bytes;
  }

  /**
   * {@code LIMIT}'s encoding of the row {@code stored} (read as {@code layout}) with {@code flow}
   * in place of its flow {@code old}: the quota bytes and every magnitude equal to the stored one
   * are copied as stored (a packet changes one magnitude of its path's row; the channel value may
   * be wider than a {@code long}).
   */
  static byte[] encodeWithFlow(byte[] stored, RowLayout layout, Flow old, Flow flow) {
    int inAt = layout.inAt(); // the header (percents, duration) ends here
    int outAt = layout.outAt();
    int cvAt = layout.cvAt();
    int end = layout.end();
    boolean sameIn = flow.inflow().equals(old.inflow());
    boolean sameOut = flow.outflow().equals(old.outflow());
    boolean sameCv = flow.channelValue().equals(old.channelValue());
    byte[] bytes =
        new byte[inAt
            + (sameIn ? outAt - inAt : 1 + magnitudeLength(flow.inflow()))
            + (sameOut ? cvAt - outAt : 1 + magnitudeLength(flow.outflow()))
            + (sameCv ? end - cvAt : 1 + magnitudeLength(flow.channelValue()))];
    System.arraycopy(stored, 0, bytes, 0, inAt);
    int pos = inAt;
    pos = sameIn ? copy(stored, inAt, outAt, bytes, pos) : putMagnitude(bytes, pos, flow.inflow());
    pos = sameOut ? copy(stored, outAt, cvAt, bytes, pos) : putMagnitude(bytes, pos, flow.outflow());
    if (sameCv) {
      copy(stored, cvAt, end, bytes, pos);
    } else {
      putMagnitude(bytes, pos, flow.channelValue());
    }
    return bytes;
  }

  /** Copies {@code from[start, end)} to {@code to} at {@code pos}; returns the end. */
  private static int copy(byte[] from, int start, int end, byte[] to, int pos) {
    System.arraycopy(from, start, to, pos, end - start);
    return pos + end - start;
  }

  /** The bytes of a non-negative value's big-endian magnitude, without leading zeros (0 for 0). */
  private static int magnitudeLength(BigInteger v) {
    return (v.bitLength() + 7) / 8;
  }

  /** Writes a length byte and {@code v}'s magnitude at {@code pos}; returns the end. */
  private static int putMagnitude(byte[] bytes, int pos, BigInteger v) {
    int length = magnitudeLength(v);
    if (length <= Long.BYTES) { // the usual flow: written from the low 64 bits, no array
      return putMagnitude(bytes, pos, v.longValue(), length);
    }
    bytes[pos++] = (byte) length; // toByteArray may lead with a sign byte: take its last bytes
    byte[] raw = v.toByteArray();
    System.arraycopy(raw, raw.length - length, bytes, pos, length);
    return pos + length;
  }

  /** The bytes of a non-negative {@code long}'s big-endian magnitude, without leading zeros. */
  private static int magnitudeLength(long v) {
    return (Long.SIZE - Long.numberOfLeadingZeros(v) + 7) / 8;
  }

  /** Writes {@code length} and the low {@code length} bytes of {@code x}; returns the end. */
  private static int putMagnitude(byte[] bytes, int pos, long x, int length) {
    bytes[pos++] = (byte) length;
    for (int i = pos + length - 1; i >= pos; i--) {
      bytes[i] = (byte) x;
      x >>>= 8;
    }
    return pos + length;
  }

  private static Table.ValueCodec<HourEpoch> epochValues() {
    return new Table.ValueCodec<>() {
      @Override
      public byte[] encode(HourEpoch e) {
        return dev.ratelimit.proto.v1.HourEpoch.newBuilder()
            .setEpochNumber(e.epochNumber())
            .setDuration(com.google.protobuf.Duration.newBuilder().setSeconds(3600))
            .setEpochStartTime(
                Timestamp.newBuilder()
                    .setSeconds(e.epochStartTime().getEpochSecond())
                    .setNanos(e.epochStartTime().getNano()))
            .setEpochStartHeight(e.epochStartHeight())
            .build()
            .toByteArray();
      }

      @Override
      public HourEpoch decode(byte[] bytes) {
        try {
          var p = dev.ratelimit.proto.v1.HourEpoch.parseFrom(bytes);
          return new HourEpoch(
              p.getEpochNumber(),
              Instant.ofEpochSecond(
                  p.getEpochStartTime().getSeconds(), p.getEpochStartTime().getNanos()),
              p.getEpochStartHeight());
        } catch (InvalidProtocolBufferException | RuntimeException e) {
          throw new StorageException("corrupt hour epoch value: " + e.getMessage(), e);
        }
      }
    };
  }
}
