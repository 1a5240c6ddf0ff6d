package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.SampleField;
import org.spdl4j.offheap.batch.Batch;

/**
 * The loader's side of the {@link ObjectStore} contract, with a store of our own (objects named {@code mem://o/<i>},
 * bytes {@code id:<i>}): reads run {@code readConcurrency} at a time, each into a buffer of the loader's allocator;
 * a loader closed with reads in flight cancels them, and the store gives their buffers back.
 */
class LoaderObjectStoreTest {
    private static final int OBJECTS = 40;

    /** Answers the first {@code answered} objects at once; holds every later one until it is cancelled. */
    private static final class HoldingStore implements ObjectStore {
        final int answered;
        final AtomicInteger started = new AtomicInteger();
        final AtomicInteger inFlightMax = new AtomicInteger();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger cancelled = new AtomicInteger();
        final Map<ByteBuffer, Boolean> held = new ConcurrentHashMap<>();

        HoldingStore(int answered) {
            this.answered = answered;
        }

        @Override
        public CompletableFuture<Sample> read(URI object, SampleAllocator bytes) {
            started.incrementAndGet();
            inFlightMax.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            int i = Integer.parseInt(object.getPath().substring(1));
            byte[] content = ("id:" + i).getBytes(StandardCharsets.UTF_8);
            ByteBuffer buffer = bytes.allocate(content.length);
            buffer.put(content).flip();
            CompletableFuture<Sample> result = new CompletableFuture<>();
            if (i < answered) {
                inFlight.decrementAndGet();
                result.complete(new Sample(object.toString(), Sample.NO_LABEL, object.toString(),
                    List.of(new SampleField("bin", buffer)), bytes));
                return result;
            }
            held.put(buffer, Boolean.TRUE);
            result.whenComplete((s, e) -> {
                if (result.isCancelled()) { // the contract: the buffer is back before cancel returns
                    cancelled.incrementAndGet();
                    inFlight.decrementAndGet();
                    held.remove(buffer);
                    bytes.release(buffer);
                }
            });
            return result;
        }

        @Override
        public ReadableByteChannel open(String shard) throws IOException {
            throw new IOException("no shards here");
        }

        @Override
        public String describe() {
            return "memory store";
        }
    }

    private static List<SampleEntry> entries() {
        List<SampleEntry> out = new ArrayList<>();
        for (int i = 0; i < OBJECTS; i++) {
            URI uri = URI.create("mem://o/" + i);
            out.add(new SampleEntry(uri.toString(), i % 3, null, uri));
        }
        return out;
    }

    @Test
    void shouldReadEveryObjectIntoItsSlotWithTheReadsInFlightBounded() {
        HoldingStore store = new HoldingStore(OBJECTS);
        List<String> texts = LoaderRun.of(Loader.builder().name("objects").source(SampleSource.objects(store,
                entries(), "memory objects")).decoder(new BytesDecoder()).batchSize(4).shuffle(false)
                .order(OutputOrder.INPUT).readConcurrency(3), Integer.MAX_VALUE).delivered.stream()
            .map(d -> d.key() + "=" + d.text() + "/" + d.label()).toList();
        assertThat(texts).hasSize(OBJECTS).startsWith("mem://o/0=id:0/0", "mem://o/1=id:1/1");
        assertThat(store.inFlightMax.get()).isLessThanOrEqualTo(3);
    }

    @Test
    void shouldCancelTheReadsInFlightWhenClosedAndGetTheirBuffersBack() throws Exception {
        HoldingStore store = new HoldingStore(4); // objects 4 and up never answer
        try (Loader<Batch> loader = Loader.builder().name("objects-held").source(SampleSource.objects(store,
                entries(), "memory objects")).decoder(new BytesDecoder()).batchSize(4).shuffle(false)
                .order(OutputOrder.INPUT).readConcurrency(8).build()) {
            try (LoadedBatch<Batch> batch = loader.iterator().next()) {
                assertThat(batch.size()).isEqualTo(4);
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (store.started.get() < 12 && System.nanoTime() < deadline) {
                Thread.sleep(5); // the read stage fills its 8 slots with held reads
            }
            assertThat(store.inFlight.get()).isEqualTo(8);
        }
        assertThat(store.cancelled.get()).as("held reads cancelled by close").isEqualTo(8);
        assertThat(store.held).as("buffers still held by the store").isEmpty();
    }

    @Test
    void shouldRefuseAnEntryThatNamesNoObject() {
        HoldingStore store = new HoldingStore(0);
        assertThatThrownBy(() -> SampleSource.objects(store, List.of(SampleEntry.file(java.nio.file.Path.of("a"), 0)),
                "objects"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names no object")
            .hasMessageContaining("memory store");
        assertThatThrownBy(() -> SampleSource.objects(store, List.of(), "objects"))
            .hasMessageContaining("no object to read");
    }
}
