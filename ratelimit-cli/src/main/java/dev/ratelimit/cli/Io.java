package dev.ratelimit.cli;

import java.io.PrintStream;

/** Where a command writes: its results to {@code out}, diagnostics to {@code err}. */
record Io(PrintStream out, PrintStream err) {}
