package dev.ratelimit.core.keeper;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Timestamp;
import dev.ratelimit.core.model.Flow;
import dev.ratelimit.core.model.HourEpoch;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.PendingPacket;
import dev.ratelimit.core.model.Quota;
import dev.ratelimit.core.model.WhitelistedAddressPair;
import dev.ratelimit.core.store.StorageException;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Arrays;

/**
 * Every table of the module's store, in one place. Table ids are never reused. Keys start with
 * the table id, then order-preserving parts ({@link KeyEncoding}); rate limits are keyed by
 * (channel_or_client_id, denom), pending markers by (channel, denom, sequence), so one channel's
 * or one path's markers are one prefix and every scan is in canonical order.
 *
 * <p>A rate limit is two rows: its quota (written by governance) and its flow (written by every
 * counted packet), so the per-packet write stays small.
 *
 * <pre>
 * id  table            key                                  value
 * 01  quota            channel, denom                       Quota (protobuf)
 * 02  flow             channel, denom                       Flow (compact: 3 x len + magnitude)
 * 03  pending_send     channel, denom, sequence(u64)        empty
 * 04  pending_recv     channel, denom, sequence(u64)        empty
 * 05  blacklist        denom                                empty
 * 06  whitelist        sender, receiver                     empty
 * 07  hour_epoch       (none)                               HourEpoch (protobuf)
 * 08  reset_schedule   duration_hours(u64), channel, denom  empty
 * </pre>
 */
final class Schema {
  private Schema() {}

  /** The marker value of set-like tables. */
  enum Unit {
    INSTANCE
  }

  static final Table<Path, Quota> QUOTA = new Table<>(0x01, "quota", pathKeys(), quotaValues());
  static final Table<Path, Flow> FLOW = new Table<>(0x02, "flow", pathKeys(), flowValues());
  static final Table<PendingPacket, Unit> PENDING_SEND =
      new Table<>(0x03, "pending_send", pendingKeys(), unitValues());
  static final Table<PendingPacket, Unit> PENDING_RECV =
      new Table<>(0x04, "pending_recv", pendingKeys(), unitValues());
  static final Table<String, Unit> BLACKLIST =
      new Table<>(0x05, "blacklist", stringKeys(), unitValues());
  static final Table<WhitelistedAddressPair, Unit> WHITELIST =
      new Table<>(0x06, "whitelist", whitelistKeys(), unitValues());
  static final Table<Unit, HourEpoch> HOUR_EPOCH =
      new Table<>(0x07, "hour_epoch", unitKeys(), epochValues());
  static final Table<ScheduledReset, Unit> RESET_SCHEDULE =
      new Table<>(0x08, "reset_schedule", scheduleKeys(), unitValues());

  /** An entry of the reset schedule: limits grouped by window length, so a rollover reads only
   * the groups whose window ends. */
  record ScheduledReset(long durationHours, Path path) {}

  private static Table.KeyCodec<Path> pathKeys() {
    return new Table.KeyCodec<>() {
      @Override
      public void write(Path p, KeyEncoding.Builder out) {
        out.string(p.channelOrClientId()).string(p.denom());
      }

      @Override
      public Path read(KeyEncoding.Reader in) {
        String channel = in.string();
        return path(in.string(), channel);
      }
    };
  }

  private static Table.KeyCodec<PendingPacket> pendingKeys() {
    return new Table.KeyCodec<>() {
      @Override
      public void write(PendingPacket p, KeyEncoding.Builder out) {
        out.string(p.channelOrClientId()).string(p.denom()).u64(p.sequence());
      }

      @Override
      public PendingPacket read(KeyEncoding.Reader in) {
        long sequence = in.trailingU64(); // see trailingU64: read before the denom
        String channel = in.string();
        String denom = in.string();
        try {
          return new PendingPacket(channel, denom, sequence);
        } catch (IllegalArgumentException e) {
          throw new StorageException("corrupt pending packet key: " + e.getMessage(), e);
        }
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

  private static Table.ValueCodec<Quota> quotaValues() {
    return new Table.ValueCodec<>() {
      @Override
      public byte[] encode(Quota q) {
        return dev.ratelimit.proto.v1.Quota.newBuilder()
            .setMaxPercentSend(Integer.toString(q.maxPercentSend()))
            .setMaxPercentRecv(Integer.toString(q.maxPercentRecv()))
            .setDurationHours(q.durationHours())
            .build()
            .toByteArray();
      }

      @Override
      public Quota decode(byte[] bytes) {
        try {
          var p = dev.ratelimit.proto.v1.Quota.parseFrom(bytes);
          return new Quota(
              Integer.parseInt(p.getMaxPercentSend()),
              Integer.parseInt(p.getMaxPercentRecv()),
              p.getDurationHours());
        } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
          throw new StorageException("corrupt quota value: " + e.getMessage(), e);
        }
      }
    };
  }

  /** Three unsigned magnitudes, each a length byte (0..32) then big-endian bytes, no leading 0. */
  private static Table.ValueCodec<Flow> flowValues() {
    return new Table.ValueCodec<>() {
      @Override
      public byte[] encode(Flow f) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16);
        writeMagnitude(out, f.inflow());
        writeMagnitude(out, f.outflow());
        writeMagnitude(out, f.channelValue());
        return out.toByteArray();
      }

      @Override
      public Flow decode(byte[] bytes) {
        int[] pos = {0};
        BigInteger in = readMagnitude(bytes, pos);
        BigInteger out = readMagnitude(bytes, pos);
        BigInteger cv = readMagnitude(bytes, pos);
        if (pos[0] != bytes.length) {
          throw new StorageException("corrupt flow value: trailing bytes");
        }
        return new Flow(in, out, cv);
      }
    };
  }

  private static void writeMagnitude(ByteArrayOutputStream out, BigInteger v) {
    byte[] raw = v.toByteArray(); // two's complement, may carry a leading sign byte
    int skip = 0;
    while (skip < raw.length && raw[skip] == 0) {
      skip++;
    }
    out.write(raw.length - skip);
    out.write(raw, skip, raw.length - skip);
  }

  private static BigInteger readMagnitude(byte[] bytes, int[] pos) {
    if (pos[0] >= bytes.length) {
      throw new StorageException("corrupt flow value: truncated");
    }
    int len = bytes[pos[0]++] & 0xFF;
    if (len > 32 || pos[0] + len > bytes.length) {
      throw new StorageException("corrupt flow value: bad length " + len);
    }
    BigInteger v = new BigInteger(1, Arrays.copyOfRange(bytes, pos[0], pos[0] + len));
    pos[0] += len;
    return v;
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
