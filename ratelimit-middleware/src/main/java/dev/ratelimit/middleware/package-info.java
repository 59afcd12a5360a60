/**
 * The rate-limit IBC middleware and what it needs to read ICS-20 traffic exactly like the transfer
 * app it wraps.
 *
 * <ul>
 *   <li>{@link dev.ratelimit.middleware.ibc}: the IBC port types (packets, acknowledgements, module
 *       callbacks, ICS4 wrapper) and the one shared acknowledgement decoder;
 *   <li>{@link dev.ratelimit.middleware.transfer}: the one shared ICS-20 packet data codec and the
 *       denom resolver, also used by the transfer app so limiter and app never read a packet
 *       differently.
 * </ul>
 */
package dev.ratelimit.middleware;
