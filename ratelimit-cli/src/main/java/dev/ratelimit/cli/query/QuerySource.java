package dev.ratelimit.cli.query;

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
}
