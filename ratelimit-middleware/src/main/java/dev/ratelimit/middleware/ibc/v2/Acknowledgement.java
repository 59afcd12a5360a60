package dev.ratelimit.middleware.ibc.v2;

import dev.ratelimit.core.model.Sha256;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * An IBC v2 acknowledgement ({@code ibc.core.channel.v2.Acknowledgement}): the application
 * acknowledgements of a packet's payloads. ibc-go's core takes exactly one (a packet carries one
 * payload); a failed receive's is IBC v2's universal error acknowledgement ({@code
 * sha256("UNIVERSAL_ERROR_ACKNOWLEDGEMENT")}), and any other is a success.
 *
 * <p>The bytes are copied in and out; {@link #equals}, {@link #hashCode} and {@link #toString}
 * use their content.
 */
public record Acknowledgement(List<byte[]> appAcknowledgements) {
  private static final byte[] UNIVERSAL_ERROR =
      Sha256.hash("UNIVERSAL_ERROR_ACKNOWLEDGEMENT".getBytes(StandardCharsets.US_ASCII));

  /** @throws NullPointerException if the list or an element is {@code null} */
  public Acknowledgement {
    appAcknowledgements = appAcknowledgements.stream().map(byte[]::clone).toList();
  }

  /** The failed receive's acknowledgement: the universal error acknowledgement alone. */
  public static Acknowledgement universalError() {
    return new Acknowledgement(List.of(UNIVERSAL_ERROR));
  }

  /** A copy of the universal error acknowledgement's 32 bytes. */
  public static byte[] universalErrorBytes() {
    return UNIVERSAL_ERROR.clone();
  }

  /** Whether {@code appAcknowledgement} is the universal error acknowledgement. */
  public static boolean isUniversalError(byte[] appAcknowledgement) {
    return Arrays.equals(appAcknowledgement, UNIVERSAL_ERROR);
  }

  /**
   * Whether this is a successful receive's acknowledgement as ibc-go's core reads it: exactly one
   * application acknowledgement, not the universal error one.
   */
  public boolean isSuccess() {
    return appAcknowledgements.size() == 1 && !isUniversalError(appAcknowledgements.get(0));
  }

  /** Copies of the application acknowledgements. */
  @Override
  public List<byte[]> appAcknowledgements() {
    return appAcknowledgements.stream().map(byte[]::clone).toList();
  }

  /** A copy of the application acknowledgement of payload {@code index}, if there is one. */
  public Optional<byte[]> appAcknowledgement(int index) {
    return index >= 0 && index < appAcknowledgements.size()
        ? Optional.of(appAcknowledgements.get(index).clone())
        : Optional.empty();
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof Acknowledgement a)
        || a.appAcknowledgements.size() != appAcknowledgements.size()) {
      return false;
    }
    for (int i = 0; i < appAcknowledgements.size(); i++) {
      if (!Arrays.equals(appAcknowledgements.get(i), a.appAcknowledgements.get(i))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public int hashCode() {
    int h = 1;
    for (byte[] b : appAcknowledgements) {
      h = 31 * h + Arrays.hashCode(b);
    }
    return h;
  }

  /** The number of application acknowledgements and each one's length. */
  @Override
  public String toString() {
    return "Acknowledgement[appAcknowledgements="
        + appAcknowledgements.stream().map(b -> "(" + b.length + " bytes)").toList() + "]";
  }
}
