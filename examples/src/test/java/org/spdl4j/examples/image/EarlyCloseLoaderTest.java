package org.spdl4j.examples.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.engine.source.FileItem;
import org.spdl4j.media.NativeResourceCounter;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolRegistry;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.examples.testing.RingFill;

/**
 * A training loop that breaks out mid-epoch: closing the loader takes under 2 s, leaves no spdl4j thread, and every
 * pooled lease comes back (the undelivered images and batches in the engine's rings go through its discard hook), so
 * both pools free their memory and every FFmpeg context is freed.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EarlyCloseLoaderTest {
    @TempDir
    static Path dir;
    static List<FileItem> files;

    @BeforeAll
    static void writeImages() throws Exception {
        files = LoaderTestFiles.good(dir, 96);
    }

    @ParameterizedTest(name = "close after {0} batches, {1} order, decode x{2}")
    @CsvSource({"0, COMPLETION, 2", "1, INPUT, 2", "2, COMPLETION, 1", "3, INPUT, 3", "5, COMPLETION, 2"})
    void shouldReturnEveryLeaseAndThreadWhenTheConsumerStopsEarly(int batchesTaken, OutputOrder order, int decoders)
            throws Exception {
        String name = "early-" + batchesTaken + "-" + order.name().toLowerCase(java.util.Locale.ROOT);
        ImageLoaderOptions options = new ImageLoaderOptions(64, 72, 4, false, 8, decoders, order, WaitPolicy.BACKOFF,
                4, 4);
        ImageBatchLoader loader = ImageBatchLoader.of(name, files, options);
        loader.pipeline().start();
        for (int i = 0; i < batchesTaken; i++) {
            try (Batch b = loader.pipeline().next(Duration.ofSeconds(30))) {
                assertThat(b.size()).isEqualTo(4);
            }
        }
        // the read, assign and decode stages put items in their rings: the close-time sweep has something to return
        RingFill.awaitItemsInRings(loader.pipeline(), 2);

        long start = System.nanoTime();
        loader.close();
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isLessThan(Duration.ofSeconds(2));
        assertThat(Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("spdl4j-" + name + "-")).toList()).isEmpty();
        assertThat(PoolRegistry.livePools().stream().map(BufferPool::name).filter(n -> n.startsWith(name)).toList())
                .as("pools whose memory is still allocated: a lease was not returned").isEmpty();
        assertThat(NativeResourceCounter.outstanding()).as(NativeResourceCounter.describe()).isZero();
    }
}
