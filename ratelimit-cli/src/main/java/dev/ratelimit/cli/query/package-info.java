/**
 * Operator queries over a node's home: opening its LevelDB so that a query never changes it
 * ({@link dev.ratelimit.cli.query.HomeSnapshot}), the counterparty chain ids a home records
 * ({@link dev.ratelimit.cli.query.ChannelsFile}) and the output formats (protobuf JSON like the Go
 * CLI, or aligned text tables).
 */
package dev.ratelimit.cli.query;
