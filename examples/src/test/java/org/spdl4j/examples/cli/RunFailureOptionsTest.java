package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;

/** {@code spdl4j run --max-failures} as a count, and {@code --task-timeout}. */
@Timeout(120)
class RunFailureOptionsTest {
    @TempDir
    Path dir;

    /** A list of 6 images and 3 missing files. */
    private Path listWithMissingFiles() throws Exception {
        Path images = dir.resolve("img");
        SampleImages.generate(images, 6, 3);
        StringBuilder list = new StringBuilder();
        try (var walk = Files.walk(images)) {
            for (Path p : walk.filter(f -> f.toString().endsWith(".jpg")).sorted().toList()) {
                list.append(p).append('\n');
            }
        }
        for (int i = 0; i < 3; i++) {
            list.append(dir.resolve("missing-" + i + ".jpg")).append('\n');
        }
        return Files.writeString(dir.resolve("list.txt"), list);
    }

    @Test
    void shouldToleratePreciselyTheCountGiven() throws Exception {
        Path list = listWithMissingFiles();
        CommandLineTest.Run within = CommandLineTest.run("run", "--data", list.toString(), "--max-failures", "3",
            "--no-progress", "--batch-size", "2", "--no-shuffle");
        assertThat(within.status()).as(within.out() + within.err()).isZero();
        assertThat(within.out()).contains("6 images").contains("3 failed");
        Path state = dir.resolve("run.state");
        CommandLineTest.Run over = CommandLineTest.run("run", "--data", list.toString(), "--max-failures", "2",
            "--no-progress", "--batch-size", "2", "--no-shuffle", "--state", state.toString());
        assertThat(over.status()).as(over.out() + over.err()).isEqualTo(Spdl4jCommand.EXIT_FAILED);
        // Reads run concurrently: which missing file fails first is not fixed, but both ends are named.
        assertThat(over.err()).contains("--max-failures 2 spent: stage 'read' failed 3 of the")
            .containsPattern("the first failure: read \\S*missing-[0-2]\\.jpg: no such file; the last: read "
                + "\\S*missing-[0-2]\\.jpg: no such file");
        assertThat(over.out()).contains("stopped: --max-failures 2 spent").contains("decode"); // the summary table
        assertThat(state).exists();
    }

    @Test
    void shouldFailDecodesThatTakeLongerThanTheTaskTimeout() throws Exception {
        Path images = dir.resolve("img");
        SampleImages.generate(images, 4, 3);
        CommandLineTest.Run r = CommandLineTest.run("run", "--data", images.toString(), "--task-timeout",
            "0.000001", "--no-progress", "--batch-size", "2");
        assertThat(r.status()).as(r.out() + r.err()).isEqualTo(Spdl4jCommand.EXIT_FAILED);
        assertThat(r.err()).contains("no image could be read or decoded (4 failed)")
            .contains("longer than the decode timeout");
    }

    @Test
    void shouldRefuseAMaxFailuresThatIsNeitherACountNorAPercentageAndABadTaskTimeout() {
        for (String bad : List.of("-1", "ten", "120%")) {
            CommandLineTest.Run r = CommandLineTest.run("run", "--max-failures", bad);
            assertThat(r.status()).as(bad).isEqualTo(Spdl4jCommand.EXIT_USAGE);
            assertThat(r.err()).contains("--max-failures " + bad + ": give a count");
        }
        CommandLineTest.Run r = CommandLineTest.run("run", "--task-timeout", "0");
        assertThat(r.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(r.err()).contains("--task-timeout 0.0: give seconds");
    }
}
