package dev.ratelimit.gov;

import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.keeper.RateLimitEvents;
import dev.ratelimit.core.model.Path;
import dev.ratelimit.core.model.RateLimit;

/** Builds the events of executed governance messages (documented on {@link RateLimitMsgHandler}). */
final class GovEvents {
  private GovEvents() {}

  static Event added(RateLimit rl) {
    return withQuotaAndValue(RateLimitMsgHandler.EVENT_ADD_RATE_LIMIT, rl);
  }

  static Event updated(RateLimit rl) {
    return withQuotaAndValue(RateLimitMsgHandler.EVENT_UPDATE_RATE_LIMIT, rl);
  }

  static Event removed(Path path) {
    return Event.of(
        RateLimitMsgHandler.EVENT_REMOVE_RATE_LIMIT,
        "module", RateLimitEvents.MODULE,
        "denom", path.denom(),
        "channel_or_client", path.channelOrClientId());
  }

  static Event reset(RateLimit rl) {
    return Event.of(
        RateLimitMsgHandler.EVENT_RESET_RATE_LIMIT,
        "module", RateLimitEvents.MODULE,
        "denom", rl.path().denom(),
        "channel_or_client", rl.path().channelOrClientId(),
        "channel_value", rl.flow().channelValue().toString());
  }

  private static Event withQuotaAndValue(String type, RateLimit rl) {
    return Event.of(
        type,
        "module", RateLimitEvents.MODULE,
        "denom", rl.path().denom(),
        "channel_or_client", rl.path().channelOrClientId(),
        "max_percent_send", Integer.toString(rl.quota().maxPercentSend()),
        "max_percent_recv", Integer.toString(rl.quota().maxPercentRecv()),
        "duration_hours", Long.toUnsignedString(rl.quota().durationHours()),
        "channel_value", rl.flow().channelValue().toString());
  }
}
