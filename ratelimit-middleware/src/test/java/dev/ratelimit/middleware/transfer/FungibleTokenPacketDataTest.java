package dev.ratelimit.middleware.transfer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ratelimit.core.model.Amounts;
import java.math.BigInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FungibleTokenPacketDataTest {
  private static final BigInteger ONE = BigInteger.ONE;

  @Test
  void withoutMemo_memoIsEmpty() {
    assertEquals("", new FungibleTokenPacketData("d", ONE, "s", "r").memo());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", " ", "\t\n", "\u00a0", "\u3000"})
  void blankRequiredFields_areRejected(String blank) {
    assertThrows(
        IllegalArgumentException.class, () -> new FungibleTokenPacketData(blank, ONE, "s", "r"));
    assertThrows(
        IllegalArgumentException.class, () -> new FungibleTokenPacketData("d", ONE, blank, "r"));
    assertThrows(
        IllegalArgumentException.class, () -> new FungibleTokenPacketData("d", ONE, "s", blank));
    assertEquals(blank, new FungibleTokenPacketData("d", ONE, "s", "r", blank).memo());
  }

  @Test
  void amount_mustBeInRange() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new FungibleTokenPacketData("d", BigInteger.valueOf(-1), "s", "r"));
    assertThrows(
        IllegalArgumentException.class,
        () -> new FungibleTokenPacketData("d", Amounts.LIMIT, "s", "r"));
    assertEquals(
        BigInteger.ZERO, new FungibleTokenPacketData("d", BigInteger.ZERO, "s", "r").amount());
  }

  @Test
  void nulls_andLoneSurrogates_areRejected() {
    assertThrows(
        NullPointerException.class, () -> new FungibleTokenPacketData(null, ONE, "s", "r"));
    assertThrows(
        NullPointerException.class, () -> new FungibleTokenPacketData("d", null, "s", "r"));
    assertThrows(
        NullPointerException.class, () -> new FungibleTokenPacketData("d", ONE, null, "r"));
    assertThrows(
        NullPointerException.class, () -> new FungibleTokenPacketData("d", ONE, "s", null));
    assertThrows(
        NullPointerException.class, () -> new FungibleTokenPacketData("d", ONE, "s", "r", null));
    assertThrows(
        IllegalArgumentException.class,
        () -> new FungibleTokenPacketData("d", ONE, "s", "r", "\ud800"));
  }
}
