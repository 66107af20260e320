package io.tlogsim.cli;

import io.tlogsim.scenario.BadInputException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code tlogsim} command (DESIGN.md, "The command line").
 *
 * <p>Exit codes: 0 success; 2 bad input (one line on stderr, nothing written); 1 a failed run (one line on stderr;
 * set TLOGSIM_DEBUG=1 for the stack trace).
 */
@Command(name = "tlogsim", mixinStandardHelpOptions = true, versionProvider = Tlogsim.Version.class,
    description = "A simulator of database transaction-log management in virtual time.",
    subcommands = {ScenariosCommand.class, ParamsCommand.class, RunCommand.class, RunsCommand.class,
        ReplayCommand.class, FactsCommand.class, ReportCommand.class, CompareCommand.class, JournalCommand.class, BenchCommand.class,
        SweepCommand.class, ValidateCommand.class,
        CalibrateDeviceCommand.class, CalibrateHostCommand.class, CalibratePostgresCommand.class, AdviseCommand.class,
        NodeCommand.class,
        CompletionCommand.class, CommandLine.HelpCommand.class},
    exitCodeListHeading = Tlogsim.EXIT_CODES_HEADING, exitCodeList = {Tlogsim.EXIT_OK, Tlogsim.EXIT_FAILED,
        Tlogsim.EXIT_BAD_INPUT, Tlogsim.EXIT_SIGNAL}, footerHeading = Tlogsim.ENVIRONMENT_HEADING, footer = {Tlogsim.ENV_DATA,
        Tlogsim.ENV_JAVA_OPTS, Tlogsim.ENV_DEBUG})
public final class Tlogsim implements Callable<Integer> {
  public static final int OK = 0;
  public static final int FAILED = 1;
  public static final int BAD_INPUT = 2;

