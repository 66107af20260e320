package io.tlogsim.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Cluster keys for tests, made by deploy/cluster-keys.sh as an operator makes them: one cluster's, and others. */
final class TestKeys {
  private static ClusterKeys cluster;

  private TestKeys() {}

  /** The keys of the tests' cluster (made once per JVM). */
  static synchronized ClusterKeys cluster() {
    if (cluster == null) cluster = make();
    return cluster;
  }

  /** Keys of another cluster: a key pair and trust store of their own. */
  static ClusterKeys other() {
    return make();
  }

  private static ClusterKeys make() {
    try {
      Path dir = Files.createTempDirectory("tlogsim-keys").resolve("keys");
      dir.getParent().toFile().deleteOnExit();
      Path script = Path.of("../../deploy/cluster-keys.sh").toAbsolutePath().normalize();
      Process p = new ProcessBuilder("bash", script.toString(), "new", dir.toString()).redirectErrorStream(true)
          .start();
      String out = new String(p.getInputStream().readAllBytes());
      if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
        throw new IllegalStateException("deploy/cluster-keys.sh new failed: " + out);
      }
      return ClusterKeys.in(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
