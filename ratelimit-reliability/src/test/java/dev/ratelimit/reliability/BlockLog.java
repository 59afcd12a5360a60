package dev.ratelimit.reliability;

import com.google.protobuf.Any;
import com.google.protobuf.ByteString;
import dev.ratelimit.app.bank.MsgSend;
import dev.ratelimit.app.chain.Block;
import dev.ratelimit.app.gov.MsgSubmitProposal;
import dev.ratelimit.app.ibc.MsgAcknowledgement;
import dev.ratelimit.app.ibc.MsgRecvPacket;
import dev.ratelimit.app.ibc.MsgTimeout;
import dev.ratelimit.app.ibc.MsgUpdateClient;
import dev.ratelimit.app.transfer.MsgTransfer;
import dev.ratelimit.app.tx.Msg;
import dev.ratelimit.middleware.ibc.Height;
import dev.ratelimit.middleware.ibc.Packet;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A chain's block log in a file, so a child JVM can replay exactly the blocks a run produced: every
 * message type of the example app, length-prefixed, big-endian. Test code only; not a wire format.
 */
final class BlockLog {
  private static final int MAGIC = 0x424c4f47; // "BLOG"

  private BlockLog() {}

  static void write(Path file, List<Block> blocks) {
    try (DataOutputStream out =
        new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file)))) {
      out.writeInt(MAGIC);
      out.writeInt(blocks.size());
      for (Block b : blocks) {
        out.writeLong(b.height());
        out.writeLong(b.time().getEpochSecond());
        out.writeInt(b.time().getNano());
        out.writeInt(b.msgs().size());
        for (Msg m : b.msgs()) {
          writeMsg(out, m);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<Block> read(Path file) {
    try (DataInputStream in =
        new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
      if (in.readInt() != MAGIC) {
        throw new IllegalArgumentException(file + " is not a block log");
      }
      int n = in.readInt();
      List<Block> blocks = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        long height = in.readLong();
        Instant time = Instant.ofEpochSecond(in.readLong(), in.readInt());
        int count = in.readInt();
        List<Msg> msgs = new ArrayList<>(count);
        for (int j = 0; j < count; j++) {
          msgs.add(readMsg(in));
        }
        blocks.add(new Block(height, time, msgs));
      }
      return blocks;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void writeMsg(DataOutputStream out, Msg m) throws IOException {
    if (m instanceof MsgTransfer t) {
      out.writeByte(1);
      str(out, t.sender());
      str(out, t.sourceChannel());
      str(out, t.denom());
      str(out, t.amount().toString());
      str(out, t.receiver());
      height(out, t.timeoutHeight());
      out.writeLong(t.timeoutTimestamp());
      str(out, t.memo());
    } else if (m instanceof MsgSend s) {
      out.writeByte(2);
      str(out, s.fromAddress());
      str(out, s.toAddress());
      str(out, s.denom());
      str(out, s.amount().toString());
    } else if (m instanceof MsgSubmitProposal p) {
      out.writeByte(3);
      str(out, p.proposer());
      out.writeInt(p.messages().size());
      for (Any a : p.messages()) {
        str(out, a.getTypeUrl());
        bytes(out, a.getValue().toByteArray());
      }
    } else if (m instanceof MsgUpdateClient u) {
      out.writeByte(4);
      str(out, u.clientId());
      height(out, u.height());
      out.writeLong(u.time().getEpochSecond());
      out.writeInt(u.time().getNano());
      str(out, u.signer());
    } else if (m instanceof MsgRecvPacket r) {
      out.writeByte(5);
      packet(out, r.packet());
      str(out, r.relayer());
    } else if (m instanceof MsgAcknowledgement a) {
      out.writeByte(6);
      packet(out, a.packet());
      bytes(out, a.acknowledgement());
      str(out, a.relayer());
    } else if (m instanceof MsgTimeout t) {
      out.writeByte(7);
      packet(out, t.packet());
      str(out, t.relayer());
    } else {
      throw new IllegalArgumentException("cannot log " + m.getClass().getName());
    }
  }

  private static Msg readMsg(DataInputStream in) throws IOException {
    int tag = in.readByte();
    return switch (tag) {
      case 1 -> new MsgTransfer(str(in), str(in), str(in), new BigInteger(str(in)), str(in),
          height(in), in.readLong(), str(in));
      case 2 -> new MsgSend(str(in), str(in), str(in), new BigInteger(str(in)));
      case 3 -> {
        String proposer = str(in);
        int n = in.readInt();
        List<Any> msgs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          msgs.add(Any.newBuilder().setTypeUrl(str(in)).setValue(ByteString.copyFrom(bytes(in)))
              .build());
        }
        yield new MsgSubmitProposal(proposer, msgs);
      }
      case 4 -> new MsgUpdateClient(str(in), height(in),
          Instant.ofEpochSecond(in.readLong(), in.readInt()), str(in));
      case 5 -> new MsgRecvPacket(packet(in), str(in));
      case 6 -> new MsgAcknowledgement(packet(in), bytes(in), str(in));
      case 7 -> new MsgTimeout(packet(in), str(in));
      default -> throw new IllegalArgumentException("unknown message tag " + tag);
    };
  }

  private static void packet(DataOutputStream out, Packet p) throws IOException {
    out.writeLong(p.sequence());
    str(out, p.sourcePort());
    str(out, p.sourceChannel());
    str(out, p.destinationPort());
    str(out, p.destinationChannel());
    bytes(out, p.data());
    height(out, p.timeoutHeight());
    out.writeLong(p.timeoutTimestamp());
  }

  private static Packet packet(DataInputStream in) throws IOException {
    return new Packet(in.readLong(), str(in), str(in), str(in), str(in), bytes(in), height(in),
        in.readLong());
  }

  private static void height(DataOutputStream out, Height h) throws IOException {
    out.writeLong(h.revisionNumber());
    out.writeLong(h.revisionHeight());
  }

  private static Height height(DataInputStream in) throws IOException {
    return new Height(in.readLong(), in.readLong());
  }

  private static void str(DataOutputStream out, String s) throws IOException {
    bytes(out, s.getBytes(StandardCharsets.UTF_8));
  }

  private static String str(DataInputStream in) throws IOException {
    return new String(bytes(in), StandardCharsets.UTF_8);
  }

  private static void bytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  private static byte[] bytes(DataInputStream in) throws IOException {
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return b;
  }
}
