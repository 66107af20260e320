package io.tlogsim.journal;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Another process, for {@link H2JournalAccessTest}: {@code connect URL USER PASSWORD SQL...} says whether it got in
 * and what each statement did; {@code hold DATA SECONDS} opens the journal under DATA to read it and keeps it open.
 */
public final class H2Probe {
  private H2Probe() {}

  public static void main(String[] args) throws Exception {
    if (args[0].equals("hold")) {
      try (Journal j = Journal.openForReading(JournalSettings.of(JournalKind.H2, Path.of(args[1])))) {
        System.out.println("HOLDING " + j.settings().shared());
        System.out.flush();
        Thread.sleep(Long.parseLong(args[2]) * 1000);
      }
      System.out.println("RELEASED");
      return;
    }
    try (Connection c = DriverManager.getConnection(args[1], args[2], args[3]); Statement st = c.createStatement()) {
      System.out.println("CONNECTED");
      for (int i = 4; i < args.length; i++) {
        try {
          String v = "";
          if (st.execute(args[i])) {
            try (ResultSet rs = st.getResultSet()) {
              v = rs.next() ? String.valueOf(rs.getObject(1)) : "";
            }
          }
          System.out.println("RAN " + args[i] + " -> " + v);
        } catch (SQLException e) {
          System.out.println("REFUSED " + args[i] + ": " + e.getMessage().lines().findFirst().orElse(""));
        }
      }
    } catch (SQLException e) {
      System.out.println("REFUSED connection: " + e.getMessage().lines().findFirst().orElse(""));
    }
  }
}
