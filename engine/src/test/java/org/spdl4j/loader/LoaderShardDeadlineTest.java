package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.spdl4j.offheap.batch.Batch;

/**
 * Tar shards are read on the loader's source thread: a shard whose open never returns (a FIFO without a writer, as a
 * hung mount) or whose stream stops mid-way fails at the read deadline, named, its samples before the stall kept, and
 * the next shard is read.
 */
class LoaderShardDeadlineTest {
    @TempDir
    Path dir;

    private byte[] shard(String prefix, int members) {
        TestTarWriter tar = new TestTarWriter();
        for (int i = 0; i < members; i++) {
            tar.add(prefix + i + ".bin", ("id:" + prefix + i + "-" + "z".repeat(600)).getBytes(StandardCharsets.UTF_8));
        }
        return tar.finish();
    }

    private Path fifo(String name) throws Exception {
        Path fifo = dir.resolve(name);
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        return fifo;
    }

    record Run(List<String> keys, List<SampleFailure> failures, Duration took) {
    }

    private static Run load(List<Path> shards) {
        List<String> keys = new ArrayList<>();
        List<SampleFailure> failures = new CopyOnWriteArrayList<>();
        long start = System.nanoTime();
        try (Loader<Batch> loader = Loader.builder().source(SampleSource.tarShards(shards)).shuffle(false)
                .decoder(new BytesDecoder()).batchSize(4).readTimeout(Duration.ofSeconds(1))
                .onFailure(failures::add).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        keys.add(batch.key(i));
                    }
                }
            }
        }
        return new Run(keys, failures, Duration.ofNanos(System.nanoTime() - start));
    }

    @Test
    void shouldFailAShardWhoseOpenNeverReturnsAndReadTheNext() throws Exception {
        Path before = Files.write(dir.resolve("a.tar"), shard("a", 5));
        Path hung = fifo("hung.tar");
        Path after = Files.write(dir.resolve("c.tar"), shard("c", 5));
        Run run;
        try {
            run = load(List.of(before, hung, after));
        } finally {
            unblock(hung);
        }
        assertThat(run.took()).isLessThan(Duration.ofSeconds(30));
        assertThat(run.keys()).hasSize(10).allMatch(k -> k.contains("a.tar@") || k.contains("c.tar@"));
        assertThat(run.failures()).hasSize(1);
        assertThat(run.failures().get(0).key()).contains("hung.tar");
        assertThat(Causes.messages(run.failures().get(0).cause())).contains("did not return within 1000 ms");
    }

    @Test
    void shouldKeepTheSamplesBeforeAStreamThatStallsAndReadTheNext() throws Exception {
        Path stalls = fifo("stalls.tar");
        Path after = Files.write(dir.resolve("d.tar"), shard("d", 4));
        byte[] whole = shard("s", 8);
        CountDownLatch done = new CountDownLatch(1);
        Thread writer = new Thread(() -> {
            try (OutputStream out = Files.newOutputStream(stalls)) { // returns once the loader opened the shard
                out.write(whole, 0, 3 * 1536 + 100); // three whole samples, then a few bytes, then nothing
                out.flush();
                done.await();
            } catch (IOException | InterruptedException e) {
                // the reader gave up and closed its end: what this test expects
            }
        }, "stalling-writer");
        writer.setDaemon(true);
        writer.start();
        Run run;
        try {
            run = load(List.of(stalls, after));
        } finally {
            done.countDown();
        }
        writer.join(5_000);
        assertThat(run.took()).isLessThan(Duration.ofSeconds(30));
        // Three whole samples came before the stall; the third is not delivered: a sample ends where the next one's
        // header starts (its members are consecutive), and that header never came, so it may be incomplete.
        assertThat(run.keys().stream().filter(k -> k.contains("stalls.tar@"))).hasSize(2);
        assertThat(run.keys().stream().filter(k -> k.contains("d.tar@"))).hasSize(4);
        assertThat(run.failures()).hasSize(1);
        assertThat(Causes.messages(run.failures().get(0).cause())).contains("stalls.tar").contains("made no progress");
    }

    private static void unblock(Path fifo) {
        try (OutputStream out = Files.newOutputStream(fifo)) {
            out.write('x');
        } catch (IOException readerGone) {
            // nobody opened it any more
        }
    }
}
