/**
 * Plumbing shared by the example chain's modules: order-preserving store keys ({@link
 * dev.ratelimit.app.state.Keys}), a small binary value format ({@link
 * dev.ratelimit.app.state.ValueWriter}, {@link dev.ratelimit.app.state.ValueReader}) and the
 * chain's identity ({@link dev.ratelimit.app.state.ChainInfo}).
 */
package dev.ratelimit.app.state;
