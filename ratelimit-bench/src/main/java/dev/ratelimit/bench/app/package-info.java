/**
 * Item 4: the example app's two chains end to end, with and without the rate-limit middleware in
 * the transfer stack.
 */
package dev.ratelimit.bench.app;
