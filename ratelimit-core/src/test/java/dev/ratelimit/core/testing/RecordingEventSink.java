package dev.ratelimit.core.testing;

import dev.ratelimit.core.host.Event;
import dev.ratelimit.core.host.EventSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** An {@link EventSink} that keeps every event in emission order. */
public final class RecordingEventSink implements EventSink {
  private final List<Event> events = new ArrayList<>();

  @Override
  public void emit(Event event) {
    events.add(Objects.requireNonNull(event, "event"));
  }

  /** Every event so far, in order (a copy). */
  public List<Event> events() {
    return List.copyOf(events);
  }

  /** The events of one type, in order. */
  public List<Event> ofType(String type) {
    return events.stream().filter(e -> e.type().equals(type)).toList();
  }

  public int size() {
    return events.size();
  }

  public void clear() {
    events.clear();
  }
}
