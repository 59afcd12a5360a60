package dev.ratelimit.cli.query;

import java.util.Objects;
import java.util.function.BiFunction;

/**
 * Where the operator queries are answered: a copy of a node home, or a running node over its
 * CometBFT RPC. Both take the {@code ratelimit.v1.Query} service's requests as ABCI queries do
 * (the gRPC method path, protobuf bytes in and out), so the same request prints the same answer
 * from either.
 */
public interface QuerySource {

  /**
   * Answers one query.
   *
   * @param path the method's path, {@code /ratelimit.v1.Query/<Rpc>}
   * @param request the encoded request message
   * @return the encoded response message
   */
  byte[] query(String path, byte[] request);

  /**
   * Answers one query, with the path that answered it: a node may serve the method under another
   * service's name ({@link QueryPaths}), which a message about its answer must name.
   */
  default Answer answer(String path, byte[] request) {
    return new Answer(path, query(path, request));
  }

  /** An encoded response and the method path that gave it. */
  record Answer(String path, byte[] value) {
    public Answer {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(value, "value");
    }
  }

  /** What answers, for messages: {@code home DIR}, {@code node URL}. */
  String name();

  /** A source named {@code name} that answers with {@code answer}. */
  static QuerySource of(String name, BiFunction<String, byte[], byte[]> answer) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(answer, "answer");
    return new QuerySource() {
      @Override
      public byte[] query(String path, byte[] request) {
        return answer.apply(path, request);
      }

      @Override
      public String name() {
        return name;
      }
    };
  }
}
