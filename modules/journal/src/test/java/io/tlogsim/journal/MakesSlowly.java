package io.tlogsim.journal;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;

/**
 * A process making a new H2 journal slowly and in place, as a run of an earlier tlogsim did (its keys already stored;
 * a run now makes it aside): args the data directory and the pause in ms. Prints "half" once half the schema is
 * made, "made" once all of it and the users are, and holds the file open (shared) until its stdin closes.
 */
public final class MakesSlowly {
  private MakesSlowly() {}

  public static void main(String[] args) throws Exception {
    JournalDatabase.h2Properties();
    JournalSettings s = JournalSettings.of(JournalKind.H2, Path.of(args[0])).withShared(true);
    H2Keys keys = H2Keys.find(s);
    List<String> schema = JournalDatabase.createStatements(JournalKind.H2);
    try (Connection c = JournalDatabase.connect(keys.owner(s)); Statement st = c.createStatement()) {
      for (String q : schema.subList(0, schema.size() / 2)) st.execute(q);
      System.out.println("half");
      System.out.flush();
      Thread.sleep(Long.parseLong(args[1]));
      for (String q : schema.subList(schema.size() / 2, schema.size())) st.execute(q);
      keys.grant(c);
      System.out.println("made");
      System.out.flush();
      while (System.in.read() >= 0) {
        // until the parent closes stdin
      }
    }
  }
}
