package io.tlogsim.journal;

import java.sql.Connection;
import java.sql.DriverManager;

/** A process that holds a database open until its stdin closes: args url, user, password. Prints "open" once open. */
public final class HoldOpen {
  private HoldOpen() {}

  public static void main(String[] args) throws Exception {
    JournalDatabase.h2Properties();
    try (Connection c = DriverManager.getConnection(args[0], args[1], args.length > 2 ? args[2] : "")) {
      c.createStatement().execute("CREATE TABLE IF NOT EXISTS held(x INT)");
      System.out.println("open");
      System.out.flush();
      while (System.in.read() >= 0) {
        // until the parent closes stdin
      }
    }
  }
}
