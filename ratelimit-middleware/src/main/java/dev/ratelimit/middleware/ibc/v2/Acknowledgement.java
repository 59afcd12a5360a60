package dev.ratelimit.middleware.ibc.v2;

import java.util.List;
import java.util.Optional;

/**
 * An IBC v2 acknowledgement ({@code ibc.core.channel.v2.Acknowledgement}): one application
 * acknowledgement per payload, in the packet's payload order. A failed receive's is IBC v2's
 * universal error acknowledgement ({@code sha256("UNIVERSAL_ERROR_ACKNOWLEDGEMENT")}).
 */
public record Acknowledgement(List<byte[]> appAcknowledgements) {

  /** @throws NullPointerException if the list or an element is {@code null} */
  public Acknowledgement {
    appAcknowledgements = appAcknowledgements.stream().map(byte[]::clone).toList();
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
}
