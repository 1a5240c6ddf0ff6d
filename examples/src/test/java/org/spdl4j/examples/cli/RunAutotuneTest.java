package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;

/**
 * {@code spdl4j run --autotune} from one decode thread and one read: each change is printed with its reason, the
 * settled configuration is written within the CPU budget, and {@code --config} runs it.
 */
@Timeout(120)
class RunAutotuneTest {
    @TempDir
    Path tmp;

    @Test
    void shouldPrintEachChangeAndWriteTheSettledConfigurationForConfig() throws Exception {
        Path data = Files.createDirectories(tmp.resolve("data"));
        SampleImages.generate(data, 48, 3);
        Path config = tmp.resolve("tuned.properties");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Spdl4jCommand.execute(new PrintWriter(out), new PrintWriter(err), "run", "--data",
            data.toString(), "--batch-size", "8", "--decode-threads", "1", "--read-concurrency", "1", "--epochs",
            "1200", "--no-progress", "--autotune", "--cpu-budget", "2", "--autotune-out", config.toString(),
            "--max-batches", "7200"); // up to 57,600 images: long enough for the tuner to settle on a fast machine
        String text = out + "\n" + err;
        assertThat(status).as(text).isZero();
        assertThat(text).as("one line per change, with its reason")
            .containsPattern("autotune: decode 1 -> 2 threads: decode \\d+% busy .*: \\+1 thread");
        assertThat(text).containsPattern("autotune: settled after [0-9.]+ s: decode [12] threads");
        assertThat(config).exists();
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(config)) {
            p.load(r);
        }
        int threads = Integer.parseInt(p.getProperty(PipelineArgs.DECODE));
        assertThat(threads).as("within --cpu-budget 2").isBetween(1, 2);
        assertThat(Integer.parseInt(p.getProperty(PipelineArgs.READ))).isPositive();

        StringWriter again = new StringWriter();
        status = Spdl4jCommand.execute(new PrintWriter(again), new PrintWriter(new StringWriter()), "run", "--data",
            data.toString(), "--config", config.toString(), "--max-batches", "4", "--no-progress");
        assertThat(status).as(again.toString()).isZero();
        assertThat(again.toString()).contains("decode " + threads + " threads");
    }
}
