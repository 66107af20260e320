package io.tlogsim.analysis;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Writes a run's summary to {@code DIR/summary.json} (DESIGN.md, "summary.json"): pretty-printed, keys in the order
 * the summary map gives them, with {@code runId} added first.
 */
public final class SummaryWriter {
  public static final String FILE_NAME = "summary.json";

  private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");
  private static final ObjectWriter JSON = JsonMapper.builder().build()
      .writer(new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n")));

  private SummaryWriter() {}

  /**
   * {@code <scenario>-<seed>-<yyyyMMdd-HHmmss>}, with {@code -2}, {@code -3}, ... appended while {@code taken} says
   * the id is in use. Characters that do not belong in a file name are replaced by {@code _}.
   */
  public static String runId(String scenario, long seed, LocalDateTime time, Predicate<String> taken) {
    String base = scenario.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + seed + "-" + STAMP.format(time);
    String id = base;
    for (int n = 2; taken.test(id); n++) id = base + "-" + n;
    return id;
  }

  /** The summary as it is written: {@code runId} first, then the summary's own keys in their order. */
  public static Map<String, Object> withRunId(String runId, Map<String, ?> summary) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("runId", runId);
    summary.forEach((k, v) -> {
      if (!k.equals("runId")) out.put(k, v);
    });
    return out;
  }

  /** The JSON text of {@link #withRunId}, ending in a newline. */
  public static String toJson(String runId, Map<String, ?> summary) {
    try {
      return JSON.writeValueAsString(withRunId(runId, summary)) + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException("cannot render summary: " + e.getMessage(), e);
    }
  }

  /**
   * Writes {@code dir/summary.json} (the directory must exist) through a temporary file, so a reader never sees half
   * a summary. Returns the path written.
   */
  public static Path write(Path dir, String runId, Map<String, ?> summary) throws IOException {
    return AtomicFile.replace(dir.resolve(FILE_NAME),
        tmp -> Files.writeString(tmp, toJson(runId, summary), StandardCharsets.UTF_8));
  }
}
