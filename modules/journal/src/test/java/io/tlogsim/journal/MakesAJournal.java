package io.tlogsim.journal;

import java.nio.file.Path;

/**
 * A run's first step in a child JVM: makes the H2 journal of the data directory args[0] (as a run does, {@code
 * JournalDatabase.prepare(s, true)}). Prints "start" just before and "made" once it is made, then ends. With a second
 * argument "pause": prints "aside" once the journal made aside has its schema and users, before H2 wrote it, and
 * waits there to be killed; "go": after "start", waits for a line on stdin before it makes it, and after "made" for
 * stdin to close (runs started together: one may reach the journal through the other's server).
 */
public final class MakesAJournal {
  private MakesAJournal() {}

  public static void main(String[] args) throws Exception {
    JournalSettings s = JournalSettings.of(JournalKind.H2, Path.of(args[0]));
    if (args.length > 1 && args[1].equals("pause")) {
      JournalDatabase.madeAsideHook = () -> {
        System.out.println("aside");
        System.out.flush();
        try {
          Thread.sleep(600_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      };
    }
    System.out.println("start");
    System.out.flush();
    boolean go = args.length > 1 && args[1].equals("go");
    if (go) new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine();
    JournalDatabase.prepare(s, true);
    System.out.println("made");
    System.out.flush();
    if (go) {
      while (System.in.read() >= 0) {
        // until the parent closes stdin
      }
    }
  }
}
