package org.spdl4j.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.loader.LoadedBatch;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.batch.Batch;

/** A loader batch as NDArrays over its own memory, and who holds that memory when. */
class NdBatchAdapterTest {
    private static final int SIZE = 32;
    private static final int BATCH = 8;

    @TempDir
    static Path dir;
    private static Path images;
    private static NDManager manager;

    @BeforeAll
    static void setUp() throws IOException {
        images = ColorSquares.generate(dir.resolve("images"), 12, SIZE, 3); // 48 images, 6 batches
        manager = Engine.getEngine("PyTorch").newBaseManager();
    }

    @AfterAll
    static void tearDown() {
        manager.close();
    }

    private static Loader<Batch> loader(int batchesInFlight) {
        return Loader.builder().name("djl-adapter").source(SampleSource.folder(images))
            .decoder(ImageSlotDecoder.evaluation(SIZE, SIZE)).batchSize(BATCH).shuffle(false)
            .order(OutputOrder.INPUT).decodeConcurrency(2).readConcurrency(4).batchesInFlight(batchesInFlight)
            .build();
    }

    private static byte[] bytesOf(LoadedBatch<Batch> batch) {
        byte[] copy = new byte[Math.toIntExact(batch.data().tensor().byteSize())];
        batch.data().lease().buffer().getBytes(0, copy);
        return copy;
    }

    @Test
    void shouldWrapTheBatchMemoryWithoutCopying() {
        try (Loader<Batch> loader = loader(3); LoadedBatch<Batch> batch = loader.iterator().next();
             NdBatch nd = NdBatchAdapter.builder().build().adapt(batch, manager)) {
            assertThat(nd.data().getShape()).isEqualTo(new Shape(BATCH, SIZE, SIZE, 3));
            assertThat(nd.data().getDataType()).isEqualTo(DataType.UINT8);
            assertThat(nd.data().toByteArray()).isEqualTo(bytesOf(batch));
            assertThat(nd.labels().getDataType()).isEqualTo(DataType.INT32);
            int[] labels = new int[BATCH];
            for (int i = 0; i < BATCH; i++) {
                labels[i] = batch.label(i);
            }
            assertThat(nd.labels().toIntArray()).isEqualTo(labels);

            // the proof of no copy: bytes written into the batch memory afterwards are what the arrays read
            int last = Math.toIntExact(batch.data().tensor().byteSize()) - 1;
            byte before = nd.data().toByteArray()[last];
            batch.data().lease().buffer().putByte(last, (byte) (before + 1));
            assertThat(nd.data().toByteArray()[last]).isEqualTo((byte) (before + 1));
            batch.labels().lease().buffer().putInt(0, 1234);
            assertThat(nd.labels().toIntArray()[0]).isEqualTo(1234);
        }
    }

    @Test
    void shouldKeepTheBatchMemoryForTheArraysAfterTheLoaderMovedOn() {
        NdBatch nd;
        Lease lease;
        byte[] expected;
        BufferPool pool;
        try (Loader<Batch> loader = loader(3)) {
            Iterator<LoadedBatch<Batch>> it = loader.iterator();
            LoadedBatch<Batch> first = it.next();
            lease = first.data().lease();
            pool = lease.pool();
            expected = bytesOf(first);
            nd = NdBatchAdapter.builder().build().adapt(first, manager);
            assertThat(lease.refCount()).as("the loader's batch and the arrays").isEqualTo(2);
            first.close();
            assertThat(lease.refCount()).as("the arrays alone").isEqualTo(1);
            int later = 0;
            while (it.hasNext()) { // every other batch goes through the pool's remaining buffers
                try (LoadedBatch<Batch> b = it.next()) {
                    assertThat(b.data().lease()).isNotSameAs(lease);
                    later++;
                }
            }
            assertThat(later).isEqualTo(5);
            assertThat(nd.data().toByteArray()).as("the first batch, untouched by the later ones").isEqualTo(expected);
        }
        assertThat(pool.isFreed()).as("the loader closed, the arrays still hold one buffer").isFalse();
        assertThat(pool.inUse()).isEqualTo(1);
        assertThat(nd.data().toByteArray()).isEqualTo(expected);
        nd.close();
        assertThat(nd.isReleased()).isTrue();
        assertThat(pool.isFreed()).as("both released: the pool is whole and freed").isTrue();
    }

    @Test
    void shouldReturnTheMemoryWhenTheLastOfTheTwoCloses() {
        try (Loader<Batch> loader = loader(3)) {
            LoadedBatch<Batch> batch = loader.iterator().next();
            Lease lease = batch.data().lease();
            Lease labels = batch.labels().lease();
            NdBatch nd = NdBatchAdapter.builder().build().adapt(batch, manager);
            nd.close(); // the arrays first this time
            assertThat(lease.refCount()).as("the loader's batch still holds it").isEqualTo(1);
            assertThat(labels.refCount()).isEqualTo(1);
            assertThat(bytesOf(batch)).hasSize(BATCH * SIZE * SIZE * 3); // still readable through the loader's batch
            batch.close();
            assertThat(lease.refCount()).isZero();
            assertThat(labels.refCount()).isZero();
        }
    }

    @Test
    void shouldFailLoudlyWhenAnArrayIsUsedAfterItsBatchWasReleased() {
        try (Loader<Batch> loader = loader(3)) {
            NdBatch nd;
            NDArray escaped;
            try (LoadedBatch<Batch> batch = loader.iterator().next()) {
                nd = NdBatchAdapter.builder().checked(true).build().adapt(batch, manager);
                escaped = nd.labels();
                escaped.detach(); // out of the batch's manager: closing the batch still closes it
            }
            NDArray data = nd.data();
            nd.close();
            assertThatThrownBy(data::toByteArray).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("release");
            assertThatThrownBy(escaped::toIntArray).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("release");
        }
    }

    @Test
    void shouldConvertLabelsToTheTypeAsked() {
        try (Loader<Batch> loader = loader(3); LoadedBatch<Batch> batch = loader.iterator().next();
             NdBatch nd = NdBatchAdapter.builder().labelType(DataType.INT64).build().adapt(batch, manager)) {
            assertThat(nd.labels().getDataType()).isEqualTo(DataType.INT64);
            assertThat(nd.labels().toLongArray()[0]).isEqualTo(batch.label(0));
        }
    }
}
