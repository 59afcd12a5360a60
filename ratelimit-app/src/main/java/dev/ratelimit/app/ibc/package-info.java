/**
 * IBC core in-process: clients (trusted: a client state is the counterparty's latest height and
 * time, updated by the relayer), channels on port {@code transfer}, send sequences, packet
 * commitments, receipts and acknowledgement commitments exactly as ibc-go computes them, timeouts
 * by height and by timestamp, and the port router. {@link dev.ratelimit.app.ibc.IbcCore} is the
 * {@link dev.ratelimit.middleware.ibc.Ics4Wrapper} <i>below</i> the rate-limit middleware and the
 * rate limiter's {@link dev.ratelimit.core.host.IbcChannels} port. IBC v2 over the same clients is
 * in {@code dev.ratelimit.app.ibc.v2}.
 */
package dev.ratelimit.app.ibc;
