/**
 * Dagger wiring of the example chain, one root component per chain ({@link
 * dev.ratelimit.app.inject.ChainComponent}): the rate-limit modules ({@code RateLimitCoreModule},
 * {@code RateLimitMiddlewareModule}, {@code RateLimitMiddlewareV2Module}, {@code
 * RateLimitGovModule}), the chain's own {@link dev.ratelimit.app.inject.AppModule}, and {@link
 * dev.ratelimit.app.inject.RateLimitWiringModule} and {@link
 * dev.ratelimit.app.inject.IbcV2WiringModule}, which hold everything a chain writes to plug the
 * rate limiter in (IBC v1, then IBC v2).
 */
package dev.ratelimit.app.inject;
