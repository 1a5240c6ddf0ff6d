package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.examples.sample.SampleImages;

/** A path list naming a FIFO nobody writes (a hung mount's stand-in): the run skips it after --read-timeout. */
@Timeout(60)
class ReadTimeoutRunTest {
    @TempDir
    Path dir;

    @Test
    void shouldSkipAHungReadAndFinishTheRun() throws Exception {
        Path images = dir.resolve("img");
        SampleImages.generate(images, 4, 3);
        List<Path> files;
        try (var walk = Files.walk(images)) {
            files = walk.filter(p -> p.toString().endsWith(".jpg")).sorted().toList();
        }
        Path fifo = dir.resolve("hung.jpg");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        StringBuilder list = new StringBuilder();
        for (int i = 0; i < files.size(); i++) {
            list.append(files.get(i)).append('\n');
            if (i == 1) {
                list.append(fifo).append('\n');
            }
        }
        Path listFile = Files.writeString(dir.resolve("list.txt"), list);
        CommandLineTest.Run r;
        try {
            r = CommandLineTest.run("run", "--data", listFile.toString(), "--read-timeout", "0.5", "--no-progress",
                "--batch-size", "2");
        } finally {
            try (OutputStream unblock = Files.newOutputStream(fifo)) {
                unblock.write('x'); // lets the hung open return, so no thread is left behind
            } catch (IOException readerGone) {
                // the reader opened and closed its end first
            }
        }
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains(files.size() + " images").contains("1 failed");
    }

    @Test
    void shouldRefuseANonPositiveReadTimeout() {
        CommandLineTest.Run r = CommandLineTest.run("run", "--read-timeout", "0");
        assertThat(r.status()).isEqualTo(Spdl4jCommand.EXIT_USAGE);
        assertThat(r.err()).contains("--read-timeout");
    }
}
