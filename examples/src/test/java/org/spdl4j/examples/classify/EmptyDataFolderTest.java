package org.spdl4j.examples.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.common.ExampleCommands;
import org.spdl4j.examples.training.ColorClassImages;
import org.spdl4j.examples.training.TrainExample;

/**
 * A --data folder without class sub-folders of images (images directly in it, or nothing) is refused with a message
 * saying what the example wants, instead of a run over zero images that reports success (chance "Infinity", loss NaN).
 */
@Timeout(60)
class EmptyDataFolderTest {
    @TempDir
    Path dir;

    @Test
    void shouldRefuseAFolderWithoutClassSubFoldersToClassify() throws Exception {
        Path flat = flatFolder();
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(new ClassifyExample(), new PrintWriter(out), new PrintWriter(out),
            "--data", flat.toString(), "--size", "32", "--batch", "8");
        assertThat(code).as(out.toString()).isEqualTo(1);
        assertThat(out.toString()).contains(flat.toString()).contains("class sub-folder")
            .doesNotContain("accuracy");
    }

    @Test
    void shouldRefuseAFolderWithoutClassSubFoldersToTrainOn() throws Exception {
        Path flat = flatFolder();
        Path test = ColorClassImages.generate(dir.resolve("test"), 2, 40, 2);
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(new TrainExample(), new PrintWriter(out), new PrintWriter(out),
            "--data", flat.toString(), "--test-data", test.toString(), "--size", "32", "--epochs", "1");
        assertThat(code).as(out.toString()).isEqualTo(1);
        assertThat(out.toString()).contains(flat.toString()).contains("class sub-folder")
            .doesNotContain("epoch 1");
    }

    /** Images directly in the folder, as a camera roll is: no class sub-folders. */
    private Path flatFolder() throws Exception {
        Path classes = ColorClassImages.generate(dir.resolve("gen"), 2, 40, 1);
        Path flat = Files.createDirectories(dir.resolve("flat"));
        Files.copy(classes.resolve("red").resolve("00000.jpg"), flat.resolve("a.jpg"));
        Files.copy(classes.resolve("blue").resolve("00000.jpg"), flat.resolve("b.jpg"));
        return flat;
    }
}
