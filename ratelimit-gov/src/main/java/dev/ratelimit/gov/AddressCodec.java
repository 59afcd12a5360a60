package dev.ratelimit.gov;

/**
 * The host chain's address format, checked on the signer ({@code authority}) of every governance
 * message before anything else (like ibc-go's {@code address.Codec}). A Cosmos chain plugs its
 * bech32 codec here; the default, {@link #nonBlank()}, accepts any non-blank string.
 *
 * <p>Implementations must be deterministic and side-effect free: they run inside block execution.
 */
@FunctionalInterface
public interface AddressCodec {

  /**
   * Checks that {@code address} is a well-formed address of this chain.
   *
   * @throws IllegalArgumentException saying what is wrong when it is not (the message handler turns
   *     it into {@link dev.ratelimit.core.ErrorCode#INVALID_ADDRESS})
   */
  void validate(String address);

  /** Accepts every non-blank address; rejects {@code null}, empty and whitespace-only strings. */
  static AddressCodec nonBlank() {
    return NonBlankAddressCodec.INSTANCE;
  }
}
