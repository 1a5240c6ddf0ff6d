package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.SampleField;
import org.spdl4j.offheap.batch.Batch;

/**
 * Epoch-aligned batches hold whatever the timing: a consumer that pauses at an epoch's end (the assign stage blocked
 * while every read is done) and an object read slower than the read timeout (async reads have no engine timeout).
 * Each waits some seconds on purpose.
 */
@Timeout(60)
class LoaderEpochAlignedTimingTest {
    @Test
    void shouldKeepEpochsApartWhenTheConsumerPausesAtAnEpochsEnd(@TempDir Path dir) throws Exception {
        byte[] pad = new byte[256 * 1024];
        for (int i = 0; i < 42; i++) {
            byte[] id = ("id:s" + i).getBytes();
            byte[] b = pad.clone();
            System.arraycopy(id, 0, b, 0, id.length);
            Files.write(dir.resolve(String.format("s%02d.bin", i)), b);
        }
        List<String> batches = new ArrayList<>();
        try (Loader<Batch> loader = Loader.builder().name("paused").source(SampleSource.folder(dir, java.util.Set.of("bin")))
                .decoder(new BytesDecoder()).batchSize(4).epochs(2).shuffle(false).epochAligned(true)
                .batchesInFlight(2).bufferSize(1).readConcurrency(8).decodeConcurrency(1)
                .order(OutputOrder.COMPLETION).readTimeout(Duration.ofSeconds(1)).build()) {
            Iterator<LoadedBatch<Batch>> it = loader.iterator();
            int n = 0;
            while (it.hasNext()) {
                try (LoadedBatch<Batch> batch = it.next()) {
                    java.util.Set<Long> epochs = new java.util.TreeSet<>();
                    for (int i = 0; i < batch.size(); i++) {
                        epochs.add(batch.epoch(i));
                    }
                    batches.add(epochs + ":" + batch.size());
                }
                if (++n == 1) {
                    Thread.sleep(7_000); // an evaluation, a checkpoint save: longer than readTimeout + 5 s
                }
            }
        }
                assertThat(batches).allMatch(b -> !b.contains(","), "no batch holds two epochs");
    }


    /** Object 7's first read answers after 8 s (an HTTP fetch retrying: 4 x 30 s attempts by default). */
    private static final class SlowStore implements ObjectStore {
        final AtomicBoolean slowed = new AtomicBoolean();

        @Override
        public CompletableFuture<Sample> read(URI object, SampleAllocator bytes) {
            int i = Integer.parseInt(object.getPath().substring(1));
            byte[] content = ("id:" + i).getBytes(StandardCharsets.UTF_8);
            ByteBuffer buffer = bytes.allocate(content.length);
            buffer.put(content).flip();
            Sample s = new Sample(object.toString(), Sample.NO_LABEL, object.toString(),
                List.of(new SampleField("bin", buffer)), bytes);
            if (i == 7 && slowed.compareAndSet(false, true)) {
                return CompletableFuture.supplyAsync(() -> s, CompletableFuture.delayedExecutor(8, TimeUnit.SECONDS));
            }
            return CompletableFuture.completedFuture(s);
        }

        @Override
        public ReadableByteChannel open(String shard) throws IOException {
            throw new IOException("no shards");
        }

        @Override
        public String describe() {
            return "slow store";
        }
    }

    @Test
    void shouldKeepEpochsApartWhenAReadIsSlowerThanTheReadTimeout() {
        List<SampleEntry> entries = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            URI uri = URI.create("mem://o/" + i);
            entries.add(new SampleEntry(uri.toString(), 0, null, uri));
        }
        List<String> batches = new ArrayList<>();
        try (Loader<Batch> loader = Loader.builder().name("slow").source(SampleSource.objects(new SlowStore(),
                entries, "objects")).decoder(new BytesDecoder()).batchSize(4).epochs(2).shuffle(false)
                .epochAligned(true).order(OutputOrder.COMPLETION).readTimeout(Duration.ofSeconds(1)).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    java.util.Set<Long> epochs = new java.util.TreeSet<>();
                    for (int i = 0; i < batch.size(); i++) {
                        epochs.add(batch.epoch(i));
                    }
                    batches.add(epochs + ":" + batch.size());
                }
            }
        }
                assertThat(batches).allMatch(b -> !b.contains(","), "no batch holds two epochs");
    }
}
