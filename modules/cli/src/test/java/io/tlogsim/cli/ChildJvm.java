package io.tlogsim.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

/**
 * The start of a child JVM's command line that runs tlogsim's classes as this test JVM has them, with one class-data
 * archive (the JDK's CDS) for all the children of this JVM: a test that starts dozens of them (DurableRunTest: some 60)
 * spends most of its time starting JVMs, and each starts on about a third less CPU with the archive (as
 * .ci/replay-every-scenario's JVMs do). What a child computes does not depend on it.
 *
 * <p>Java 17's CDS takes classes from jar files only, and refuses a class path with a non-empty directory: the
 * directories on this JVM's class path (this module's classes and test classes) are copied into jars once, and the
 * children get the same class path with those jars in their places. The archive is dumped at the end of a small
 * journaled run (-XX:ArchiveClassesAtExit); should that fail, the children start without one, as before.
 */
final class ChildJvm {
  private static List<String> prefix;

  private ChildJvm() {}

  /** {@code java [-XX:SharedArchiveFile=...] -cp CLASSPATH}; the caller adds its options before the main class. */
  static synchronized List<String> command() throws IOException, InterruptedException {
    if (prefix == null) prefix = make();
    return new ArrayList<>(prefix);
  }

  private static List<String> make() throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path dir = Files.createTempDirectory("tlogsim-child-jvm");
    Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(dir)));
    List<String> cp = new ArrayList<>();
    int n = 0;
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path p = Path.of(entry);
      if (Files.isDirectory(p)) {
        Path jar = dir.resolve("classes-" + n++ + ".jar");
        jar(p, jar);
        cp.add(jar.toString());
      } else {
        cp.add(entry);
      }
    }
    String classPath = String.join(File.pathSeparator, cp);
    Path jsa = dir.resolve("children.jsa");
    Path log = dir.resolve("cds.log");
    ProcessBuilder pb = new ProcessBuilder(java, "-XX:ArchiveClassesAtExit=" + jsa, "-Dtlogsim.stderr.tty=false",
        "-cp", classPath, Tlogsim.class.getName(), "run", "gcm1", "--set", "simulatedSeconds=0.01", "--out",
        dir.resolve("cds-run").toString(), "--quiet").redirectErrorStream(true).redirectOutput(log.toFile());
    pb.environment().put("TLOGSIM_DATA", dir.resolve("cds-data").toString()); // its journal, apart from the tests'
    Process dump = pb.start();
    boolean ok = dump.waitFor(120, TimeUnit.SECONDS) && dump.exitValue() == 0 && Files.isRegularFile(jsa)
        && Files.size(jsa) > 0;
    if (!ok) {
      dump.destroyForcibly();
      System.err.println("ChildJvm: no class-data archive, the children start without one: " + Files.readString(log));
      return List.of(java, "-cp", classPath);
    }
    return List.of(java, "-XX:SharedArchiveFile=" + jsa, "-cp", classPath);
  }

  private static void delete(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      // a temporary directory left behind
    }
  }

  /** The files under {@code dir} as the jar {@code jar}. */
  private static void jar(Path dir, Path jar) throws IOException {
    try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) files.sorted()::iterator) {
        String name = dir.relativize(f).toString().replace(File.separatorChar, '/');
        if (name.isEmpty()) continue;
        if (Files.isDirectory(f)) {
          out.putNextEntry(new JarEntry(name + "/"));
        } else {
          out.putNextEntry(new JarEntry(name));
          try (var in = Files.newInputStream(f)) {
            in.transferTo((OutputStream) out);
          }
        }
        out.closeEntry();
      }
    }
  }
}
