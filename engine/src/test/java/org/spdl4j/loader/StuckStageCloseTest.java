package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/**
 * A loader closed (twice) while its decoder ignores interrupts: one reaper, which, once the decoder returns, gives
 * every item, slot and batch left in the pipeline back to its pool and frees the pools and the decoder once (the
 * module's leftover check fails the class if a lease is left).
 */
@Timeout(60)
class StuckStageCloseTest {
    private static final CountDownLatch DECODING = new CountDownLatch(1);
    private static volatile boolean release;
    private static final AtomicInteger CLOSES = new AtomicInteger();

    /** A decoder stuck as in native code: spins, deaf to interrupts, until released. */
    private static final class StuckDecoder implements SlotDecoder {
        @Override
        public DType dtype() {
            return DType.U8;
        }

        @Override
        public long[] sampleShape() {
            return new long[] {8};
        }

        @Override
        public void decode(EncodedSample sample, long destination, int length) {
            DECODING.countDown();
            while (!release) {
                Thread.onSpinWait();
            }
        }

        @Override
        public void close() {
            CLOSES.incrementAndGet();
        }
    }

    @Test
    void shouldFreeEverythingOnceWhenTheStuckStageEnds(@TempDir Path dir) throws Exception {
        List<SampleEntry> entries = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            Path f = dir.resolve("s" + i + ".bin");
            Files.writeString(f, "x" + i);
            entries.add(SampleEntry.file(f, 0));
        }
        Loader<?> loader = Loader.builder().name("stuck").source(SampleSource.of(entries))
            .decoder(new StuckDecoder()).batchSize(2).decodeConcurrency(1).build();
        Thread consumer = Thread.ofPlatform().daemon().start(() -> {
            try {
                loader.next(Duration.ofSeconds(30));
            } catch (Exception e) {
                // closed under it
            }
        });
        assertThat(DECODING.await(20, TimeUnit.SECONDS)).isTrue();
        Thread.sleep(200); // the source and read stage fill the rings behind the stuck decode
        loader.close();
        loader.close(); // try-with-resources after an explicit close: no second reaper
        assertThat(reapers()).isEqualTo(1);
        assertThat(CLOSES.get()).as("nothing freed under the running decode").isZero();
        release = true;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (reapers() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(reapers()).isZero();
        assertThat(CLOSES.get()).as("the decoder is closed once").isOne();
        consumer.join(5_000);
    }

    private static long reapers() {
        return Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("spdl4j-stuck-reaper") && t.isAlive()).count();
    }
}
