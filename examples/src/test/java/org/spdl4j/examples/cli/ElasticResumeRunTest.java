package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * {@code spdl4j run --resume-from}: a job of two rank processes (RANK / WORLD_SIZE) stopped by {@code --max-batches}
 * goes on as three; between the five processes every image of the epoch is delivered once.
 */
@Timeout(180)
class ElasticResumeRunTest {
    @TempDir
    static Path data;

    @TempDir
    Path work;

    @BeforeAll
    static void sample() throws Exception {
        SampleImages.generate(data, 40, 11);
    }

    /** Runs {@code world} rank processes of {@code spdl4j run} at once; returns each one's delivered keys. */
    private List<List<String>> job(String name, int world, List<String> more) throws Exception {
        List<Process> ranks = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            List<String> args = new ArrayList<>(List.of("run", "--data", data.toString(), "--batch-size", "4",
                "--no-progress", "--seed", "9", "--keys", work.resolve(name + "-keys-" + r).toString(), "--state",
                work.resolve(name + "-state-" + r).toString()));
            args.addAll(more);
            ranks.add(ChildJvm.start(List.of("-Dspdl4j.cli.args=" + String.join("\u001f", args)),
                Map.of("RANK", Integer.toString(r), "WORLD_SIZE", Integer.toString(world)), CliChild.class));
        }
        List<List<String>> keys = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            ChildJvm.Result result = ChildJvm.await(ranks.get(r));
            assertThat(result.exit()).as("rank %d of %d: %s", r, world, result.output()).isZero();
            keys.add(Files.readAllLines(work.resolve(name + "-keys-" + r)));
        }
        return keys;
    }

    private static List<String> all(List<List<String>> ranks) {
        List<String> out = new ArrayList<>();
        ranks.forEach(out::addAll);
        return out;
    }

    @Test
    void shouldDeliverTheEpochOnceWhenTwoRanksGoOnAsThree() throws Exception {
        List<String> whole = all(job("whole", 2, List.of()));
        assertThat(whole).hasSize(40).doesNotHaveDuplicates();

        List<String> delivered = all(job("first", 2, List.of("--max-batches", "2")));
        assertThat(delivered).hasSize(16);
        String states = work.resolve("first-state-0") + "," + work.resolve("first-state-1");
        delivered.addAll(all(job("second", 3, List.of("--resume-from", states))));
        assertThat(delivered).as("five processes, one epoch").containsExactlyInAnyOrderElementsOf(whole);
    }

    @Test
    void shouldNameAMissingRank() throws Exception {
        job("one", 2, List.of("--max-batches", "1"));
        Path onlyOne = work.resolve("one-state-0");
        CommandLineTest.Run r = RunResumeTest.run("run", "--data", data.toString(), "--no-progress",
            "--resume-from", onlyOne.toString());
        assertThat(r.status()).isNotZero();
        assertThat(r.out() + r.err()).contains("missing the state of rank(s) 1 of 2");
    }
}
