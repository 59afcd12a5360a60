/**
 * ICS-20 fungible token transfers as the rate limiter sees them: the packet data ({@link
 * dev.ratelimit.middleware.transfer.FungibleTokenPacketData}) with its one strict codec ({@link
 * dev.ratelimit.middleware.transfer.PacketDataCodec}, JSON on a v1 channel; {@link
 * dev.ratelimit.middleware.transfer.Ics20PayloadCodec} for an IBC v2 payload, in JSON, protobuf or
 * Solidity ABI, with the same field rules), denom traces ({@link
 * dev.ratelimit.middleware.transfer.DenomTrace}) and the resolver that names the local denom a
 * packet counts against ({@link dev.ratelimit.middleware.transfer.DenomResolver}).
 *
 * <p>The codec and the resolver are shared with the transfer app the middleware wraps: if the
 * limiter and the app read a packet differently, a limit can be bypassed.
 */
package dev.ratelimit.middleware.transfer;
