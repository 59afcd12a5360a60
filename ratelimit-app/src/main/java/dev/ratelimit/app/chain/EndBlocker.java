package dev.ratelimit.app.chain;

import dev.ratelimit.core.host.BlockContext;

/**
 * Extra EndBlock work a module plugs into the chain (Dagger {@code @IntoSet}); runs after
 * governance, in the set's order. For example an app below the rate-limit middleware that writes
 * asynchronous acknowledgements later.
 */
@FunctionalInterface
public interface EndBlocker {
  void endBlock(BlockContext ctx);
}
