package io.tlogsim.cli;

import io.tlogsim.scenario.BadInputException;
import io.tlogsim.journal.JournalKind;
import io.tlogsim.journal.JournalSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Which journal the commands that read stored runs (runs, replay, compare) read. */
final class StoreOptions {
  @Option(names = "--journal", paramLabel = "h2|postgres", defaultValue = "h2",
      description = "The journal that holds the runs (default: ${DEFAULT-VALUE}, the H2 file under the data directory;"
          + " postgres: TLOGSIM_JDBC_URL or tlogsim.journal.postgres.url).")
  String journal;

  @Option(names = "--data", paramLabel = "DIR",
      description = "Data directory (default: $TLOGSIM_DATA, else ./data).")
  String data;

  JournalSettings settings() {
    JournalKind kind = JournalKind.parse(journal);
    if (kind == JournalKind.NONE) {
      throw new BadInputException("--journal none: keeps no runs, so there is nothing to read; allowed here: h2, postgres");
    }
    if (data != null && data.isBlank()) throw new BadInputException("--data: must not be empty; give a directory");
    Path dir = dataDir();
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new BadInputException((data != null ? "--data " : "TLOGSIM_DATA ") + dir + ": exists and is not a directory");
    }
    return JournalSettings.of(kind, dir);
  }

  /** {@code --data}, else the environment variable TLOGSIM_DATA, else ./data. */
  Path dataDir() {
    if (data != null) return Path.of(data);
    String env = System.getenv("TLOGSIM_DATA");
    return env != null && !env.isBlank() ? Path.of(env) : Path.of("data");
  }
}
