package dev.ratelimit.cli;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** Runs {@link Main#run} in-process with captured streams. */
record Cli(int exit, String out, String err) {

  static Cli run(String... args) {
    return runWithInput(new byte[0], args);
  }

  /** {@link #run} with {@code input} as standard input. */
  static Cli runWithInput(byte[] input, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = Main.run(args, new ByteArrayInputStream(input), o, e);
    }
    return new Cli(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  List<String> outLines() {
    return lines(out);
  }

  List<String> errLines() {
    return lines(err);
  }

  private static List<String> lines(String s) {
    return Arrays.stream(s.split("\n", -1)).filter(l -> !l.isEmpty()).collect(Collectors.toList());
  }

  /** A test resource directory or file as a path. */
  static Path resource(String name) {
    URL url = Cli.class.getResource(name);
    if (url == null) {
      throw new IllegalArgumentException("no test resource " + name);
    }
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
  }
}
