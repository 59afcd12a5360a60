/**
 * Genesis import, export and validation: {@link dev.ratelimit.core.genesis.Genesis} records and
 * their protobuf JSON form ({@link dev.ratelimit.core.genesis.GenesisCodec}).
 */
package dev.ratelimit.core.genesis;
