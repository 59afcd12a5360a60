/**
 * Governance, kept simple: the authority is the gov module account; a submitted proposal needs no
 * deposit and no votes: it passes when its voting period (a number of blocks set at genesis, 0 by
 * default) ends, and its messages then execute at that block's EndBlock through the rate-limit
 * module's {@link dev.ratelimit.gov.ProposalHandler} (all or nothing). A message that fails a
 * check needing no state (type URL, decoding, fields, signer) refuses the submission instead.
 */
package dev.ratelimit.app.gov;
