/**
 * Test fixtures shared by every module's tests (published in the core test-jar): fake host ports
 * ({@link dev.ratelimit.core.testing.FakeBank}, {@link dev.ratelimit.core.testing.FakeChannels}),
 * an event recorder, both store engines and a {@link dev.ratelimit.core.testing.TestChain} that
 * ties them to a keeper.
 */
package dev.ratelimit.core.testing;
