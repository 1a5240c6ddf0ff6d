package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;
import org.spdl4j.loader.LoaderState;

/**
 * {@code run --state}, {@code --keys} and {@code --max-batches}: runs cut short and resumed deliver, together, what
 * one uninterrupted run delivers, whether cut by {@code --max-batches} or by SIGTERM.
 */
@Timeout(120)
class RunResumeTest {
    @TempDir
    static Path data;

    @TempDir
    Path work;

    @BeforeAll
    static void sample() throws Exception {
        SampleImages.generate(data, 40, 11);
    }

    static CommandLineTest.Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Spdl4jCommand.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new CommandLineTest.Run(status, out.toString(), err.toString());
    }

    private List<String> runPart(Path state, String keys, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "--data", data.toString(), "--batch-size", "8",
            "--no-progress", "--state", state.toString(), "--keys", work.resolve(keys).toString()));
        args.addAll(List.of(more));
        CommandLineTest.Run r = run(args.toArray(String[]::new));
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(state).exists();
        return Files.readAllLines(work.resolve(keys));
    }

    @Test
    void shouldDeliverInTwoResumedRunsExactlyTheKeysOfOneRun() throws Exception {
        Path whole = work.resolve("whole.state");
        List<String> uninterrupted = runPart(whole, "k0", "--order", "input", "--epochs", "2", "--seed", "4");
        assertThat(uninterrupted).hasSize(80).allSatisfy(l -> assertThat(l).matches("[^\t]+\\.jpg\t[0-3]"));

        Path state = work.resolve("cut.state");
        List<String> keys = new ArrayList<>(runPart(state, "k1", "--order", "input", "--epochs", "2", "--seed", "4",
            "--max-batches", "3"));
        assertThat(keys).hasSize(24);
        assertThat(LoaderState.parse(Files.readString(state)).seed()).isEqualTo(4);
        // Resumed: the saved seed is the run's (no --seed needed); 3 more batches, across the epochs' boundary.
        keys.addAll(runPart(state, "k2", "--order", "input", "--epochs", "2", "--max-batches", "3"));
        keys.addAll(runPart(state, "k3", "--order", "input", "--epochs", "2"));
        assertThat(keys).as("the three runs' keys, in order").containsExactlyElementsOf(uninterrupted);

        CommandLineTest.Run done = run("run", "--data", data.toString(), "--state", state.toString(), "--epochs", "2",
            "--no-progress");
        assertThat(done.status()).as(done.err()).isZero();
        assertThat(done.out()).contains("nothing left to load").doesNotContain("throughput");
    }

    @Test
    void shouldDeliverEverySampleOnceAcrossAResumeInCompletionOrder() throws Exception {
        Path state = work.resolve("s.state");
        List<String> keys = new ArrayList<>(runPart(state, "k1", "--max-batches", "2", "--decode-threads", "2"));
        keys.addAll(runPart(state, "k2", "--decode-threads", "2"));
        assertThat(keys).hasSize(40).doesNotHaveDuplicates();
    }

    @Test
    void shouldRefuseAnotherSeedOrABadStateFileBeforeRunning() throws Exception {
        Path state = work.resolve("s.state");
        runPart(state, "k1", "--max-batches", "1", "--seed", "3");
        String saved = Files.readString(state);
        CommandLineTest.Run r = run("run", "--data", data.toString(), "--state", state.toString(), "--seed", "4");
        assertThat(r.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(r.err()).startsWith("spdl4j: --seed 4: --state " + state + " was saved by a run with seed 3")
            .doesNotContain("\tat ");
        assertThat(r.err().strip().lines().count()).as(r.err()).isEqualTo(1);
        assertThat(Files.readString(state)).as("a refused run leaves the state alone").isEqualTo(saved);

        Path bad = Files.writeString(work.resolve("bad.state"), "not a state\n");
        CommandLineTest.Run b = run("run", "--data", data.toString(), "--state", bad.toString());
        assertThat(b.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(b.err()).startsWith("spdl4j: --state " + bad + ": not a spdl4j-loader/1 state");

        CommandLineTest.Run zero = run("run", "--data", data.toString(), "--max-batches", "0");
        assertThat(zero.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(zero.err()).contains("--max-batches must be >= 1");
    }

    /**
     * SIGTERM mid-run (a child JVM): the run stops after the batch it holds, flushes the keys and writes the state,
     * which settles exactly the samples whose keys were written.
     */
    @Test
    void shouldWriteTheStateAndTheKeysOnSigterm() throws Exception {
        Path state = work.resolve("sig.state");
        Path keys = work.resolve("sig.keys");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Spdl4jCommand.class.getName(), "run",
            "--data", data.toString(), "--batch-size", "4", "--epochs", "1000", "--decode-threads", "1",
            "--no-progress", "--state", state.toString(), "--keys", keys.toString()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        Thread reader = Thread.ofVirtual().start(() -> {
            try (var in = p.inputReader(StandardCharsets.UTF_8)) {
                for (String line; (line = in.readLine()) != null; ) {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                }
            } catch (java.io.IOException e) {
                // the process ended
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!outputHas(output, "spdl4j run: 40 images") && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        Thread.sleep(1500); // some batches in
        p.toHandle().destroy(); // SIGTERM (Process.destroy would also close the pipe the summary comes through)
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(output.toString()).isTrue();
        reader.join();
        assertThat(output.toString()).contains("stopped: by a signal", "state: " + state);
        LoaderState saved = LoaderState.parse(Files.readString(state));
        List<String> lines = Files.readAllLines(keys);
        assertThat(lines).as(output.toString()).isNotEmpty();
        assertThat(StateFile.settled(saved, 40, 1000)).as("samples the state settles = keys written")
            .isEqualTo(lines.size());
    }

    private static boolean outputHas(StringBuilder output, String text) {
        synchronized (output) {
            return output.indexOf(text) >= 0;
        }
    }
}
