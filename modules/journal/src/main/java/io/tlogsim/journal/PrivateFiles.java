package io.tlogsim.journal;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Files of the data directory that only their owner may read: the directories tlogsim makes (0700) and the journal's
 * files (0600), whatever the umask. On a file system without POSIX permissions, nothing is changed.
 */
public final class PrivateFiles {
  private static final Set<PosixFilePermission> DIR = PosixFilePermissions.fromString("rwx------");
  private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
  private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

  private PrivateFiles() {}

  /** Creates {@code dir} and its missing parents, each of mode 0700 (existing ones are left as they are). */
  public static void createDirectories(Path dir) throws IOException {
    if (!POSIX) {
      Files.createDirectories(dir);
      return;
    }
    Path abs = dir.toAbsolutePath().normalize();
    Path existing = abs;
    while (existing != null && !Files.exists(existing)) existing = existing.getParent();
    Files.createDirectories(abs, PosixFilePermissions.asFileAttribute(DIR));
    for (Path d = abs; d != null && !d.equals(existing); d = d.getParent()) Files.setPosixFilePermissions(d, DIR);
  }

  /** Creates an empty file of mode 0600; fails if it exists. */
  static void createFile(Path file) throws IOException {
    if (POSIX) Files.createFile(file, PosixFilePermissions.asFileAttribute(FILE));
    else Files.createFile(file);
  }

  /**
   * Puts the whole file {@code made} at {@code file} unless a file is there: a hard link (atomic: the first process
   * wins), else, on a file system without hard links (vfat), a move (not atomic: callers take turns). False if {@code
   * file} was there.
   */
  static boolean placeNew(Path file, Path made) throws IOException {
    try {
      Files.createLink(file, made);
      return true;
    } catch (FileAlreadyExistsException taken) {
      return false;
    } catch (IOException | UnsupportedOperationException noLinks) {
      try {
        Files.move(made, file);
        return true;
      } catch (FileAlreadyExistsException taken) {
        return false;
      }
    }
  }

  /**
   * Gives the directory mode 0700 and its regular files 0600 (H2 makes its files, its lock and trace files as the umask
   * says). Files this user may not change are left alone.
   */
  static void restrict(Path dir) {
    if (!POSIX || !Files.isDirectory(dir)) return;
    try {
      set(dir, DIR);
      try (Stream<Path> files = Files.list(dir)) {
        files.filter(Files::isRegularFile).forEach(f -> set(f, FILE));
      }
    } catch (IOException | RuntimeException e) {
      // a file that vanished meanwhile (a lock file), or one of another user: nothing to tighten here
    }
  }

  private static void set(Path p, Set<PosixFilePermission> mode) {
    try {
      if (!Files.getPosixFilePermissions(p).equals(mode)) Files.setPosixFilePermissions(p, mode);
    } catch (IOException | SecurityException e) {
      // see restrict
    }
  }
}
