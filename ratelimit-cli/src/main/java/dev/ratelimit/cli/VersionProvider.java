package dev.ratelimit.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/** {@code --version}: the project version, filtered into {@code version.properties} at build. */
final class VersionProvider implements CommandLine.IVersionProvider {
  static String version() {
    Properties p = new Properties();
    try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // fall through to "unknown"
    }
    String v = p.getProperty("version", "unknown");
    return v.startsWith("${") ? "unknown" : v;
  }

  @Override
  public String[] getVersion() {
    return new String[] {
      "ratelimit " + version(),
      "IBC ICS-20 transfer rate limiting for Java chains (a port of Stride's x/ratelimit)",
      "Java " + System.getProperty("java.version")
    };
  }
}