  // What --help and the man page say about exit codes and the environment (every command that runs shows them).
  static final String EXIT_CODES_HEADING = "%nExit codes:%n";
  static final String EXIT_OK = "0:done";
  static final String EXIT_FAILED = "1:the run failed (one line on stderr; out of memory: give more with "
      + "TLOGSIM_JAVA_OPTS)";
  static final String EXIT_BAD_INPUT = "2:bad input (one line naming the key and what is allowed; nothing written)";
  static final String EXIT_SIGNAL = "130/143:stopped by Ctrl-C or SIGTERM (no summary written; a journaled run "
      + "can be resumed: run --resume)";
  static final String ENVIRONMENT_HEADING = "%nEnvironment:%n";
  static final String ENV_DATA = "  TLOGSIM_DATA       data directory (default ./data); --data and --out win";
  static final String ENV_JAVA_OPTS = "  TLOGSIM_JAVA_OPTS  JVM options for ./tlogsim, e.g. -Xmx8g for large runs";
  // One line each: picocli wraps a longer footer line at column 0, under the names.
  static final String ENV_JDBC = "  TLOGSIM_JDBC_URL   --journal postgres: the database's JDBC URL";
  static final String ENV_JDBC_USER = "  TLOGSIM_JDBC_USER  and TLOGSIM_JDBC_PASSWORD (else PGPASSFILE): user, password";
  static final String ENV_CLUSTER_KEYS = "  TLOGSIM_CLUSTER_KEYS  directory of the cluster's keys (docs/security.md)";
  static final String ENV_DEBUG = "  TLOGSIM_DEBUG      1: print the stack trace of a failure";

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    throw new ParameterException(spec.commandLine(),
        "missing command; commands: " + String.join(", ", spec.subcommands().keySet()) + " (see tlogsim --help)");
  }

  public static void main(String[] args) {
    int code;
    try {
      // Start logging before Pekko's threads log concurrently; else SLF4J prints a "replaying" warning on stderr.
      LoggerFactory.getILoggerFactory();
      // Running out of memory on a thread of its own (a journal's, a progress bar's) fails the command in one line
      // (below): no stack trace from the JVM's default handler besides it.
      Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
        if (e instanceof OutOfMemoryError) {
          Failures.outOfMemoryElsewhere();
          return;
        }
        System.err.println("tlogsim: thread " + t.getName() + " failed: " + oneLine(String.valueOf(e)));
        if (debug()) e.printStackTrace();
      });
      code = commandLine().execute(args);
      if (code == OK && Failures.outOfMemorySeen()) { // on a thread of its own (a journal's, a node's actors)
        System.err.println("tlogsim: " + Failures.outOfMemory());
        code = FAILED;
      }
    } catch (OutOfMemoryError e) { // where Runner did not catch it (parsing, reporting): still one line
      System.err.println("tlogsim: " + Failures.outOfMemory());
      code = FAILED;
    } catch (Error e) { // picocli hands errors on: still one line (a broken build, a stack overflow)
      System.err.println("tlogsim: failed: " + oneLine(String.valueOf(e)));
      if (debug()) e.printStackTrace();
      code = FAILED;
    }
    System.exit(code);
  }

  /** The command line with tlogsim's error handling; tests call {@code execute} on it with their own out/err. */
  public static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new Tlogsim());
    cl.setExpandAtFiles(false); // "@name" is an argument, not a file of arguments
    cl.setParameterExceptionHandler(Tlogsim::badParameter);
    cl.setExecutionExceptionHandler(Tlogsim::failed);
    return cl;
  }

  /** Picocli could not parse the arguments: one line, no usage, exit 2. */
  private static int badParameter(ParameterException ex, String[] args) {
    CommandLine cl = ex.getCommandLine();
    CommandLine root = cl;
    while (root.getParent() != null) root = root.getParent();
    // picocli names Java's types ("'abc' is not a long"): say what the user may give
    String msg = oneLine(ex.getMessage()).replaceAll("' is not an? (long|int)\\b", "' is not an integer")
        .replaceAll("' is not a (double|float)\\b", "' is not a number");
    if (ex instanceof UnmatchedArgumentException u && cl == root && !u.getUnmatched().isEmpty()
        && !u.getUnmatched().get(0).startsWith("-") && !hasSubcommand(root.getParseResult())) {
      msg = "unknown command '" + u.getUnmatched().get(0) + "'; commands: "
          + String.join(", ", root.getSubcommands().keySet());
    } else if (cl != root) {
      String sub = cl.getCommandSpec().qualifiedName(" ").substring(root.getCommandName().length() + 1);
      msg = sub + ": " + msg + " (see tlogsim " + sub + " --help)";
    } else {
      msg = msg + " (see tlogsim --help)";
    }
    error(cl, msg);
    return BAD_INPUT;
  }

  private static boolean hasSubcommand(ParseResult pr) {
    return pr != null && pr.hasSubcommand();
  }

  /** A command threw: bad input exits 2, anything else is a failure (exit 1). One line either way. */
  private static int failed(Exception ex, CommandLine cl, ParseResult parsed) {
    if (ex instanceof BadInputException) {
      error(cl, oneLine(ex.getMessage()));
      return BAD_INPUT;
    }
    if (ex instanceof Failures.Interrupted) return FAILED; // the shutdown hook has said so; the JVM is stopping
    String what = cl.getCommandName().equals("run") || cl.getCommandName().equals("bench")
        ? "run" : cl.getCommandName();
    String msg = ex.getMessage() == null || ex.getMessage().isBlank() ? ex.getClass().getName() : ex.getMessage();
    error(cl, what + " failed: " + oneLine(msg));
    if (debug()) ex.printStackTrace(cl.getErr());
    return FAILED;
  }

  /** TLOGSIM_DEBUG set (and not 0): failures print their stack trace. */
  static boolean debug() {
    String debug = System.getenv("TLOGSIM_DEBUG");
    return debug != null && !debug.isEmpty() && !debug.equals("0");
  }

  private static void error(CommandLine cl, String message) {
    PrintWriter err = cl.getErr();
    err.println("tlogsim: " + message);
    err.flush();
  }

  static String oneLine(String s) {
    return s == null ? "" : s.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
  }

  /** {@code tlogsim --version}: the pom's version, filtered into version.properties at build time. */
  public static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      Properties p = new Properties();
      try (InputStream in = Tlogsim.class.getResourceAsStream("version.properties")) {
        if (in != null) p.load(in);
      } catch (IOException e) {
        // fall through to "unknown"
      }
      return List.of(
          "tlogsim " + p.getProperty("version", "unknown"),
          "Apache Pekko " + p.getProperty("pekko", "unknown") + ", Java " + System.getProperty("java.version")
              + " (" + System.getProperty("java.vm.name") + ")").toArray(String[]::new);
    }
  }

  public static String version() {
    return new Version().getVersion()[0].substring("tlogsim ".length());
  }
}
