package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.testing.ChildJvm;

/**
 * Checkpoint and resume exact to the sample, for every source kind and both orders, shuffled, two epochs, a third of
 * the samples bad: a run stopped after k batches (in the first epoch, or in the second), whose state is resumed in a
 * child JVM, delivers with it exactly what one uninterrupted run delivers: the same sequence of keys in input order,
 * the same multiset in completion order.
 */
class LoaderResumeTest {
    static final int COUNT = 45;
    private static final int BATCH = 4;
    private static final int EPOCHS = 2;

    @TempDir
    static Path dir;
    static LoaderData data;

    @BeforeAll
    static void data() throws Exception {
        data = new LoaderData(dir.resolve("data"), COUNT);
    }

    @AfterAll
    static void stop() {
        data.close();
    }

    static LoaderBuilder<Batch> recipe(LoaderData data, LoaderData.Kind kind, OutputOrder order) throws Exception {
        return Loader.builder().name("resume").source(data.source(kind)).decoder(new BytesDecoder())
            .batchSize(BATCH).epochs(EPOCHS).seed(11).shuffle(true).order(order).readConcurrency(4)
            .decodeConcurrency(2);
    }

    static List<Arguments> cells() {
        List<Arguments> out = new ArrayList<>();
        for (LoaderData.Kind kind : LoaderData.Kind.values()) {
            for (OutputOrder order : OutputOrder.values()) {
                out.add(Arguments.of(kind, order, 2));  // in the first epoch
                out.add(Arguments.of(kind, order, 11)); // in the second: 30 good samples per epoch, 4 a batch
            }
        }
        return out;
    }

    @ParameterizedTest(name = "{0} {1} stop after {2} batches")
    @MethodSource("cells")
    void shouldResumeInANewJvmExactlyWhereItStopped(LoaderData.Kind kind, OutputOrder order, int k) throws Exception {
        List<String> whole = run(kind, order, Integer.MAX_VALUE, null).keys;
        Run first = run(kind, order, k, null);
        Path state = dir.resolve("state-" + kind + order + k + ".txt");
        Path keys = dir.resolve("keys-" + kind + order + k + ".txt");
        Files.writeString(state, first.state.encode());
        ChildJvm.Result child = ChildJvm.run(List.of("-Dresume.root=" + data.root, "-Dresume.kind=" + kind,
            "-Dresume.order=" + order, "-Dresume.state=" + state, "-Dresume.keys=" + keys), ResumeChild.class);
        assertThat(child.exit()).as(child.output()).isZero();
        List<String> resumed = new ArrayList<>(first.keys);
        resumed.addAll(Files.readAllLines(keys));
        if (order == OutputOrder.INPUT) {
            assertThat(resumed).as("keys before and after the checkpoint (state %s)", first.state)
                .containsExactlyElementsOf(whole);
        } else {
            assertThat(resumed).as("keys before and after the checkpoint (state %s)", first.state)
                .containsExactlyInAnyOrderElementsOf(whole);
        }
        assertThat(whole).hasSize(EPOCHS * 30);
    }

    @Test
    void shouldSettleASampleThatFailedAloneInItsBatch() throws Exception {
        // batch size 1: the bad sample's batch has no other sample, so the assembler drops it; the run must still
        // count it settled and say it is done
        List<SampleEntry> entries = new ArrayList<>();
        String[] contents = {"id:a", "BAD:b", "id:c", "id:d"};
        for (int i = 0; i < contents.length; i++) {
            Path f = Files.createDirectories(dir.resolve("alone")).resolve("s" + i + ".bin");
            Files.writeString(f, contents[i]);
            entries.add(SampleEntry.file(f, 0));
        }
        LoaderRun run = LoaderRun.of(Loader.builder().name("alone").source(SampleSource.of(entries))
            .decoder(new BytesDecoder()).batchSize(1).order(OutputOrder.INPUT), Integer.MAX_VALUE);
        assertThat(run.keys).hasSize(3);
        assertThat(run.failures).isOne();
        assertThat(run.state.epoch()).as("state %s", run.state.encode()).isOne();
        assertThat(run.state.marks()).isEmpty();
    }

