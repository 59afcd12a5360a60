/**
 * Value types of the rate-limit module, validated in their constructors: {@link
 * dev.ratelimit.core.model.Path}, {@link dev.ratelimit.core.model.Quota}, {@link
 * dev.ratelimit.core.model.Flow}, {@link dev.ratelimit.core.model.RateLimit}, pending packets,
 * whitelisted pairs and the hour epoch; plus the amount and identifier rules they share.
 */
package dev.ratelimit.core.model;
