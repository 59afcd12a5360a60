/**
 * Governance of the rate-limit module: the four authority-only messages (add, update, remove and
 * reset a rate limit), their router by protobuf {@code Any} type URL, and the handler of a passed
 * governance proposal (all messages apply or none).
 *
 * <p>Entry points: {@link dev.ratelimit.gov.RateLimitMsgHandler} (typed messages), {@link
 * dev.ratelimit.gov.MsgRouter} ({@code Any} in, {@code Any} out) and {@link
 * dev.ratelimit.gov.ProposalHandler} (a proposal's message list). The host may plug an {@link
 * dev.ratelimit.gov.AddressCodec} (e.g. bech32) to check the signer's address format. Every
 * rejection is a {@link dev.ratelimit.core.RateLimitException} whose {@link
 * dev.ratelimit.core.ErrorCode} is stable; a rejected message or proposal writes nothing. The
 * router and the proposal handler also {@code validate} without executing: the checks that read
 * no state, which a host runs when a proposal is submitted.
 */
package dev.ratelimit.gov;
