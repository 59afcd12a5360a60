/**
 * Genesis import, export and validation: {@link dev.ratelimit.core.genesis.Genesis} records and
 * their protobuf JSON form ({@link dev.ratelimit.core.genesis.GenesisCodec}), read with the rules
 * of Go's protojson that protobuf-java's parser lacks ({@link
 * dev.ratelimit.core.genesis.ProtoJson}, which applies to any {@code ratelimit.v1} message).
 */
package dev.ratelimit.core.genesis;
