/** Dagger wiring of the rate-limit middleware. */
package dev.ratelimit.middleware.inject;
