/**
 * The rate-limit IBC middleware ({@link dev.ratelimit.middleware.RateLimitMiddleware} for IBC v1
 * channels, {@link dev.ratelimit.middleware.RateLimitMiddlewareV2} for IBC v2 clients, one set of
 * rules) and what it needs to read ICS-20 traffic exactly like the transfer app it wraps.
 *
 * <ul>
 *   <li>{@link dev.ratelimit.middleware.ibc}: the IBC port types (packets, acknowledgements, module
 *       callbacks, ICS4 wrapper) and the one shared acknowledgement decoder; {@link
 *       dev.ratelimit.middleware.ibc.v2} those of IBC v2 (payloads, callbacks, async acks);
 *   <li>{@link dev.ratelimit.middleware.transfer}: the one shared ICS-20 packet data codec (and its
 *       IBC v2 payload form) and the denom resolver, also used by the transfer app so limiter and
 *       app never read a packet differently.
 * </ul>
 */
package dev.ratelimit.middleware;
