package io.tlogsim.analysis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/** A file a reader never sees half written: made beside its place under a temporary name, then moved there. */
final class AtomicFile {
  /** Writes the temporary file it is given. */
  interface Writer {
    void write(Path tmp) throws IOException;
  }

  private AtomicFile() {}

  /** Replaces {@code target} with what {@code writer} writes; on a failure (a full disk) no temporary file is left. */
  static Path replace(Path target, Writer writer) throws IOException {
    Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
    try {
      writer.write(tmp);
      try {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } catch (IOException atomicNotSupported) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      Files.deleteIfExists(tmp);
      throw e;
    }
    return target;
  }
}
