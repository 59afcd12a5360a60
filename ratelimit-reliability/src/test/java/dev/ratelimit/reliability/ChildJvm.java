package dev.ratelimit.reliability;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM on this test run's classpath running a main class, with its stdout read line by line
 * on a thread; {@link #kill()} is {@link ProcessHandle#destroyForcibly()}, SIGKILL on Linux.
 */
final class ChildJvm implements AutoCloseable {
  /** What {@link #next} returns once the child's stdout is closed. */
  static final String EOF = "<eof>";

  private final Process process;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
  private final List<String> seen = new ArrayList<>();

  private ChildJvm(Process process) {
    this.process = process;
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          lines.add(line);
        }
      } catch (IOException e) {
        lines.add("<read error " + e + ">");
      } finally {
        lines.add(EOF);
      }
    }, "child-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts {@code main} with {@code jvmArgs} (system properties, heap) and {@code args}; stderr
   * goes to {@code stderr}.
   */
  static ChildJvm start(List<String> jvmArgs, Class<?> main, Path stderr, String... args) {
    String java = ProcessHandle.current().info().command()
        .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("-Xmx256m");
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.addAll(jvmArgs);
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    try {
      return new ChildJvm(new ProcessBuilder(cmd)
          .redirectError(ProcessBuilder.Redirect.appendTo(stderr.toFile()))
          .start());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + cmd, e);
    }
  }

  /** The next stdout line ({@link #EOF} at the end), waiting up to {@code seconds}. */
  String next(long seconds) {
    try {
      String line = lines.poll(seconds, TimeUnit.SECONDS);
      if (line == null) {
        throw new AssertionError("child printed nothing for " + seconds + " s; seen " + tail());
      }
      if (!line.equals(EOF)) {
        seen.add(line);
      }
      return line;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  /** Every remaining line until the child's stdout closes. */
  List<String> drain(long seconds) {
    List<String> rest = new ArrayList<>();
    for (String line; !(line = next(seconds)).equals(EOF); ) {
      rest.add(line);
    }
    return rest;
  }

  /**
   * SIGKILL, then waits for the process to be gone. Through the {@link ProcessHandle}: {@link
   * Process#destroyForcibly()} also closes our end of the pipes, losing lines the child wrote
   * just before it died; the handle only signals, so {@link #drain} still reads them.
   */
  void kill() {
    process.toHandle().destroyForcibly();
    waitFor();
  }

  int waitFor() {
    try {
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("child did not exit");
      }
      return process.exitValue();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    }
  }

  private String tail() {
    return seen.subList(Math.max(0, seen.size() - 5), seen.size()).toString();
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      kill();
    }
  }
}
