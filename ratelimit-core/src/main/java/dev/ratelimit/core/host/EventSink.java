package dev.ratelimit.core.host;

/** Where a host chain collects the events of a block (for its block results and indexers). */
@FunctionalInterface
public interface EventSink {
  void emit(Event event);

  /** A sink that drops everything (queries, tools). */
  static EventSink discarding() {
    return event -> {};
  }
}
