package io.tlogsim.cli;

import static io.tlogsim.cli.TlogsimTest.tlogsim;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tlogsim.cli.TlogsimTest.Result;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The copy-paste commands of README.md and docs/*.md still work: every {@code ./tlogsim run|params|scenarios} line of
 * their code blocks is given to the command line in-process ({@code run} with {@code --dry-run}: validated, nothing
 * run or written). Lines with placeholders ({@code <run-id>}, {@code ...}, a device profile not measured here) are
 * skipped, and so are --resume and --branch (they need a stored run); a synopsis line (options in brackets) too,
 * and a block fenced {@code ```after-change}: what a guide's
 * reader sees once they made the change it describes (a new flush policy, a new kind).
 */
class DocsCommandsTest {
  @TempDir
  Path tmp;

  static Path projectRoot() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !(Files.isRegularFile(p.resolve("README.md")) && Files.isDirectory(p.resolve("docs")))) {
      p = p.getParent();
    }
    if (p == null) throw new IllegalStateException("no README.md with docs/ above " + Path.of("").toAbsolutePath());
    return p;
  }

  /** Commands of the code blocks of one Markdown file, each with where it is. */
  static List<String[]> commands(Path md) throws Exception {
    List<String[]> out = new ArrayList<>();
    boolean block = false;
    boolean afterChange = false;
    List<String> lines = Files.readAllLines(md);
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.startsWith("```")) {
        block = !block;
        afterChange = block && line.startsWith("```after-change");
        continue;
      }
      if (!block || afterChange) continue;
      if (line.startsWith("$ ")) line = line.substring(2);
      if (!line.matches("\\./tlogsim (run|params|scenarios)\\b.*")) continue;
      line = line.split("\\s{3,}|\\s#", 2)[0]; // a comment or a synopsis line's explanation
      if (line.contains("[") && !line.contains("'")) continue; // a synopsis, not a command
      if (line.contains("<") || line.contains("...") || line.contains("profile:") || line.contains("--resume")
          || line.contains("--branch") || line.contains("--cluster") || line.matches(".*\\sdata/\\S+\\.conf\\b.*")) { // a file an earlier command makes
        continue;
      }
      out.add(new String[] {md.getFileName() + ":" + (i + 1), line});
    }
    return out;
  }

  /** Splits a command line as a shell would for these lines: words, single quotes, up to a pipe or &&. */
  static List<String> words(String line) {
    List<String> w = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    boolean any = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\'') {
        quoted = !quoted;
        any = true;
      } else if (!quoted && (c == '|' || c == '&')) {
        break;
      } else if (!quoted && Character.isWhitespace(c)) {
        if (any) w.add(cur.toString());
        cur.setLength(0);
        any = false;
      } else {
        cur.append(c);
        any = true;
      }
    }
    if (any) w.add(cur.toString());
    return w;
  }

  @Test
  void everyCommandOfTheReadmeAndTheGuideIsAccepted() throws Exception {
    Path root = projectRoot();
    List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
    try (Stream<Path> s = Files.list(root.resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    int checked = 0;
    StringBuilder refused = new StringBuilder();
    for (Path page : pages) {
      for (String[] c : commands(page)) {
        List<String> a = words(c[1]);
        a.remove(0); // ./tlogsim
        if (a.get(0).equals("run") && !a.contains("--dry-run")) a.add("--dry-run");
        if (a.get(0).equals("run") && !a.contains("--out")) a.addAll(List.of("--data", tmp.resolve("data").toString()));
        Result r = tlogsim(a.toArray(String[]::new));
        checked++;
        if (r.code() != 0) refused.append(c[0]).append(": ").append(c[1]).append(": ").append(r.err().strip()).append('\n');
      }
    }
    assertTrue(checked >= 30, "only " + checked + " commands found in README.md and docs/");
    assertTrue(refused.isEmpty(), "refused:\n" + refused);
    assertTrue(!Files.exists(tmp.resolve("data").resolve("runs")), "a dry run writes nothing");
  }
}
