package dev.ratelimit.app.bank;

import dev.ratelimit.app.state.ChainInfo;
import dev.ratelimit.app.state.Keys;
import dev.ratelimit.app.tx.TxException;
import dev.ratelimit.core.host.BankSupply;
import dev.ratelimit.core.host.BlockContext;
import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.model.Amounts;
import dev.ratelimit.core.store.KvEntry;
import dev.ratelimit.core.store.KvScan;
import dev.ratelimit.core.store.KvStore;
import dev.ratelimit.core.store.StorageException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;
import javax.inject.Inject;
import javax.inject.Singleton;

/**
 * Balances and total supply. Every amount is a {@link BigInteger} in [0, 2^256); a balance never
 * goes negative (the operation fails with SDK {@code insufficient_funds} instead) and a supply
 * never reaches 2^256 (SDK {@code invalid_coins}). Zero balances and supplies are not stored.
 *
 * <p>Store (under {@code s/bank/}): table 1 {@code (address, denom) -> amount}, table 2 {@code
 * denom -> total supply}, amounts as decimal text. Operations validate before they write, so a
 * failure leaves the store unchanged.
 *
 * <p>It is the rate limiter's {@link BankSupply}: supply is read from the context's store, so a
 * branch's uncommitted mints and burns count.
 */
@Singleton
public final class BankKeeper implements BankSupply {
  /** Every key of the bank starts with this. */
  public static final byte[] PREFIX = "s/bank/".getBytes(StandardCharsets.US_ASCII);

  private static final int BALANCE = 1;
  private static final int SUPPLY = 2;
  /** The Cosmos SDK's denom rule. */
  private static final Pattern DENOM = Pattern.compile("[a-zA-Z][a-zA-Z0-9/:._-]{2,127}");

  private final String accountPrefix;

  @Inject
  public BankKeeper(ChainInfo chain) {
    this.accountPrefix = chain.accountPrefix();
  }

  /** The bech32 prefix of this chain's addresses. */
  public String accountPrefix() {
    return accountPrefix;
  }

  /** This chain's address of a module account. */
  public String moduleAddress(String moduleName) {
    return Addresses.module(accountPrefix, moduleName);
  }

  /** The balance of {@code address} in {@code denom} (zero when none). */
  public BigInteger balance(BlockContext ctx, String address, String denom) {
    return read(ctx.store(), balanceKey(address, denom));
  }

  /** Every non-zero balance of {@code address}, by denom. */
  public Map<String, BigInteger> balances(BlockContext ctx, String address) {
    Map<String, BigInteger> out = new TreeMap<>();
    byte[] prefix = Keys.of(PREFIX, BALANCE).string(address).build();
    try (KvScan scan = ctx.store().scanPrefix(prefix)) {
      while (scan.hasNext()) {
        KvEntry e = scan.next();
        String denom = Keys.reader(e.key(), prefix.length).string();
        out.put(denom, decode(e.value()));
      }
    }
    return out;
  }

  /** The total supply of {@code denom} (zero when unknown); also the {@link BankSupply} port. */
  @Override
  public BigInteger totalSupply(BlockContext ctx, String denom) {
    return read(ctx.store(), supplyKey(denom));
  }

  /**
   * The sum of every account's balance of {@code denom}, which must equal its total supply (an
   * invariant; scans the whole balance table).
   */
  public BigInteger sumOfBalances(BlockContext ctx, String denom) {
    BigInteger sum = BigInteger.ZERO;
    byte[] prefix = Keys.of(PREFIX, BALANCE).build();
    try (KvScan scan = ctx.store().scanPrefix(prefix)) {
      while (scan.hasNext()) {
        KvEntry e = scan.next();
        Keys.Reader r = Keys.reader(e.key(), prefix.length);
        r.string();
        if (r.string().equals(denom)) {
          sum = sum.add(decode(e.value()));
        }
      }
    }
    return sum;
  }

