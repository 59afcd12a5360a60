/** Dagger wiring of the governance module: see {@link dev.ratelimit.gov.inject.RateLimitGovModule}. */
package dev.ratelimit.gov.inject;
