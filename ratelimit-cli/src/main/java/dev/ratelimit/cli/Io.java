package dev.ratelimit.cli;

import java.io.InputStream;
import java.io.PrintStream;

/**
 * A command's streams: it reads {@code in} only where a file argument is {@code -}, writes its
 * results to {@code out} and diagnostics to {@code err}.
 */
record Io(InputStream in, PrintStream out, PrintStream err) {

  /** A warning on {@code err}, in the one form every command uses. */
  void warn(String message) {
    err.println("ratelimit: warning: " + message);
  }
}
