/**
 * The {@code ratelimit} command line (picocli): {@code simulate}, the operator queries, {@code
 * genesis export|validate} and {@code demo}. {@link dev.ratelimit.cli.Main#run} is the in-process
 * entry point (tests call it; {@code main} only adds {@code System.exit}).
 *
 * <p>Exit codes: 0 success; 1 a scenario failed, or what a query asked for does not exist (a path
 * with no rate limit, code 2); 2 usage or input error (unknown flag, missing argument, malformed
 * scenario or genesis, a home with no database, an invalid channel id); 3 internal error.
 */
package dev.ratelimit.cli;
