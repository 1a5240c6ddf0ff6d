package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.offheap.batch.Batch;

/** Epoch-aligned batches: no batch holds two epochs, each epoch ends with its own last batch, resume stays exact. */
class LoaderEpochAlignedTest {
    @TempDir
    static Path dir;
    static SampleSource ten;

    @BeforeAll
    static void data() throws Exception {
        for (int i = 0; i < 10; i++) {
            Files.writeString(dir.resolve("s" + i + ".bin"), "id:s" + i);
        }
        ten = SampleSource.folder(dir, java.util.Set.of("bin"));
    }

    private static LoaderBuilder<Batch> recipe(OutputOrder order) {
        return Loader.builder().name("aligned").source(ten).decoder(new BytesDecoder()).batchSize(4).epochs(3)
            .epochAligned(true).order(order).readConcurrency(8).decodeConcurrency(2);
    }

    /** Each batch as its epochs and size: "0:4". */
    private static List<String> batches(LoaderBuilder<Batch> recipe) {
        List<String> out = new ArrayList<>();
        try (Loader<Batch> loader = recipe.build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    java.util.Set<Long> epochs = new java.util.TreeSet<>();
                    for (int i = 0; i < batch.size(); i++) {
                        epochs.add(batch.epoch(i));
                    }
                    out.add(epochs.stream().map(String::valueOf).reduce((a, b) -> a + "+" + b).orElse("") + ":"
                        + batch.size());
                }
            }
        }
        return out;
    }

    @Test
    void shouldEndEveryEpochWithItsOwnLastBatchInEitherOrder() {
        assertThat(batches(recipe(OutputOrder.INPUT)))
            .containsExactly("0:4", "0:4", "0:2", "1:4", "1:4", "1:2", "2:4", "2:4", "2:2");
        // in completion order a batch goes out when its last sample is decoded: the same batches, in any order
        assertThat(batches(recipe(OutputOrder.COMPLETION)))
            .containsExactlyInAnyOrder("0:4", "0:4", "0:2", "1:4", "1:4", "1:2", "2:4", "2:4", "2:2");
        // without alignment batches run across epoch ends
        assertThat(batches(recipe(OutputOrder.INPUT).epochAligned(false))).contains("0+1:4");
    }

    @Test
    void shouldDropEachEpochsPartialBatchWithDropLastAndSayItIsDone() {
        assertThat(batches(recipe(OutputOrder.COMPLETION).dropLast(true)))
            .containsExactlyInAnyOrder("0:4", "0:4", "1:4", "1:4", "2:4", "2:4");
        LoaderRun run = LoaderRun.of(recipe(OutputOrder.INPUT).dropLast(true), Integer.MAX_VALUE);
        assertThat(run.state.epoch()).as("%s", run.state.encode()).isEqualTo(3);
    }

    @Test
    void shouldResumeExactly() {
        List<String> whole = LoaderRun.of(recipe(OutputOrder.INPUT), Integer.MAX_VALUE).keys;
        for (int k : new int[] {1, 3, 4, 7}) {
            LoaderRun first = LoaderRun.of(recipe(OutputOrder.INPUT), k);
            List<String> resumed = new ArrayList<>(first.keys);
            resumed.addAll(LoaderRun.of(recipe(OutputOrder.INPUT).resume(LoaderState.parse(first.state.encode())),
                Integer.MAX_VALUE).keys);
            assertThat(resumed).as("stopped after %d batches", k).containsExactlyElementsOf(whole);
        }
    }
}
