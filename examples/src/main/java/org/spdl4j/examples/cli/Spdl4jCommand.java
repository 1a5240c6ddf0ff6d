package org.spdl4j.examples.cli;

import java.io.PrintWriter;
import org.spdl4j.loader.internal.IoMessages;
import org.spdl4j.offheap.SystemProperties;
import org.spdl4j.media.NativePreload;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code spdl4j} command line: {@code run}, {@code profile}, {@code tune}, {@code compare}, {@code probe},
 * {@code soak}.
 *
 * <p>Bad arguments print one line naming the problem and exit with status 2; a failed run prints one line with the
 * cause and exits with status 1. Stack traces only with {@code -Dspdl4j.verbose=true}, never for user mistakes
 * ({@value #VERBOSE_PROP} is true or false in any case; another value is a bad argument). The launcher adds 3 (the build failed) and 4 (no JDK 25 found), listed in {@code --help}.
 */
@Command(name = "spdl4j", mixinStandardHelpOptions = true, version = "spdl4j 0.1.0",
    description = "Scalable and Performant Data Loading for the JVM.",
    exitCodeListHeading = "%nExit status:%n",
    exitCodeList = {"0:done",
        "1:the run failed (soak: also when RSS grew 5%% or more after warm-up)", // picocli formats these: %% for %
        "2:bad arguments",
        "3:./spdl4j: the build failed (run 'mvn -B package -DskipTests' to see why)",
        "4:./spdl4j, bin/spdl4j-java: no JDK 25 or newer found (set SPDL4J_JAVA_HOME)"})
public final class Spdl4jCommand implements Runnable {
    /** Exit status for bad arguments. */
    public static final int EXIT_USAGE = 2;
    /** Exit status for a run that failed. */
    public static final int EXIT_FAILED = 1;
    /** System property: print the stack trace of a run that failed ({@code true|false}, any case; default false). */
    public static final String VERBOSE_PROP = "spdl4j.verbose";

    /** The command line running this command (its error writer is the one {@link #execute} was given). */
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** Creates the command; picocli calls this. */
    public Spdl4jCommand() {
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "missing command: run, profile, tune, compare, probe or soak");
    }

    /**
     * Runs the command line and returns the exit status (for tests).
     *
     * @param out  where normal output goes
     * @param err  where errors and progress go
     * @param args the arguments
     * @return the exit status
     */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        final boolean verbose;
        try { // read per call, not when the class initialises: a bad value is a bad argument (status 2), not a crash
            verbose = SystemProperties.booleanValue(VERBOSE_PROP, false);
        } catch (IllegalArgumentException e) {
            err.println("spdl4j: " + e.getMessage());
            err.flush();
            return EXIT_USAGE;
        }
        CommandLine cli = commandLine(args.length > 0 ? args[0] : null);
        cli.setOut(out);
        cli.setErr(err);
        cli.setParameterExceptionHandler((ex, a) -> {
            String hint = ex instanceof CommandLine.UnmatchedArgumentException u && !u.getSuggestions().isEmpty()
                ? "; did you mean " + String.join(" or ", u.getSuggestions()) + "?" : "";
            ex.getCommandLine().getErr().println("spdl4j: " + ex.getMessage() + hint + " (see: spdl4j "
                + commandPath(ex.getCommandLine()) + "--help)");
            return EXIT_USAGE;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            Throwable cause = ex;
            commandLine.getErr().println("spdl4j: " + commandLine.getCommandName() + " failed: " + describe(cause));
            if (verbose) {
                cause.printStackTrace(commandLine.getErr());
            }
            return EXIT_FAILED;
        });
        int status = cli.execute(args);
        out.flush();
        err.flush();
        return status;
    }

    /** The subcommands, in the order help lists them; each built only when asked for. */
    private static final java.util.Map<String, java.util.function.Supplier<Object>> SUBCOMMANDS;

    static {
        java.util.Map<String, java.util.function.Supplier<Object>> m = new java.util.LinkedHashMap<>();
        m.put("run", RunCommand::new);
        m.put("profile", ProfileCommand::new);
        m.put("tune", TuneCommand::new);
        m.put("compare", CompareCommand::new);
        m.put("probe", ProbeCommand::new);
        m.put("soak", SoakCommand::new);
        SUBCOMMANDS = java.util.Collections.unmodifiableMap(m);
    }

    /**
     * The command line, with only the subcommand about to run when {@code first} names one: picocli reads every
     * option of every subcommand it is given by reflection, which was a tenth of a second of each start; help, a
     * mistyped command or no command get them all (for the listing and the suggestions).
     *
     * @param first the first argument, or null
     * @return a new command line
     */
    static CommandLine commandLine(String first) {
        CommandLine cli = new CommandLine(new Spdl4jCommand());
        java.util.function.Supplier<Object> only = first == null ? null : SUBCOMMANDS.get(first);
        if (only != null) {
            cli.addSubcommand(only.get());
        } else {
            SUBCOMMANDS.values().forEach(s -> cli.addSubcommand(s.get()));
        }
        return cli;
    }

    private static String commandPath(CommandLine c) {
        String name = c.getCommandName();
        return "spdl4j".equals(name) ? "" : name + " ";
    }

    private static String describe(Throwable t) {
        StringBuilder b = new StringBuilder(message(t));
        Throwable c = t.getCause();
        while (c != null && c != t) {
            if (c.getMessage() != null && !b.toString().contains(message(c))) {
                b.append(": ").append(message(c));
            }
            t = c;
            c = c.getCause();
        }
        return b.toString();
    }

    /** A throwable's message; a file exception whose message is only its path is described by its type. */
    private static String message(Throwable t) {
        if (t instanceof java.nio.file.FileSystemException fs) {
            return IoMessages.describe(fs);
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    /** The commands that decode media: their start-up overlaps loading FFmpeg with the rest. */
    private static final java.util.Set<String> DECODES = java.util.Set.of("run", "soak", "profile", "tune", "probe");

    /**
     * Entry point.
     *
     * @param args command-line arguments
     */
    public static void main(String[] args) {
        if (args.length > 0 && DECODES.contains(args[0])) {
            NativePreload.start(); // FFmpeg loads while the arguments are parsed and the data listed
        }
        int status = execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args);
        System.exit(status);
    }
}
