package org.spdl4j.examples.cli;

/**
 * {@code spdl4j} in a child JVM whose arguments come in {@code -Dspdl4j.cli.args} (separated by U+001F), so a test
 * can start several at once with their own environment (RANK / WORLD_SIZE); exits with the command's status.
 */
public final class CliChild {
    private CliChild() {
    }

    /**
     * Runs the command.
     *
     * @param unused ignored
     */
    public static void main(String[] unused) {
        System.exit(Spdl4jCommand.execute(new java.io.PrintWriter(System.out, true),
            new java.io.PrintWriter(System.err, true), System.getProperty("spdl4j.cli.args").split("\u001f")));
    }
}
