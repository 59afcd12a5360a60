/**
 * Dagger wiring of the example chain, one root component per chain ({@link
 * dev.ratelimit.app.inject.ChainComponent}): the rate-limit modules ({@code RateLimitCoreModule},
 * {@code RateLimitMiddlewareModule}, {@code RateLimitGovModule}), the chain's own {@link
 * dev.ratelimit.app.inject.AppModule} and {@link dev.ratelimit.app.inject.RateLimitWiringModule},
 * which holds everything a chain writes to plug the rate limiter in.
 */
package dev.ratelimit.app.inject;
