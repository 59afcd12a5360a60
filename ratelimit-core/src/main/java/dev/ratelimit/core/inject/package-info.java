/** Dagger modules of the core. */
package dev.ratelimit.core.inject;
