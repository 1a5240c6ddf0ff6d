package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolRegistry;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.BatchTransfer;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/** Samples that fail in ways other than bad bytes: they fail alone, and the rest of their batch goes out. */
class LoaderFailuresTest {
    @TempDir
    Path dir;

    private List<SampleEntry> files(int n) throws Exception {
        List<SampleEntry> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String name = String.format("s%03d", i);
            Path f = dir.resolve(name + ".bin");
            Files.write(f, ("id:" + name).getBytes(StandardCharsets.UTF_8));
            out.add(SampleEntry.file(f, i % 2));
        }
        return out;
    }

    /** A {@link BytesDecoder} that takes {@code sleepMs} for the samples a predicate picks. */
    private record SlowDecoder(BytesDecoder inner, Predicate<String> slow, long sleepMs) implements SlotDecoder {
        @Override
        public DType dtype() {
            return inner.dtype();
        }

        @Override
        public long[] sampleShape() {
            return inner.sampleShape();
        }

        @Override
        public void decode(EncodedSample sample, long destination, int length) {
            if (slow.test(sample.key())) {
                try {
                    Thread.sleep(sleepMs);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(sample.key() + ": interrupted", e);
                }
            }
            inner.decode(sample, destination, length);
        }

        @Override
        public void close() {
            inner.close();
        }
    }

    @Test
    void shouldFailOnlyTheSlowSampleWhenADecodeTimesOut() throws Exception {
        List<SampleEntry> entries = files(8);
        String slow = entries.get(3).key(); // the last of the first batch: its decode completes that batch
        List<String> keys = new ArrayList<>();
        try (Loader<Batch> loader = Loader.builder().name("timeout").source(SampleSource.of(entries))
                .decoder(new SlowDecoder(new BytesDecoder(), slow::equals, 1000)).batchSize(4).shuffle(false)
                .order(OutputOrder.INPUT).readConcurrency(2).decodeConcurrency(2)
                .decodeTimeout(Duration.ofMillis(200)).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        keys.add(batch.key(i));
                    }
                }
            }
            assertThat(loader.failures()).as("the slow sample, counted once").isEqualTo(1);
            assertThat(loader.firstFailure()).hasMessageContaining(slow).hasMessageContaining("decodeTimeout");
            assertThat(loader.state().epoch()).as("every sample settled: %s", loader.state()).isEqualTo(1);
        }
        List<String> expected = new ArrayList<>(entries.stream().map(SampleEntry::key).toList());
        expected.remove(slow);
        assertThat(keys).containsExactlyElementsOf(expected);
    }

    @Test
    void shouldTellTheDecoderItsDeadline() throws Exception {
        List<SampleEntry> entries = files(4);
        List<Long> slack = java.util.Collections.synchronizedList(new ArrayList<>());
        BytesDecoder inner = new BytesDecoder();
        SlotDecoder recording = new SlotDecoder() {
            @Override
            public DType dtype() {
                return inner.dtype();
            }

            @Override
            public long[] sampleShape() {
                return inner.sampleShape();
            }

            @Override
            public void decode(EncodedSample sample, long destination, int length) {
                slack.add(sample.deadlineNanos() - System.nanoTime());
                inner.decode(sample, destination, length);
            }

            @Override
            public void close() {
                inner.close();
            }
        };
        try (Loader<Batch> loader = Loader.builder().name("deadline").source(SampleSource.of(entries))
                .decoder(recording).batchSize(4).shuffle(false).decodeTimeout(Duration.ofSeconds(30)).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                batch.close();
            }
        }
        assertThat(slack).hasSize(4).allSatisfy(n -> assertThat(n).as("the decode timeout from the decode's start")
                .isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30).toNanos()));
    }

    @Test
    void shouldNameTheBatchWhoseTransferFailedAndGoOn() throws Exception {
        List<SampleEntry> entries = files(16);
        BatchTransfer<Batch> failsFirst = new BatchTransfer<>() {
            private int n;

            @Override
            public CompletionStage<Batch> transfer(Batch batch) {
                if (n++ == 0) {
                    batch.close();
                    return CompletableFuture.failedFuture(new IllegalStateException("copy failed (test)"));
                }
                return CompletableFuture.completedFuture(batch);
            }

            @Override
            public int maxInFlight() {
                return 1;
            }

            @Override
            public void close() {
            }
        };
        List<String> keys = new ArrayList<>();
        try (Loader<Batch> loader = Loader.builder().name("transfer-fails").source(SampleSource.of(entries))
                .decoder(new BytesDecoder()).transfer(failsFirst).batchSize(4).shuffle(false)
                .order(OutputOrder.INPUT).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        keys.add(batch.key(i));
                    }
                }
            }
            assertThat(loader.firstFailure()).as("names the batch by its first sample")
                .hasMessageContaining("batch of 4 from " + entries.get(0).key()).hasMessageContaining("copy failed");
        }
        assertThat(keys).containsExactlyElementsOf(entries.subList(4, 16).stream().map(SampleEntry::key).toList());
        assertThat(PoolRegistry.livePools()).extracting(BufferPool::name)
            .noneMatch(name -> name.startsWith("transfer-fails"));
    }
}
