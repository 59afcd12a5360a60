package dev.ratelimit.app.bank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.EventSink;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.store.StoreDigest;
import java.math.BigInteger;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class BankKeeperTest {
  private final MemoryKvStore store = new MemoryKvStore();
  private final BankKeeper bank =
      new BankKeeper(new ChainInfo("test-1", "osmo"));
  private final BlockContext ctx =
      BlockContext.of(1, Instant.parse("2024-01-01T00:00:00Z"), store, EventSink.discarding());
  private final String alice = Addresses.named("osmo", "alice");
  private final String bob = Addresses.named("osmo", "bob");

  @Test
  void mintSendBurn_keepSupplyEqualToBalances() {
    bank.mint(ctx, alice, "uosmo", BigInteger.valueOf(100));
    bank.send(ctx, alice, bob, "uosmo", BigInteger.valueOf(30));
    bank.burn(ctx, bob, "uosmo", BigInteger.valueOf(10));
    assertEquals(BigInteger.valueOf(70), bank.balance(ctx, alice, "uosmo"));
    assertEquals(BigInteger.valueOf(20), bank.balance(ctx, bob, "uosmo"));
    assertEquals(BigInteger.valueOf(90), bank.totalSupply(ctx, "uosmo"));
    assertEquals(BigInteger.valueOf(90), bank.sumOfBalances(ctx, "uosmo"));
    BlockContext branch = ctx.branch();
    bank.mint(branch, alice, "uosmo", BigInteger.valueOf(5));
    BankSupply port = bank;
    assertEquals(BigInteger.valueOf(95), port.totalSupply(branch, "uosmo"), "the port sees the branch");
    branch.discard();
    assertEquals(BigInteger.valueOf(90), port.totalSupply(ctx, "uosmo"));
  }

  @Test
  void noNegativeBalance_andNothingWrittenOnFailure() {
    bank.mint(ctx, alice, "uosmo", BigInteger.valueOf(5));
    String before = StoreDigest.hex(store);
    TxException send = assertThrows(TxException.class,
        () -> bank.send(ctx, alice, bob, "uosmo", BigInteger.valueOf(6)));
    assertEquals(5, send.code());
    TxException burn = assertThrows(TxException.class,
        () -> bank.burn(ctx, bob, "uosmo", BigInteger.ONE));
    assertEquals(5, burn.code());
    assertThrows(TxException.class, () -> bank.send(ctx, alice, bob, "uosmo", BigInteger.valueOf(-1)));
    assertEquals(before, StoreDigest.hex(store));
  }

  @Test
  void supplyStaysBelow2pow256() {
    BigInteger max = Amounts.LIMIT.subtract(BigInteger.ONE);
    bank.mint(ctx, alice, "uosmo", max);
    TxException e = assertThrows(TxException.class,
        () -> bank.mint(ctx, bob, "uosmo", BigInteger.ONE));
    assertEquals(10, e.code());
    assertEquals(max, bank.totalSupply(ctx, "uosmo"));
    assertThrows(TxException.class, () -> bank.mint(ctx, bob, "uatom", Amounts.LIMIT));
  }

  @Test
  void rejectsBadDenomsAndAddresses() {
    assertEquals(10, assertThrows(TxException.class,
        () -> bank.mint(ctx, alice, "1bad", BigInteger.ONE)).code());
    assertEquals(7, assertThrows(TxException.class,
        () -> bank.mint(ctx, "stride1xyz", "uosmo", BigInteger.ONE)).code());
  }
}
