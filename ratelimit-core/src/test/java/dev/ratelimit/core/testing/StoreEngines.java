package dev.ratelimit.core.testing;

import java.util.stream.Stream;

/** Both store engines, for {@code @MethodSource("dev.ratelimit.core.testing.StoreEngines#all")}. */
public final class StoreEngines {
  private StoreEngines() {}

  public static Stream<StoreEngine> all() {
    return Stream.of(StoreEngine.values());
  }
}
