package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;

/** {@code spdl4j run --mix PATH=WEIGHT ...}: a weighted mixture of local data, and the arguments it refuses. */
@Timeout(120)
class MixRunTest {
    @TempDir
    static Path dir;
    static Path big;
    static Path small;

    @BeforeAll
    static void data() throws Exception {
        big = dir.resolve("big");
        small = dir.resolve("small");
        SampleImages.generate(big, 48, 1);
        SampleImages.generate(small, 8, 2);
    }

    private static List<String> keys(Path file) throws Exception {
        return Files.readAllLines(file).stream().map(l -> l.split("\t")[0]).toList();
    }

    @Test
    void shouldLoadThePartsInProportionUntilOneRunsOut() throws Exception {
        Path keys = dir.resolve("keys-mix.txt");
        CommandLineTest.Run r = CommandLineTest.run("run", "--mix", big + "=3", "--mix", small + "=1", "--keys",
            keys.toString(), "--no-progress", "--batch-size", "4", "--order", "INPUT");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("mixture of 75.0% folder " + big).contains("25.0% folder " + small);
        List<String> loaded = keys(keys);
        // 3:1 interleaves a a b a | a a b a ...: the small folder's 8th image is at position 30, and the epoch ends
        // at 34, where the small folder's 9th turn comes
        assertThat(loaded).hasSize(34);
        assertThat(r.out()).contains("34 image");
    }

    @Test
    void shouldUpSampleWithAFixedEpochLength() throws Exception {
        Path keys = dir.resolve("keys-fixed.txt");
        CommandLineTest.Run r = CommandLineTest.run("run", "--mix", big + "=1", "--mix", small + "=1",
            "--samples-per-epoch", "40", "--keys", keys.toString(), "--no-progress", "--batch-size", "4");
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(keys(keys)).hasSize(40);
        assertThat(r.out()).contains("40 samples per epoch");
    }

    @Test
    void shouldEndEachEpochWithItsOwnBatchWhenAligned() {
        // 8 images, batches of 6, 2 epochs: aligned 6 + 2 per epoch (4 batches); else 6, 6, 4 (3 batches)
        CommandLineTest.Run aligned = CommandLineTest.run("run", "--data", small.toString(), "--epochs", "2",
            "--batch-size", "6", "--epoch-aligned", "--no-progress");
        assertThat(aligned.status()).as(aligned.out() + aligned.err()).isZero();
        assertThat(aligned.out()).contains("16 images in 4 batches");
        CommandLineTest.Run across = CommandLineTest.run("run", "--data", small.toString(), "--epochs", "2",
            "--batch-size", "6", "--no-progress");
        assertThat(across.out()).contains("16 images in 3 batches");
    }

    @Test
    void shouldRefuseWhatIsNotAMixture() {
        CommandLineTest.Run noWeight = CommandLineTest.run("run", "--mix", big.toString(), "--no-progress");
        assertThat(noWeight.status()).isEqualTo(2);
        assertThat(noWeight.err()).contains("PATH=WEIGHT");
        CommandLineTest.Run both = CommandLineTest.run("run", "--mix", big + "=1", "--data", small.toString());
        assertThat(both.status()).isEqualTo(2);
        assertThat(both.err()).contains("give one");
        CommandLineTest.Run alone = CommandLineTest.run("run", "--samples-per-epoch", "10");
        assertThat(alone.status()).isEqualTo(2);
        assertThat(alone.err()).contains("goes with --mix");
        CommandLineTest.Run classes = CommandLineTest.run("run", "--mix", big + "=1", "--classes", big.toString());
        assertThat(classes.status()).isEqualTo(2);
        assertThat(classes.err()).contains("no --mix part is tar shards");
        CommandLineTest.Run s3 = CommandLineTest.run("run", "--mix", "s3://bucket/x/=1");
        assertThat(s3.status()).isEqualTo(2);
        assertThat(s3.err()).contains("local data");
    }
}
