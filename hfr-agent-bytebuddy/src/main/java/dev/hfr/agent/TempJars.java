package dev.hfr.agent;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Set;

/**
 * The jars the agent writes into the JVM's temporary folder ({@code java.io.tmpdir}): the copies of its nested jars
 * ({@link NestedJar}) and the bridge's fallback jar ({@link BootstrapInjector}). Only a JVM started with
 * {@code prometheus.port}, or one whose bootstrap loader refuses the direct definition, writes one.
 *
 * <p>Each is deleted when its JVM exits, but a JVM killed with {@code SIGKILL} (or that crashes) runs no exit code, and
 * a fleet of restarted workers would fill the folder. So a jar's name carries its JVM's process id,
 * {@code hfr-agent-KIND-PID-UNIQUE.jar}, and the first time a JVM writes one, it removes the jars of that pattern
 * whose JVM is gone ({@code ProcessHandle.of(pid)} is empty, or the pid is this JVM's own: a process before it). It
 * removes only regular files the JVM's user owns, never follows a symbolic link, and leaves every other name alone
 * (docs/AGENT.md, "Temporary files"). A pid another process took since is left until that process ends too.
 */
final class TempJars {

  private static final String PREFIX = "hfr-agent-";
  private static final String SUFFIX = ".jar";
  /** Attempts at a new name before giving up: a name is taken only by a jar of this JVM written in the same nanosecond. */
  private static final int NAME_ATTEMPTS = 16;

  private static boolean swept;

  private TempJars() {}

  /**
   * Writes {@code content} to a new file {@code hfr-agent-KIND-PID-UNIQUE.jar} in the temporary folder, readable and
   * writable by this user alone (where the file system has POSIX permissions), deleted when the JVM exits; the first
   * time, then removes the jars earlier JVMs left behind ({@link #removeLeftOvers}).
   *
   * @param kind lower-case letters, what the jar holds ({@code libraries}, {@code bootstrap})
   * @throws IOException when the folder is missing or not writable
   */
  static Path write(String kind, InputStream content) throws IOException {
    return write(Path.of(System.getProperty("java.io.tmpdir")), kind, content);
  }

  /** {@link #write(String, InputStream)} into {@code folder}. */
  static synchronized Path write(Path folder, String kind, InputStream content) throws IOException {
    long pid = ProcessHandle.current().pid();
    Path jar = create(folder, kind, pid, content);
    if (!swept) {
      swept = true;
      removeLeftOvers(folder, jar, pid);
    }
    return jar;
  }

  private static Path create(Path folder, String kind, long pid, InputStream content) throws IOException {
    boolean posix = folder.getFileSystem().supportedFileAttributeViews().contains("posix");
    FileAttribute<?>[] ownerOnly = posix
        ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
        : new FileAttribute<?>[0];
    // a unique name without Files.createTempFile, whose SecureRandom costs start-up time; CREATE_NEW fails on
    // whatever is there already, a symbolic link included
    long unique = System.nanoTime();
    for (int attempt = 1; ; attempt++, unique++) {
      Path jar = folder.resolve(PREFIX + kind + "-" + pid + "-" + Long.toHexString(unique) + SUFFIX);
      try (OutputStream out = Channels.newOutputStream(
          Files.newByteChannel(jar, Set.of(StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), ownerOnly))) {
        jar.toFile().deleteOnExit();
        content.transferTo(out);
        return jar;
      } catch (FileAlreadyExistsException taken) {
        if (attempt == NAME_ATTEMPTS) {
          throw taken;
        }
      }
    }
  }

  /**
   * Removes the jars in {@code folder} that JVMs which are gone left behind; never throws: what cannot be removed is
   * reported in one line on stderr, and the agent goes on.
   */
  static void removeLeftOvers(Path folder, Path own, long ownPid) {
    long began = System.nanoTime();
    // names, not Paths: a Path per name cost ~7 µs at start-up (interpreted), a name ~1 µs (docs/AGENT.md)
    String[] names = folder.toFile().list();
    if (names == null) {
      AgentLog.warn("could not look for jars left in " + folder + " by JVMs that are gone: the folder cannot be listed");
      return;
    }
    int removed = 0;
    int failed = 0;
    Exception firstFailure = null;
    try {
      UserPrincipal user = Files.getOwner(own, LinkOption.NOFOLLOW_LINKS);
      boolean posix = folder.getFileSystem().supportedFileAttributeViews().contains("posix");
      for (String name : names) {
        long pid = pidOf(name);
        if (pid <= 0 || (pid != ownPid && ProcessHandle.of(pid).isPresent())) {
          continue;
        }
        Path entry = folder.resolve(name);
        try {
          if (!entry.equals(own) && ownedRegularFile(entry, user, posix)) {
            Files.delete(entry);
            removed++;
          }
        } catch (NoSuchFileException goneAlready) {
          // another JVM removed it meanwhile
        } catch (IOException | RuntimeException e) {
          failed++;
          firstFailure = firstFailure == null ? e : firstFailure;
        }
      }
    } catch (IOException | RuntimeException e) {
      AgentLog.warn("could not look for jars left in " + folder + " by JVMs that are gone: " + e);
      return;
    }
    if (failed > 0) {
      AgentLog.warn("could not remove " + failed + " jar(s) left in " + folder + " by JVMs that are gone: " + firstFailure);
    }
    AgentLog.debug("removed " + removed + " jar(s) left in " + folder + " by JVMs that are gone in " + AgentLog.millisSince(began)
        + " (" + names.length + " names read)");
  }

  /** Whether {@code entry} itself (not what a link names) is a regular file whose owner is {@code user}. */
  private static boolean ownedRegularFile(Path entry, UserPrincipal user, boolean posix) throws IOException {
    if (posix) {
      PosixFileAttributes attributes = Files.readAttributes(entry, PosixFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
      return attributes.isRegularFile() && attributes.owner().equals(user);
    }
    return Files.readAttributes(entry, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).isRegularFile()
        && Files.getOwner(entry, LinkOption.NOFOLLOW_LINKS).equals(user);
  }

  /**
   * The process id in a name {@code hfr-agent-KIND-PID-UNIQUE.jar} (KIND lower-case letters, PID decimal, UNIQUE
   * lower-case hexadecimal, 16 digits at most), or -1 for any other name.
   */
  static long pidOf(String name) {
    if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX)) {
      return -1;
    }
    String middle = name.substring(PREFIX.length(), name.length() - SUFFIX.length());
    int kindEnd = middle.indexOf('-');
    int pidEnd = middle.indexOf('-', kindEnd + 1);
    if (kindEnd <= 0 || pidEnd < 0 || middle.indexOf('-', pidEnd + 1) >= 0
        || !all(middle, 0, kindEnd, "abcdefghijklmnopqrstuvwxyz")
        || !all(middle, kindEnd + 1, pidEnd, "0123456789") || pidEnd - kindEnd - 1 > 18
        || !all(middle, pidEnd + 1, middle.length(), "0123456789abcdef") || middle.length() - pidEnd - 1 > 16) {
      return -1;
    }
    return Long.parseLong(middle, kindEnd + 1, pidEnd, 10);
  }

  /** Whether {@code s[from, to)} is not empty and made of {@code allowed} alone. */
  private static boolean all(String s, int from, int to, String allowed) {
    if (from >= to) {
      return false;
    }
    for (int i = from; i < to; i++) {
      if (allowed.indexOf(s.charAt(i)) < 0) {
        return false;
      }
    }
    return true;
  }
}
