package org.spdl4j.examples.djl;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.common.ExampleCommands;
import org.spdl4j.examples.training.ColorClassImages;

/** The DJL training demo runs on both loaders and both places to normalize, and reports its split. */
@Timeout(120)
class DjlTrainExampleTest {
    @TempDir
    Path dir;

    private static String run(DjlTrainExample example, Path data, String... options) {
        StringWriter out = new StringWriter();
        String[] base = {"--data", data.toString(), "--steps", "16", "--warmup", "2", "--batch", "8", "--size", "32"};
        String[] args = new String[base.length + options.length];
        System.arraycopy(base, 0, args, 0, base.length);
        System.arraycopy(options, 0, args, base.length, options.length);
        int code = ExampleCommands.execute(example, new PrintWriter(out), new PrintWriter(out), args);
        assertThat(code).as(out.toString()).isZero();
        return out.toString();
    }

    @Test
    void shouldTrainFromEachLoaderAndPrintTheSplit() throws Exception {
        Path data = ColorClassImages.generate(dir.resolve("images"), 8, 40, 3);
        for (String[] options : new String[][] {{"--loader", "spdl4j"}, {"--loader", "spdl4j", "--normalize", "djl"},
            {"--loader", "djl"}, {"--loader", "spdl4j", "--device", "host"}}) {
            DjlTrainExample example = new DjlTrainExample();
            String out = run(example, data, options);
            assertThat(out).as(String.join(" ", options)).contains("img/s", "wait for data", "compute")
                .contains("loader " + options[1]);
            assertThat(example.imagesPerSecond()).isPositive();
            assertThat(example.lastLoss()).as(out).isLessThan(example.firstLoss());
        }
    }

    @Test
    void shouldRefuseAnUnknownLoader() {
        StringWriter out = new StringWriter();
        int code = ExampleCommands.execute(new DjlTrainExample(), new PrintWriter(out), new PrintWriter(out),
            "--loader", "tf");
        assertThat(code).isEqualTo(2);
        assertThat(out.toString()).contains("--loader: spdl4j or djl");
    }
}
