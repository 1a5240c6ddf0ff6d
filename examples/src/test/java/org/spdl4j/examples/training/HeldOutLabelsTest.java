package org.spdl4j.examples.training;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.common.ExampleCommands;

/**
 * The held-out folder is labelled by the training folder's class names, not by its own folder ranks: a held-out set
 * without one of the classes (a small test split) is scored against the right labels, and one whose classes the
 * model never saw is refused with a message instead of scored against made-up labels.
 */
@Timeout(90)
class HeldOutLabelsTest {
    @TempDir
    Path dir;

    @Test
    void shouldScoreAHeldOutSetMissingAClassAgainstTheTrainingLabels() throws Exception {
        Path train = ColorClassImages.generate(dir.resolve("train"), 24, 40, 1);
        Path test = ColorClassImages.generate(dir.resolve("test"), 8, 40, 2);
        deleteTree(test.resolve("green")); // blue, red, yellow: ranks 0, 1, 2 here, but 0, 2, 3 in training
        TrainExample example = new TrainExample();
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(example, new PrintWriter(out), new PrintWriter(out), "--data",
            train.toString(), "--test-data", test.toString(), "--size", "32", "--batch", "16", "--epochs", "4");
        assertThat(code).as(out.toString()).isZero();
        assertThat(example.heldOut().images()).isEqualTo(24);
        assertThat(example.heldOut().accuracy()).as(out.toString()).isGreaterThan(0.6); // by folder rank: ~1/3
    }

    @Test
    void shouldRefuseAHeldOutClassTheModelNeverSaw() throws Exception {
        Path train = ColorClassImages.generate(dir.resolve("train"), 8, 40, 1);
        deleteTree(train.resolve("yellow"));
        Path test = ColorClassImages.generate(dir.resolve("test"), 4, 40, 2);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = ExampleCommands.execute(new TrainExample(), new PrintWriter(out), new PrintWriter(err), "--data",
            train.toString(), "--test-data", test.toString(), "--size", "32", "--batch", "16", "--epochs", "1");
        assertThat(code).as(out + "\n" + err).isEqualTo(2);
        assertThat(err.toString()).contains("yellow").contains("[blue, green, red]");
        assertThat(out.toString()).doesNotContain("held-out accuracy");
    }

    private static void deleteTree(Path root) throws Exception {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
