package dev.ratelimit.app.bank;

import java.util.Map;

/** The app's package-private {@link Bech32}, so a fuzz test can compare it with a reference. */
public final class Bech32Codec {
  private Bech32Codec() {}

  public static String encode(String hrp, byte[] data) {
    return Bech32.encode(hrp, data);
  }

  /** The human-readable part and the payload of {@code text}. */
  public static Map.Entry<String, byte[]> decode(String text) {
    Bech32.Decoded decoded = Bech32.decode(text);
    return Map.entry(decoded.hrp(), decoded.data());
  }
}
