/**
 * The {@code ratelimit.v1.Query} service ({@link dev.ratelimit.core.query.RateLimitQueryServer}):
 * typed methods per RPC and a router by gRPC method path with protobuf bytes, for a host's ABCI
 * query or gRPC server. The transport is the host's.
 */
package dev.ratelimit.core.query;
