package dev.ratelimit.gov;

import dev.ratelimit.core.model.Texts;

/** {@link AddressCodec#nonBlank()}: the address format check of a chain that has none. */
enum NonBlankAddressCodec implements AddressCodec {
  INSTANCE;

  @Override
  public void validate(String address) {
    if (address == null || Texts.isGoBlank(address)) {
      throw new IllegalArgumentException("address must not be blank, got " + Texts.quote(address));
    }
  }

  @Override
  public String toString() {
    return "AddressCodec.nonBlank()";
  }
}
