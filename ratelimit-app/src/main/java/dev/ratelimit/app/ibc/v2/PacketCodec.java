package dev.ratelimit.app.ibc.v2;

import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import dev.ratelimit.middleware.ibc.v2.Acknowledgement;
import dev.ratelimit.middleware.ibc.v2.Packet;
import dev.ratelimit.middleware.ibc.v2.Payload;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The protobuf encodings of {@code ibc.core.channel.v2.Packet} (sequence 1, source_client 2,
 * destination_client 3, timeout_timestamp 4, payloads 5; a payload: source_port 1,
 * destination_port 2, version 3, encoding 4, value 5) and {@code Acknowledgement}
 * (app_acknowledgements 1), as ibc-go puts them in its IBC v2 events ({@code encoded_packet_hex},
 * {@code encoded_acknowledgement_hex}) and this core in its async-packet store. Proto3: fields at
 * their default are left out.
 */
public final class PacketCodec {
  private static final int SEQUENCE = 1;
  private static final int SOURCE_CLIENT = 2;
  private static final int DESTINATION_CLIENT = 3;
  private static final int TIMEOUT_TIMESTAMP = 4;
  private static final int PAYLOADS = 5;
  private static final int SOURCE_PORT = 1;
  private static final int DESTINATION_PORT = 2;
  private static final int VERSION = 3;
  private static final int ENCODING = 4;
  private static final int VALUE = 5;
  private static final int APP_ACKNOWLEDGEMENTS = 1;

  private PacketCodec() {}

  /** The packet's protobuf bytes. */
  public static byte[] encode(Packet packet) {
    return write(out -> {
      if (packet.sequence() != 0) {
        out.writeUInt64(SEQUENCE, packet.sequence());
      }
      writeString(out, SOURCE_CLIENT, packet.sourceClient());
      writeString(out, DESTINATION_CLIENT, packet.destinationClient());
      if (packet.timeoutTimestamp() != 0) {
        out.writeUInt64(TIMEOUT_TIMESTAMP, packet.timeoutTimestamp());
      }
      for (Payload p : packet.payloads()) {
        out.writeByteArray(PAYLOADS, encode(p));
      }
    });
  }

  /** The acknowledgement's protobuf bytes. */
  public static byte[] encode(Acknowledgement ack) {
    return write(out -> {
      for (byte[] appAck : ack.appAcknowledgements()) {
        out.writeByteArray(APP_ACKNOWLEDGEMENTS, appAck);
      }
    });
  }

  /**
   * Reads a packet back.
   *
   * @throws IllegalArgumentException if the bytes are not a packet
   */
  public static Packet decodePacket(byte[] bytes) {
    return read(bytes, in -> {
      long sequence = 0;
      String sourceClient = "";
      String destinationClient = "";
      long timeout = 0;
      List<Payload> payloads = new ArrayList<>();
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        switch (WireFormat.getTagFieldNumber(tag)) {
          case SEQUENCE -> sequence = in.readUInt64();
          case SOURCE_CLIENT -> sourceClient = in.readStringRequireUtf8();
          case DESTINATION_CLIENT -> destinationClient = in.readStringRequireUtf8();
          case TIMEOUT_TIMESTAMP -> timeout = in.readUInt64();
          case PAYLOADS -> payloads.add(decodePayload(in.readByteArray()));
          default -> in.skipField(tag);
        }
      }
      return new Packet(sequence, sourceClient, destinationClient, timeout, payloads);
    });
  }

  /**
   * Reads an acknowledgement back.
   *
   * @throws IllegalArgumentException if the bytes are not an acknowledgement
   */
  public static Acknowledgement decodeAcknowledgement(byte[] bytes) {
    return read(bytes, in -> {
      List<byte[]> acks = new ArrayList<>();
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (WireFormat.getTagFieldNumber(tag) == APP_ACKNOWLEDGEMENTS) {
          acks.add(in.readByteArray());
        } else {
          in.skipField(tag);
        }
      }
      return new Acknowledgement(acks);
    });
  }

  private static byte[] encode(Payload p) {
    return write(out -> {
      writeString(out, SOURCE_PORT, p.sourcePort());
      writeString(out, DESTINATION_PORT, p.destinationPort());
      writeString(out, VERSION, p.version());
      writeString(out, ENCODING, p.encoding());
      byte[] value = p.value();
      if (value.length > 0) {
        out.writeByteArray(VALUE, value);
      }
    });
  }

  private static Payload decodePayload(byte[] bytes) {
    return read(bytes, in -> {
      String[] strings = {"", "", "", ""};
      byte[] value = new byte[0];
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        int field = WireFormat.getTagFieldNumber(tag);
        if (field >= SOURCE_PORT && field <= ENCODING) {
          strings[field - 1] = in.readStringRequireUtf8();
        } else if (field == VALUE) {
          value = in.readByteArray();
        } else {
          in.skipField(tag);
        }
      }
      return new Payload(strings[0], strings[1], strings[2], strings[3], value);
    });
  }

  private static void writeString(CodedOutputStream out, int field, String value)
      throws IOException {
    if (!value.isEmpty()) {
      out.writeString(field, value);
    }
  }

  private interface Writer {
    void write(CodedOutputStream out) throws IOException;
  }

  private interface Reader<T> {
    T read(CodedInputStream in) throws IOException;
  }

  private static byte[] write(Writer writer) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    try {
      writer.write(out);
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // never: the stream is in memory
    }
    return bytes.toByteArray();
  }

  private static <T> T read(byte[] bytes, Reader<T> reader) {
    try {
      return reader.read(CodedInputStream.newInstance(bytes));
    } catch (IOException e) { // InvalidProtocolBufferException included
      throw new IllegalArgumentException("not an IBC v2 message: " + e.getMessage(), e);
    }
  }
}
