package dev.ratelimit.core.host;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A typed event with ordered attributes, as a Cosmos SDK chain emits them ({@code transfer_denied},
 * {@code ratelimit_invalid_packet}, ...). Attribute order is insertion order, never hash order.
 */
public record Event(String type, List<Attribute> attributes) {

  /** One key/value attribute. */
  public record Attribute(String key, String value) {
    public Attribute {
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(value, "value");
    }
  }

  public Event {
    Objects.requireNonNull(type, "type");
    if (type.isEmpty()) {
      throw new IllegalArgumentException("event type must not be empty");
    }
    attributes = List.copyOf(attributes);
  }

  /** An event from alternating keys and values: {@code of("t", "k1", "v1", "k2", "v2")}. */
  public static Event of(String type, String... keyValues) {
    if (keyValues.length % 2 != 0) {
      throw new IllegalArgumentException("attributes come as key/value pairs");
    }
    Attribute[] attrs = new Attribute[keyValues.length / 2];
    for (int i = 0; i < attrs.length; i++) {
      attrs[i] = new Attribute(keyValues[2 * i], keyValues[2 * i + 1]);
    }
    return new Event(type, List.of(attrs));
  }

  /** The first attribute with this key. */
  public Optional<String> attribute(String key) {
    return attributes.stream().filter(a -> a.key().equals(key)).map(Attribute::value).findFirst();
  }
}
