/**
 * IBC v2 port types (ibc-go's {@code 04-channel/v2} types and {@code core/api} callbacks): packets
 * between two light clients, each carrying a {@link dev.ratelimit.middleware.ibc.v2.Payload} for
 * one application. {@link dev.ratelimit.middleware.ibc.v2.IbcModule} is what IBC core calls per
 * payload; {@link dev.ratelimit.middleware.ibc.v2.WriteAcknowledgementWrapper} is how an
 * application writes an asynchronous acknowledgement, and {@link
 * dev.ratelimit.middleware.ibc.v2.AsyncPackets} how a middleware finds the packet it belongs to.
 *
 * <p>There is no handshake and no channel: a packet names its source and destination client ids,
 * which the rate limiter uses where an IBC v1 packet has channel ids.
 */
package dev.ratelimit.middleware.ibc.v2;
