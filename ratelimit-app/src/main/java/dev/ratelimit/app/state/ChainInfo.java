package dev.ratelimit.app.state;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Who this chain is: its chain id, the bech32 prefix of its addresses and its IBC revision number.
 *
 * @param chainId e.g. {@code stride-1}
 * @param accountPrefix the bech32 human-readable part of its addresses, e.g. {@code stride}
 */
public record ChainInfo(String chainId, String accountPrefix) {
  private static final Pattern REVISION = Pattern.compile(".+-([1-9][0-9]{0,17}|0)");

  public ChainInfo {
    Objects.requireNonNull(chainId, "chainId");
    Objects.requireNonNull(accountPrefix, "accountPrefix");
    if (chainId.isBlank()) {
      throw new IllegalArgumentException("chain id must not be blank");
    }
    if (accountPrefix.isEmpty()) {
      throw new IllegalArgumentException("account prefix must not be empty");
    }
  }

  /**
   * The IBC revision number of the chain: the number after the last {@code -} of a chain id of
   * the form {@code name-N} (as ibc-go's {@code ParseChainID}), else 0. Timeout heights name it.
   */
  public long revisionNumber() {
    return revisionNumber(chainId);
  }

  /** {@link #revisionNumber()} of any chain id. */
  public static long revisionNumber(String chainId) {
    Matcher m = REVISION.matcher(chainId);
    return m.matches() ? Long.parseLong(m.group(1)) : 0;
  }
}
