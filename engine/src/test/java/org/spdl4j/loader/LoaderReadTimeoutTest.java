package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.offheap.batch.Batch;

/** A read that never returns (a FIFO nobody writes, as a hung mount) costs one sample, not the run. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LoaderReadTimeoutTest {
    @TempDir
    Path dir;

    @Test
    void shouldFailAHungReadAfterItsTimeoutAndDeliverTheRest() throws Exception {
        List<SampleEntry> entries = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Path f = dir.resolve("s" + i + ".bin");
            Files.writeString(f, "id:s" + i);
            entries.add(SampleEntry.file(f, 0));
        }
        Path fifo = dir.resolve("hung.bin");
        Process mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(mkfifo.waitFor()).isZero();
        entries.add(3, SampleEntry.file(fifo, 0));
        List<String> keys = new ArrayList<>();
        long failures;
        long readFailures;
        long start = System.nanoTime();
        try {
            try (Loader<Batch> loader = Loader.builder().source(SampleSource.of(entries)).decoder(new BytesDecoder())
                    .batchSize(2).readTimeout(Duration.ofMillis(500)).build()) {
                for (LoadedBatch<Batch> batch : loader) {
                    try (batch) {
                        for (int i = 0; i < batch.size(); i++) {
                            keys.add(batch.key(i));
                        }
                    }
                }
                failures = loader.failures();
                readFailures = loader.stats().stream().filter(s -> s.stage().equals(Loader.READ_STAGE))
                    .mapToLong(StageStats::failures).sum();
            }
        } finally {
            // Opening the writing end lets the hung open return (its read then finds the FIFO empty), so no thread is
            // left behind and the loader frees its pools once it ends.
            try (OutputStream unblock = Files.newOutputStream(fifo)) {
                unblock.write(new byte[] {'x'});
            } catch (java.io.IOException readerGone) {
                // the reader opened and closed its end first
            }
        }
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(20));
        assertThat(keys).hasSize(6).doesNotContain(fifo.toString());
        assertThat(failures).isEqualTo(1);
        assertThat(readFailures).isEqualTo(1);
    }
}
