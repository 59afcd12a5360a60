/**
 * The module's state and business logic ({@link dev.ratelimit.core.keeper.RateLimitKeeper}) over
 * one store schema (package-private {@code Schema}: every table, its id and codecs), plus the
 * module's events and the remaining-capacity query result.
 */
package dev.ratelimit.core.keeper;
