package org.spdl4j.offheap.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class in a fresh JVM with this JVM's options and class path plus the options given: for tests of what
 * is read once per JVM (system properties read when a configuration class initialises).
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * What the child did.
     *
     * @param exit   its exit status
     * @param output its standard output and error, interleaved
     */
    public record Result(int exit, String output) {
    }

    /**
     * Runs {@code main} in a child JVM and waits up to 60 s for it (a test failure if it takes longer).
     *
     * @param option one more JVM option, e.g. {@code -Dspdl4j.checked=yes}
     * @param main   the class whose {@code main} runs
     * @return its exit status and output
     * @throws IOException          when the child cannot be started
     * @throws InterruptedException when interrupted while waiting
     */
    public static Result run(String option, Class<?> main) throws IOException, InterruptedException {
        return run(List.of(option), main);
    }

    /**
     * Runs {@code main} in a child JVM with several more options (several properties checked in one start, about
     * half a second each) and waits up to 60 s for it (a test failure if it takes longer).
     *
     * @param options more JVM options, e.g. {@code -Dspdl4j.leakDetection=off} and {@code -Dspdl4j.checked=true}
     * @param main    the class whose {@code main} runs
     * @return its exit status and output
     * @throws IOException          when the child cannot be started
     * @throws InterruptedException when interrupted while waiting
     */
    public static Result run(List<String> options, Class<?> main) throws IOException, InterruptedException {
        return run(List.of(), options, main);
    }

    /**
     * Runs {@code main} in a child JVM with this JVM's options less one, for tests of what a user who leaves a flag
     * out sees, and waits up to 60 s for it (a test failure if it takes longer).
     *
     * @param dropped the option to leave out, as the JVM reports it, e.g.
     *                {@code --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED}
     * @param main    the class whose {@code main} runs
     * @return its exit status and output
     * @throws IOException          when the child cannot be started
     * @throws InterruptedException when interrupted while waiting
     */
    public static Result runWithout(String dropped, Class<?> main) throws IOException, InterruptedException {
        return run(List.of(dropped), List.of(), main);
    }

    /**
     * Starts {@code main} in a child JVM with more options and environment variables, without waiting: several
     * children run at once (ranks of one job). {@link #await} collects each.
     *
     * @param options     more JVM options
     * @param environment variables to set for the child (on top of this process's)
     * @param main        the class whose {@code main} runs
     * @return the running child, its output merged into one stream
     * @throws IOException when the child cannot be started
     */
    public static Process start(List<String> options, Map<String, String> environment, Class<?> main)
            throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command(List.of(), options, main)).redirectErrorStream(true);
        builder.environment().putAll(environment);
        return builder.start();
    }

    /**
     * Waits up to 60 s for a child {@link #start} started (a test failure if it takes longer).
     *
     * @param child the child
     * @return its exit status and output
     * @throws IOException          when its output cannot be read
     * @throws InterruptedException when interrupted while waiting
     */
    public static Result await(Process child) throws IOException, InterruptedException {
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).as(output).isTrue();
        return new Result(child.exitValue(), output);
    }

    private static Result run(List<String> dropped, List<String> options, Class<?> main)
            throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command(dropped, options, main)).redirectErrorStream(true).start();
        return await(p);
    }

    private static List<String> command(List<String> dropped, List<String> options, Class<?> main) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> !a.startsWith("-agentlib") && !a.startsWith("-javaagent") && !dropped.contains(a))
                .toList());
        command.addAll(options);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        return command;
    }
}
