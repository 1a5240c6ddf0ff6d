package org.spdl4j.djl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ai.djl.engine.Engine;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.DataType;
import ai.djl.ndarray.types.Shape;
import ai.djl.training.dataset.Batch;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.loader.Loader;
import org.spdl4j.loader.SampleSource;
import org.spdl4j.media.ImageSlotDecoder;

/** Passes, epochs and early exits of a LoaderDataset; its batches outlive their pass. */
class LoaderDatasetTest {
    private static final int SIZE = 16;

    @TempDir
    static Path dir;
    private static Path images;
    private static NDManager manager;

    @BeforeAll
    static void setUp() throws IOException {
        images = ColorSquares.generate(dir.resolve("images"), 5, SIZE, 9); // 20 images: 5 batches of 4
        manager = Engine.getEngine("PyTorch").newBaseManager();
    }

    @AfterAll
    static void tearDown() {
        manager.close();
    }

    private static LoaderDataset dataset(List<Long> epochs) {
        return LoaderDataset.builder(epoch -> {
            epochs.add(epoch);
            return Loader.builder().name("djl-dataset").source(SampleSource.folder(images))
                .decoder(ImageSlotDecoder.evaluation(SIZE, SIZE)).batchSize(4).seed(epoch).decodeConcurrency(2)
                .readConcurrency(2).build();
        }).batchesPerEpoch(5).build();
    }

    @Test
    void shouldBuildOneLoaderPerPassAndHandOutEveryBatch() {
        List<Long> epochs = new ArrayList<>();
        try (LoaderDataset data = dataset(epochs)) {
            for (int pass = 0; pass < 2; pass++) {
                int batches = 0;
                for (Batch b : data.getData(manager)) {
                    try (b) {
                        assertThat(b.getData().head().getShape()).isEqualTo(new Shape(4, SIZE, SIZE, 3));
                        assertThat(b.getData().head().getDataType()).isEqualTo(DataType.UINT8);
                        assertThat(b.getLabels().head().getShape()).isEqualTo(new Shape(4));
                        assertThat(b.getProgress()).isEqualTo(batches + 1);
                        assertThat(b.getProgressTotal()).isEqualTo(5);
                        batches++;
                    }
                }
                assertThat(batches).isEqualTo(5);
            }
            assertThat(epochs).containsExactly(0L, 1L);
        }
    }

    @Test
    void shouldKeepABatchValidAfterItsPassAndCloseALoaderLeftOpen() {
        List<Long> epochs = new ArrayList<>();
        Batch kept;
        try (LoaderDataset data = dataset(epochs)) {
            Iterator<Batch> first = data.getData(manager).iterator();
            kept = first.next();
            byte[] pixels = kept.getData().head().toByteArray();
            first.next().close(); // then the pass is left: the next one closes its loader
            Iterator<Batch> second = data.getData(manager).iterator();
            assertThat(second.hasNext()).isTrue();
            second.next().close();
            assertThat(kept.getData().head().toByteArray()).as("the batch outlives its loader").isEqualTo(pixels);
            assertThat(first.hasNext()).as("a pass never resumes once the next began").isFalse();
        } // closes the second pass's loader, mid-pass
        kept.close();
        assertThatThrownBy(() -> kept.getData().head().toByteArray()).isInstanceOf(IllegalStateException.class);
        assertThat(epochs).containsExactly(0L, 1L);
    }

    @Test
    void shouldEndAPassWithNoSuchElement() {
        try (LoaderDataset data = dataset(new ArrayList<>())) {
            Iterator<Batch> pass = data.getData(manager).iterator();
            for (int i = 0; i < 5; i++) {
                pass.next().close();
            }
            assertThat(pass.hasNext()).isFalse();
            assertThatThrownBy(pass::next).isInstanceOf(NoSuchElementException.class);
        }
    }

    @Test
    void shouldSayWhenTheLoopKeepsEveryBatchOpenInsteadOfWaiting() {
        try (LoaderDataset data = LoaderDataset.builder(epoch -> Loader.builder().name("kept")
                .source(SampleSource.folder(images)).decoder(ImageSlotDecoder.evaluation(SIZE, SIZE)).batchSize(2)
                .batchesInFlight(2).build()).build()) {
            Iterator<Batch> pass = data.getData(manager).iterator();
            List<Batch> kept = new ArrayList<>();
            kept.add(pass.next());
            kept.add(pass.next()); // both of the loader's batches, kept open
            assertThatThrownBy(pass::hasNext).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("keeps all 2 of the loader's batches open");
            kept.remove(0).close();
            assertThat(pass.hasNext()).as("one closed: the pass goes on").isTrue();
            pass.next().close();
            kept.forEach(Batch::close);
        }
    }
}
