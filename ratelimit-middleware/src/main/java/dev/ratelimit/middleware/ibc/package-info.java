/**
 * IBC port types, minimal but faithful to ibc-go: {@link dev.ratelimit.middleware.ibc.Packet},
 * {@link dev.ratelimit.middleware.ibc.Height}, {@link
 * dev.ratelimit.middleware.ibc.Acknowledgement}, the module callbacks ({@link
 * dev.ratelimit.middleware.ibc.IbcModule}) and the ICS4 wrapper ({@link
 * dev.ratelimit.middleware.ibc.Ics4Wrapper}) that a middleware sits between.
 *
 * <p>{@link dev.ratelimit.middleware.ibc.AcknowledgementCodec} is the one acknowledgement decoder
 * shared by the middleware and the transfer app; {@link dev.ratelimit.middleware.ibc.GoJson} writes
 * and reads JSON exactly as the Go side does where bytes matter.
 */
package dev.ratelimit.middleware.ibc;
