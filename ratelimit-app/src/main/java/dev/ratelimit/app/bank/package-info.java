/**
 * The bank module: balances, total supply, mint, burn and send of {@link java.math.BigInteger}
 * amounts below 2^256 (never negative), bech32 addresses ({@link dev.ratelimit.app.bank.Addresses})
 * including module accounts and ICS-20 escrow accounts derived exactly as the Cosmos SDK and
 * ibc-go derive them. {@link dev.ratelimit.app.bank.BankKeeper} is also the rate limiter's {@link
 * dev.ratelimit.core.host.BankSupply} port.
 */
package dev.ratelimit.app.bank;
