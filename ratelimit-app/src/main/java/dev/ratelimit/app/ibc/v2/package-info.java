/**
 * IBC v2 in the example's in-process IBC core, as ibc-go v10's {@code 04-channel/v2} keeper does
 * it: packets between two light clients whose counterparties are registered, per-client send
 * sequences, v2 packet and acknowledgement commitments, receipts, the universal error
 * acknowledgement for a failed receive, and packets kept for an asynchronous acknowledgement.
 * {@link dev.ratelimit.app.ibc.v2.IbcCoreV2} routes each payload's callbacks by port to a {@link
 * dev.ratelimit.middleware.ibc.v2.IbcModule} and is the {@link
 * dev.ratelimit.middleware.ibc.v2.WriteAcknowledgementWrapper} and {@link
 * dev.ratelimit.middleware.ibc.v2.AsyncPackets} below the rate-limit middleware. Light clients
 * and proofs are trusted, as on IBC v1 ({@code dev.ratelimit.app.ibc}).
 */
package dev.ratelimit.app.ibc.v2;