    @Test
    void shouldSayItIsDoneWhenDropLastDroppedTheLastBatch() throws Exception {
        List<SampleEntry> entries = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Path f = Files.createDirectories(dir.resolve("dropped")).resolve("d" + i + ".bin");
            Files.writeString(f, "id:d" + i);
            entries.add(SampleEntry.file(f, 0));
        }
        LoaderRun run = LoaderRun.of(Loader.builder().name("dropped").source(SampleSource.of(entries))
            .decoder(new BytesDecoder()).batchSize(4).dropLast(true), Integer.MAX_VALUE);
        assertThat(run.keys).hasSize(8);
        assertThat(run.state.epoch()).as("state %s: the 2 dropped samples are settled", run.state.encode()).isOne();
    }

    @Test
    void shouldSayItIsDoneAfterTheLastBatch() throws Exception {
        Run all = run(LoaderData.Kind.FOLDER, OutputOrder.COMPLETION, Integer.MAX_VALUE, null);
        assertThat(all.state.epoch()).isEqualTo(EPOCHS);
        assertThat(all.state.marks()).isEmpty();
        Run again = run(LoaderData.Kind.FOLDER, OutputOrder.COMPLETION, Integer.MAX_VALUE, all.state);
        assertThat(again.keys).isEmpty();
    }

    @Test
    void shouldGiveEachSampleTheBatchItHadWhenASampleFailedToDecodeBeforeTheCheckpoint() throws Exception {
        // 10 samples, 4 a batch, the last partial batch dropped: [0-3] [4 5 (6 fails) 7] and [8 9] dropped
        List<SampleEntry> entries = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            Path f = Files.createDirectories(dir.resolve("droplast")).resolve("d" + i + ".bin");
            Files.writeString(f, (i == 6 ? "BAD:d" : "id:d") + i);
            entries.add(SampleEntry.file(f, 0));
        }
        java.util.function.Supplier<LoaderBuilder<Batch>> recipe = () -> Loader.builder().name("droplast")
            .source(SampleSource.of(entries)).decoder(new BytesDecoder()).batchSize(BATCH).shuffle(false)
            .dropLast(true).order(OutputOrder.INPUT);
        List<String> whole = new ArrayList<>();
        try (Loader<Batch> loader = recipe.get().build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        whole.add(batch.key(i));
                    }
                }
            }
        }
        List<String> resumed = new ArrayList<>();
        LoaderState state;
        try (Loader<Batch> loader = recipe.get().build()) {
            try (LoadedBatch<Batch> batch = loader.iterator().next()) {
                for (int i = 0; i < batch.size(); i++) {
                    resumed.add(batch.key(i));
                }
            }
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (loader.failures() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(5); // the second batch's bad sample fails before the checkpoint
            }
            assertThat(loader.failures()).isEqualTo(1);
            state = loader.state();
        }
        try (Loader<Batch> loader = recipe.get().resume(state).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        resumed.add(batch.key(i));
                    }
                }
            }
        }
        assertThat(whole).hasSize(7);
        assertThat(resumed).as("keys before and after the checkpoint (state %s)", state)
            .containsExactlyElementsOf(whole);
    }

    @Test
    void shouldRefuseAStateOfAnotherSeed() throws Exception {
        LoaderState other = LoaderState.start(99, 0, 1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> recipe(data, LoaderData.Kind.FOLDER,
                OutputOrder.INPUT).resume(other).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("seed 99");
    }

    private record Run(List<String> keys, LoaderState state) {
    }

    private static Run run(LoaderData.Kind kind, OutputOrder order, int batches, LoaderState from) throws Exception {
        List<String> keys = new ArrayList<>();
        try (Loader<Batch> loader = recipe(data, kind, order).resume(from).build()) {
            int n = 0;
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        keys.add(batch.key(i));
                    }
                }
                if (++n == batches) {
                    break;
                }
            }
            return new Run(keys, loader.state());
        }
    }
}
