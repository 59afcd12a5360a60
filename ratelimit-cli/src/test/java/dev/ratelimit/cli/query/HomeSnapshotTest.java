package dev.ratelimit.cli.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The temporary copy a home query reads: what its shutdown hook does when Ctrl-C or SIGTERM comes
 * while the copy is being taken. Before, the hook deleted the files copied so far while the copy
 * went on writing, and a stopped query left most of a database in the temporary directory.
 */
class HomeSnapshotTest {
  @TempDir Path tmp;

  @Test
  void aStopDuringTheCopy_leavesNothing() throws Exception {
    Path data = tmp.resolve("data");
    Files.createDirectories(data.resolve("sub"));
    for (int i = 0; i < 400; i++) {
      Files.write(data.resolve((i % 2 == 0 ? "" : "sub/") + i + ".ldb"), new byte[512]);
    }
    for (int round = 0; round < 20; round++) {
      HomeSnapshot.TempCopy copy =
          new HomeSnapshot.TempCopy(Files.createDirectory(tmp.resolve("copy-" + round)));
      AtomicReference<Throwable> failed = new AtomicReference<>();
      Thread copying = new Thread(() -> {
        try {
          HomeSnapshot.copyTree(data, copy);
        } catch (IOException | RuntimeException e) {
          failed.set(e);
        }
      });
      copying.start();
      while (copying.isAlive() && files(copy.dir) < 20) {
        Thread.onSpinWait(); // the stop comes in the middle of the copy (or after it, if fast)
      }

      copy.delete(); // what the hook does
      copying.join();

      assertFalse(Files.exists(copy.dir), "round " + round + ": a file written after the stop");
      if (failed.get() != null) {
        assertEquals(UncheckedIOException.class, failed.get().getClass(), failed.get().toString());
      }
      copy.discard(); // unregisters the hook
    }
  }

  /**
   * A home this user may not read (a node's own, mode 700) is "permission denied", not "no
   * database". Root reads everything, so this runs only as another user (checked by hand as
   * nobody on 2026-11-28, home, data directory and files each made unreadable in turn).
   */
  @Test
  void anUnreadableHome_isPermissionDenied_notNoDatabase() throws IOException {
    Path home = tmp.resolve("home");
    Path data = Files.createDirectories(home.resolve("data"));
    Path current = Files.writeString(data.resolve("CURRENT"), "MANIFEST-000002\n");
    java.util.Set<java.nio.file.attribute.PosixFilePermission> none = java.util.Set.of();
    java.util.Set<java.nio.file.attribute.PosixFilePermission> open =
        java.nio.file.attribute.PosixFilePermissions.fromString("rwx------");
    try {
      Files.setPosixFilePermissions(data, none);
      org.junit.jupiter.api.Assumptions.assumeFalse(Files.isReadable(data), "root reads it anyway");
      assertEquals("cannot read the database of " + home + ": permission denied on " + current
              + " (run the query as a user who may read the home, such as the node's)",
          assertThrows(HomeException.class, () -> HomeSnapshot.open(home)).getMessage());
      Files.setPosixFilePermissions(data, open);
      Files.setPosixFilePermissions(current, none);
      assertEquals("cannot read the database of " + home + ": permission denied on " + current
              + " (run the query as a user who may read the home, such as the node's)",
          assertThrows(HomeException.class, () -> HomeSnapshot.open(home)).getMessage());
    } finally {
      Files.setPosixFilePermissions(data, open);
      Files.setPosixFilePermissions(current, open);
    }
  }

  @Test
  void afterTheStop_nothingIsWrittenIntoTheCopy() throws IOException {
    Path file = Files.write(tmp.resolve("CURRENT"), new byte[] {1});
    HomeSnapshot.TempCopy copy = new HomeSnapshot.TempCopy(Files.createDirectory(tmp.resolve("c")));
    copy.delete();

    assertThrows(UncheckedIOException.class, () -> copy.copy(file, copy.dir.resolve("CURRENT")));
    assertThrows(UncheckedIOException.class, () -> copy.createDirectories(copy.dir));
    assertThrows(UncheckedIOException.class, () -> copy.open(new java.util.ArrayList<>()));
    assertFalse(Files.exists(copy.dir));
    copy.discard();
  }

  private static long files(Path dir) {
    try (Stream<Path> s = Files.walk(dir)) {
      return s.count();
    } catch (IOException | UncheckedIOException e) {
      return 0; // deleted meanwhile
    }
  }
}
