/**
 * Plumbing shared by the example chain's modules: order-preserving store keys ({@link
 * dev.ratelimit.app.state.Keys}), a small binary value format ({@link
 * dev.ratelimit.app.state.ValueWriter}, {@link dev.ratelimit.app.state.ValueReader}), the chain's
 * identity ({@link dev.ratelimit.app.state.ChainInfo}) and the block in progress ({@link
 * dev.ratelimit.app.state.BlockScope}) for the host ports whose methods take no context.
 */
package dev.ratelimit.app.state;
