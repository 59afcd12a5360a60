package dev.ratelimit.cli;

import java.io.PrintStream;

/** Where a command writes: its results to {@code out}, diagnostics to {@code err}. */
record Io(PrintStream out, PrintStream err) {

  /** A warning on {@code err}, in the one form every command uses. */
  void warn(String message) {
    err.println("ratelimit: warning: " + message);
  }
}
