package dev.ratelimit.cli.query;

/** How a query prints its answer. */
public enum Output {
  /** An aligned table (the default). */
  text,
  /** Protobuf JSON with proto field names, like the Go CLI's {@code --output json}. */
  json
}
