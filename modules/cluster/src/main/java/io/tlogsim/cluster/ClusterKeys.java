package io.tlogsim.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigValueFactory;
import io.tlogsim.scenario.BadInputException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.List;
import java.util.Map;

/**
 * The key material of a tlogsim cluster, one directory that every node and client of the cluster has (made by
 * deploy/cluster-keys.sh with the JDK's keytool): {@code cluster.p12}, the key pair every member presents;
 * {@code trust.p12}, the certificates members accept (two during a rotation); {@code password}, theirs. Remoting is
 * Artery over TLS 1.3 with mutual authentication: a process without these keys can neither join nor submit a run.
 *
 * <p>Where they are found (docs/security.md): a node takes them only where it is told ({@code --keys DIR},
 * {@value #ENV}, or {@code tlogsim.node.keys} in its --config file), and never starts without them; a client (run or
 * sweep --cluster) takes {@value #ENV}, else {@code DATA/cluster/keys}, where deploy/local-cluster.sh makes them.
 */
public record ClusterKeys(Path dir, String password) {
  public static final String ENV = "TLOGSIM_CLUSTER_KEYS";
  static final String KEY_PAIR = "cluster.p12";
  static final String TRUST = "trust.p12";
  static final String PASSWORD = "password";
  private static final String MAKE = "deploy/cluster-keys.sh new DIR makes them (docs/security.md)";
  private static final String MAKE_SHORT = "deploy/cluster-keys.sh new DIR makes them; docs/security.md";

  @Override
  public String toString() {
    return "ClusterKeys[" + dir + "]"; // never the password
  }

  /** The keys of the data directory's local cluster (deploy/local-cluster.sh): DATA/cluster/keys. */
  public static Path ofData(Path dataDir) {
    return dataDir.resolve("cluster").resolve("keys");
  }

  /** A node's keys: {@code given} (--keys), else TLOGSIM_CLUSTER_KEYS, else the config's tlogsim.node.keys. */
  public static ClusterKeys forNode(String given, Config config) {
    String env = System.getenv(ENV);
    String where = given != null ? given : env != null && !env.isBlank() ? env
        : config.hasPath("tlogsim.node.keys") ? config.getString("tlogsim.node.keys") : null;
    if (where == null || where.isBlank()) {
      throw new BadInputException("node: no cluster keys: give --keys DIR or " + ENV + "=DIR, the cluster's keys ("
          + MAKE_SHORT + "); a node neither joins nor forms a cluster without them");
    }
    return in(Path.of(where));
  }

  /** A client's keys: TLOGSIM_CLUSTER_KEYS, else DATA/cluster/keys. */
  public static ClusterKeys forClient(Path dataDir) {
    String env = System.getenv(ENV);
    if (env != null && !env.isBlank()) return in(Path.of(env));
    Path local = ofData(dataDir);
    if (Files.isRegularFile(local.resolve(KEY_PAIR))) return in(local);
    throw new BadInputException("--cluster: no cluster keys: set " + ENV + "=DIR to the cluster's keys, or keep"
        + " them in " + local + " (deploy/local-cluster.sh makes them there; " + MAKE + ")");
  }

  /** The keys in {@code dir}, checked: all there, readable by their owner alone, opened by their password. */
  public static ClusterKeys in(Path dir) {
    for (String f : List.of(KEY_PAIR, TRUST, PASSWORD)) {
      Path p = dir.resolve(f);
      if (!Files.isRegularFile(p)) {
        throw new BadInputException("cluster keys " + dir + ": no " + f + " (" + MAKE + ")");
      }
      if (!f.equals(TRUST) && readableByOthers(p)) {
        throw new BadInputException("cluster keys " + dir + ": " + f + " may be read by others; chmod 600 it");
      }
    }
    String password;
    try {
      password = Files.readString(dir.resolve(PASSWORD), StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new BadInputException("cluster keys " + dir + ": the password cannot be read (" + e.getMessage() + ")");
    }
    ClusterKeys keys = new ClusterKeys(dir.toAbsolutePath().normalize(), password);
    keys.open(KEY_PAIR);
    KeyStore trust = keys.open(TRUST);
    try {
      if (trust.size() == 0) throw new BadInputException("cluster keys " + dir + ": trust.p12 trusts nothing");
    } catch (java.security.KeyStoreException e) {
      throw new BadInputException("cluster keys " + dir + ": trust.p12 cannot be read (" + e.getMessage() + ")");
    }
    return keys;
  }

  private KeyStore open(String file) {
    try (InputStream in = Files.newInputStream(dir.resolve(file))) {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(in, password.toCharArray());
      return ks;
    } catch (IOException | GeneralSecurityException e) {
      throw new BadInputException("cluster keys " + dir + ": " + file + " cannot be opened with its password ("
          + e.getMessage() + ")");
    }
  }

  private static boolean readableByOthers(Path p) {
    if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) return false;
    try {
      return Files.getPosixFilePermissions(p).stream().anyMatch(x -> x != PosixFilePermission.OWNER_READ
          && x != PosixFilePermission.OWNER_WRITE && x != PosixFilePermission.OWNER_EXECUTE);
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Artery over TLS 1.3 with these keys, both ways authenticated (a member presents the cluster's key pair and accepts
   * only peers that present one trust.p12 holds). Host names are not checked: members are known by their key.
   */
  Config tls() {
    String p = "pekko.remote.artery.ssl.config-ssl-engine.";
    return ConfigFactory.parseMap(Map.of(
        "pekko.remote.artery.transport", "tls-tcp",
        "pekko.remote.artery.ssl.ssl-engine-provider", "org.apache.pekko.remote.artery.tcp.ConfigSSLEngineProvider",
        p + "key-store", dir.resolve(KEY_PAIR).toString(),
        p + "key-store-password", password,
        p + "key-password", password,
        p + "trust-store", dir.resolve(TRUST).toString(),
        p + "trust-store-password", password,
        p + "protocol", "TLSv1.3",
        p + "require-mutual-authentication", "on",
        p + "hostname-verification", "off"))
        .withValue(p + "enabled-algorithms",
            ConfigValueFactory.fromIterable(List.of("TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256")));
  }
}
