/**
 * The ICS-20 fungible token transfer application, wrapped by the rate-limit middleware: it sends
 * through the middleware (its {@link dev.ratelimit.middleware.ibc.Ics4Wrapper}) and IBC core calls
 * it through the middleware. Packet data, denoms and acknowledgements are read with the very
 * functions the middleware uses ({@link dev.ratelimit.middleware.transfer.PacketDataCodec}, {@link
 * dev.ratelimit.middleware.transfer.DenomResolver}, {@link
 * dev.ratelimit.middleware.ibc.AcknowledgementCodec}), so the two never disagree on a packet. Its
 * IBC v2 module, {@link dev.ratelimit.app.transfer.TransferV2}, reads payloads with {@link
 * dev.ratelimit.middleware.transfer.Ics20PayloadCodec} and is called by IBC core through the IBC v2
 * middleware.
 */
package dev.ratelimit.app.transfer;
