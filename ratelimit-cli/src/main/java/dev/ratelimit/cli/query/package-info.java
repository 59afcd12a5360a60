/**
 * Operator queries, asked of the {@code ratelimit.v1.Query} service ({@link
 * dev.ratelimit.cli.query.Queries}) through a {@link dev.ratelimit.cli.query.QuerySource}: a
 * node's home opened so that a query never changes it ({@link
 * dev.ratelimit.cli.query.HomeSnapshot}), or a running node's CometBFT RPC ({@link
 * dev.ratelimit.cli.query.NodeClient}); the counterparty chain ids a home records ({@link
 * dev.ratelimit.cli.query.ChannelsFile}) and the output formats (protobuf JSON like the Go CLI, or
 * aligned text tables).
 */
package dev.ratelimit.cli.query;
