package dev.ratelimit.middleware.ibc.v2;

import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;

/**
 * One application's part of an IBC v2 packet ({@code ibc.core.channel.v2.Payload}): the ports on
 * both sides, the application's version and the value's encoding (for ICS-20: {@code ics20-1} and
 * {@code application/json}, {@code application/x-protobuf} or {@code application/x-solidity-abi};
 * see {@link dev.ratelimit.middleware.transfer.Ics20PayloadCodec}).
 *
 * <p>The value is copied in and out, so a payload is immutable; {@link #equals}, {@link #hashCode}
 * and {@link #toString} use its content. Nothing else is validated: IBC core checked the payload
 * before any callback sees it.
 */
public record Payload(
    String sourcePort, String destinationPort, String version, String encoding, byte[] value) {

  private static final int MAX_SHOWN_VALUE_BYTES = 48;

  /** @throws NullPointerException if a field is {@code null} */
  public Payload {
    Objects.requireNonNull(sourcePort, "sourcePort");
    Objects.requireNonNull(destinationPort, "destinationPort");
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(encoding, "encoding");
    value = Objects.requireNonNull(value, "value").clone();
  }

  /** A copy of the value. */
  @Override
  public byte[] value() {
    return value.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Payload p
        && sourcePort.equals(p.sourcePort)
        && destinationPort.equals(p.destinationPort)
        && version.equals(p.version)
        && encoding.equals(p.encoding)
        && Arrays.equals(value, p.value);
  }

  @Override
  public int hashCode() {
    return 31 * Objects.hash(sourcePort, destinationPort, version, encoding)
        + Arrays.hashCode(value);
  }

  /** The fields, with the value as its length and (the start of) its base64. */
  @Override
  public String toString() {
    String shown = Base64.getEncoder()
        .encodeToString(Arrays.copyOf(value, Math.min(value.length, MAX_SHOWN_VALUE_BYTES)));
    return "Payload[sourcePort=" + sourcePort + ", destinationPort=" + destinationPort
        + ", version=" + version + ", encoding=" + encoding + ", value=(" + value.length
        + " bytes) " + shown + (value.length > MAX_SHOWN_VALUE_BYTES ? "..." : "") + "]";
  }
}