  /**
   * Creates {@code amount} of {@code denom} in {@code address}.
   *
   * @throws TxException {@code invalid_address}, or {@code invalid_coins} for a bad denom or
   *     amount or a supply that would reach 2^256
   */
  public void mint(BlockContext ctx, String address, String denom, BigInteger amount) {
    checkArgs(address, denom, amount);
    KvStore s = ctx.store();
    BigInteger supply = read(s, supplyKey(denom)).add(amount);
    if (!Amounts.inRange(supply)) {
      throw TxException.invalidCoins("supply of " + denom + " would reach 2^256");
    }
    if (amount.signum() == 0) {
      return;
    }
    BigInteger balance = read(s, balanceKey(address, denom)).add(amount);
    write(s, balanceKey(address, denom), balance);
    write(s, supplyKey(denom), supply);
    ctx.emit(Event.of("coinbase", "minter", address, "amount", amount + denom));
  }

  /**
   * Destroys {@code amount} of {@code denom} held by {@code address}.
   *
   * @throws TxException {@code insufficient_funds} when the balance is smaller, or as {@link #mint}
   */
  public void burn(BlockContext ctx, String address, String denom, BigInteger amount) {
    checkArgs(address, denom, amount);
    KvStore s = ctx.store();
    BigInteger balance = requireFunds(s, address, denom, amount);
    if (amount.signum() == 0) {
      return;
    }
    BigInteger supply = read(s, supplyKey(denom)).subtract(amount);
    if (supply.signum() < 0) {
      throw new StorageException("supply of " + denom + " is below a balance: state is corrupt");
    }
    write(s, balanceKey(address, denom), balance.subtract(amount));
    write(s, supplyKey(denom), supply);
    ctx.emit(Event.of("burn", "burner", address, "amount", amount + denom));
  }

  /**
   * Moves {@code amount} of {@code denom} from {@code from} to {@code to}.
   *
   * @throws TxException {@code insufficient_funds}, {@code invalid_address} or {@code invalid_coins}
   */
  public void send(BlockContext ctx, String from, String to, String denom, BigInteger amount) {
    checkArgs(from, denom, amount);
    Addresses.validate(accountPrefix, to);
    KvStore s = ctx.store();
    BigInteger fromBalance = requireFunds(s, from, denom, amount);
    if (amount.signum() == 0 || from.equals(to)) {
      return;
    }
    write(s, balanceKey(from, denom), fromBalance.subtract(amount));
    // cannot reach 2^256: the sum of all balances is the supply, which is below it
    write(s, balanceKey(to, denom), read(s, balanceKey(to, denom)).add(amount));
    ctx.emit(
        Event.of("transfer", "recipient", to, "sender", from, "amount", amount + denom));
  }

  private BigInteger requireFunds(KvStore s, String address, String denom, BigInteger amount) {
    BigInteger balance = read(s, balanceKey(address, denom));
    if (balance.compareTo(amount) < 0) {
      throw TxException.insufficientFunds(
          "spendable balance " + balance + denom + " is smaller than " + amount + denom);
    }
    return balance;
  }

  private void checkArgs(String address, String denom, BigInteger amount) {
    Addresses.validate(accountPrefix, address);
    if (denom == null || !DENOM.matcher(denom).matches()) {
      throw TxException.invalidCoins("invalid denom " + denom);
    }
    if (amount == null || !Amounts.inRange(amount)) {
      throw TxException.invalidCoins("amount must be in [0, 2^256), got " + amount);
    }
  }

  private static byte[] balanceKey(String address, String denom) {
    return Keys.of(PREFIX, BALANCE).string(address).string(denom).build();
  }

  private static byte[] supplyKey(String denom) {
    return Keys.of(PREFIX, SUPPLY).string(denom).build();
  }

  private static BigInteger read(KvStore s, byte[] key) {
    Optional<byte[]> raw = s.get(key);
    return raw.isEmpty() ? BigInteger.ZERO : decode(raw.get());
  }

  private static BigInteger decode(byte[] raw) {
    String text = new String(raw, StandardCharsets.US_ASCII);
    if (!Amounts.isCanonicalDecimal(text)) {
      throw new StorageException("corrupt bank amount: " + text);
    }
    return new BigInteger(text);
  }

  private static void write(KvStore s, byte[] key, BigInteger amount) {
    if (amount.signum() == 0) {
      s.delete(key);
    } else {
      s.put(key, amount.toString().getBytes(StandardCharsets.US_ASCII));
    }
  }
}
