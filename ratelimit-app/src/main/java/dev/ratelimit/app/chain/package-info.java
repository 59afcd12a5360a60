/**
 * The example chain application: {@link dev.ratelimit.app.chain.ChainApp} runs blocks (BeginBlock,
 * transactions each in a branch of the block, EndBlock, one atomic commit per block with a
 * deterministic app hash) over one LevelDB under a node home, from an {@link
 * dev.ratelimit.app.chain.AppGenesis}.
 */
package dev.ratelimit.app.chain;
