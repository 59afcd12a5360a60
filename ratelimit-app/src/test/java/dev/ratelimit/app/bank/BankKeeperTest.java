package dev.ratelimit.app.bank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.host.EventSink;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.store.MemoryKvStore;
import dev.ratelimit.core.store.StoreDigest;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
  void eachMovement_emitsItsCosmosEvent_andEmptyBalancesLeaveNoKeys() {
    List<Event> events = new ArrayList<>();
    BlockContext c = BlockContext.of(1, Instant.parse("2024-01-01T00:00:00Z"), store, events::add);
    String empty = StoreDigest.hex(store);
    bank.mint(c, alice, "uosmo", BigInteger.valueOf(100));
    bank.send(c, alice, bob, "uosmo", BigInteger.valueOf(100));
    bank.burn(c, bob, "uosmo", BigInteger.valueOf(100)); // the whole supply
    assertEquals(
        List.of(
            Event.of("coinbase", "minter", alice, "amount", "100uosmo"),
            Event.of("transfer", "recipient", bob, "sender", alice, "amount", "100uosmo"),
            Event.of("burn", "burner", bob, "amount", "100uosmo")),
        events);
    assertEquals(BigInteger.ZERO, bank.totalSupply(c, "uosmo"));
    assertEquals(empty, StoreDigest.hex(store), "zero balances and supply are deleted, not stored");

    // nothing moves: no write, no event
    bank.mint(c, alice, "uosmo", BigInteger.ZERO);
    bank.mint(c, alice, "uosmo", BigInteger.TEN);
    events.clear();
    String before = StoreDigest.hex(store);
    bank.send(c, alice, alice, "uosmo", BigInteger.TEN);
    bank.send(c, alice, bob, "uosmo", BigInteger.ZERO);
    bank.burn(c, alice, "uosmo", BigInteger.ZERO);
    assertEquals(before, StoreDigest.hex(store));
    assertEquals(List.of(), events);
    assertEquals(10, assertThrows(TxException.class,
        () -> bank.burn(c, alice, "1bad", BigInteger.ONE)).code());
  }

  @Test
  void rejectsBadDenomsAndAddresses() {
    assertEquals(10, assertThrows(TxException.class,
        () -> bank.mint(ctx, alice, "1bad", BigInteger.ONE)).code());
    assertEquals(7, assertThrows(TxException.class,
        () -> bank.mint(ctx, "stride1xyz", "uosmo", BigInteger.ONE)).code());
  }
}
