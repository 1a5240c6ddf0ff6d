package org.spdl4j.examples.common;

import picocli.CommandLine;

/**
 * Runs an example's picocli command so that a bad argument or a failed run prints one clear line (no stack trace)
 * and exits non-zero: 2 for usage errors (picocli's convention), 1 for a run that failed.
 */
public final class ExampleCommands {
    private ExampleCommands() {
    }

    /**
     * Parses {@code args} into {@code command}, runs it, and returns its exit code.
     *
     * @param command a picocli {@code @Command} object
     * @param args    the command line
     * @return the exit code: the command's, 1 when it threw, 2 for bad arguments
     */
    public static int execute(Object command, String... args) {
        return execute(command, new java.io.PrintWriter(System.out, true), new java.io.PrintWriter(System.err, true),
            args);
    }

    /**
     * As {@link #execute(Object, String...)}, printing to the given writers (tests capture them).
     *
     * @param command a picocli {@code @Command} object
     * @param out     the command's output
     * @param err     where errors and usage go
     * @param args    the command line
     * @return the exit code
     */
    public static int execute(Object command, java.io.PrintWriter out, java.io.PrintWriter err, String... args) {
        CommandLine cl = new CommandLine(command).setOut(out).setErr(err).setCaseInsensitiveEnumValuesAllowed(true);
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            line.getErr().println(line.getCommandName() + ": " + e.getMessage());
            return 1;
        });
        return cl.execute(args);
    }
}
