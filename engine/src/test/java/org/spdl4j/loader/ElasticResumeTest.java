package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.spdl4j.offheap.batch.Batch;

/**
 * A run saved by N ranks resumes on M: every sample the N ranks had not settled in the open epoch is delivered once
 * across the M ranks, and the next epoch is the uninterrupted M-rank run's; checked by key, through the states' text.
 */
class ElasticResumeTest {
    private static final int SAMPLES = 103; // no world size here divides it: the remainder rule matters
    private static final int BATCH = 4;

    @TempDir
    static Path dir;
    static SampleSource source;

    @BeforeAll
    static void data() throws Exception {
        List<SampleEntry> entries = new ArrayList<>();
        for (int i = 0; i < SAMPLES; i++) {
            Path file = dir.resolve(String.format("s%03d.bin", i));
            Files.write(file, ("id:" + i).getBytes(StandardCharsets.UTF_8));
            entries.add(SampleEntry.file(file, i % 5));
        }
        source = SampleSource.of(entries);
    }

    /** What one rank delivered, by epoch, in order, and the state it saved. */
    record Run(Map<Long, List<String>> keys, LoaderState state) {
        List<String> epoch(long e) {
            return keys.getOrDefault(e, List.of());
        }
    }

    private static LoaderBuilder<Batch> recipe(int rank, int world) {
        return Loader.builder().source(source).decoder(new BytesDecoder()).batchSize(BATCH).epochs(2).seed(7)
            .order(OutputOrder.INPUT).decodeConcurrency(2).rank(new RankInfo(rank, world));
    }

    private static Run run(LoaderBuilder<Batch> recipe, int maxBatches) {
        Map<Long, List<String>> keys = new HashMap<>();
        try (Loader<Batch> loader = recipe.build()) {
            int n = 0;
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        keys.computeIfAbsent(batch.epoch(i), e -> new ArrayList<>()).add(batch.key(i));
                    }
                }
                if (++n == maxBatches) {
                    break;
                }
            }
            return new Run(keys, LoaderState.parse(loader.state().encode()));
        }
    }

    private static List<String> union(List<Run> runs, long epoch) {
        List<String> all = new ArrayList<>();
        runs.forEach(r -> all.addAll(r.epoch(epoch)));
        return all;
    }

    private static List<Run> whole(int world) {
        List<Run> runs = new ArrayList<>();
        for (int r = 0; r < world; r++) {
            runs.add(run(recipe(r, world), Integer.MAX_VALUE));
        }
        return runs;
    }

    @Test
    void shouldDeliverTheRestOfTheEpochOnceOnThreeRanksAfterTwoSavedIt() {
        List<String> epoch0 = union(whole(2), 0); // what two ranks deliver of epoch 0: 102 samples
        assertThat(epoch0).hasSize(SAMPLES / 2 * 2).doesNotHaveDuplicates();

        // Two ranks stop mid-epoch at different points: rank 0 after 7 batches, rank 1 after 4.
        List<Run> before = List.of(run(recipe(0, 2), 7), run(recipe(1, 2), 4));
        List<LoaderState> saved = List.of(before.get(0).state(), before.get(1).state());
        List<Run> after = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            after.add(run(recipe(r, 3).resume(saved), Integer.MAX_VALUE));
        }

        List<String> delivered = union(before, 0);
        delivered.addAll(union(after, 0));
        assertThat(delivered).as("epoch 0 across the change").hasSize(epoch0.size())
            .containsExactlyInAnyOrderElementsOf(epoch0);
        // The rest was dealt round-robin: shares differ by at most one sample.
        List<Integer> shares = after.stream().map(r -> r.epoch(0).size()).toList();
        assertThat(shares.stream().mapToInt(Integer::intValue).max().orElseThrow()
            - shares.stream().mapToInt(Integer::intValue).min().orElseThrow()).isLessThanOrEqualTo(1);

        List<Run> three = whole(3);
        for (int r = 0; r < 3; r++) {
            assertThat(after.get(r).epoch(1)).as("epoch 1 of rank %d equals the uninterrupted three-rank run's", r)
                .containsExactlyElementsOf(three.get(r).epoch(1));
        }
    }

    @Test
    void shouldStayExactWhenTheWorldChangesTwiceInOneEpoch() {
        List<String> epoch0 = union(whole(2), 0);
        List<Run> first = List.of(run(recipe(0, 2), 5), run(recipe(1, 2), 6));
        List<LoaderState> savedByTwo = first.stream().map(Run::state).toList();
        List<Run> second = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            second.add(run(recipe(r, 3).resume(savedByTwo), 2 + r)); // each stops early again
        }
        List<LoaderState> savedByThree = second.stream().map(Run::state).toList();
        assertThat(savedByThree.get(0).carried()).as("the state carries the slots settled by two ranks")
            .containsKey(0L);
        List<Run> third = List.of(run(recipe(0, 2).resume(savedByThree), Integer.MAX_VALUE),
            run(recipe(1, 2).resume(savedByThree), Integer.MAX_VALUE));

        List<String> delivered = union(first, 0);
        delivered.addAll(union(second, 0));
        delivered.addAll(union(third, 0));
        assertThat(delivered).hasSize(epoch0.size()).containsExactlyInAnyOrderElementsOf(epoch0);
        List<Run> two = whole(2);
        for (int r = 0; r < 2; r++) {
            assertThat(third.get(r).epoch(1)).containsExactlyElementsOf(two.get(r).epoch(1));
        }
    }

    @Test
    void shouldResumeFromAStateSavedAfterTheChange() {
        List<LoaderState> saved = List.of(run(recipe(0, 2), 3).state(), run(recipe(1, 2), 3).state());
        Run partial = run(recipe(1, 3).resume(saved), 2);
        Run straight = run(recipe(1, 3).resume(saved), Integer.MAX_VALUE);
        Run rest = run(recipe(1, 3).resume(partial.state()), Integer.MAX_VALUE);
        List<String> joined = new ArrayList<>(partial.epoch(0));
        joined.addAll(rest.epoch(0));
        assertThat(joined).containsExactlyElementsOf(straight.epoch(0));
        assertThat(rest.epoch(1)).containsExactlyElementsOf(straight.epoch(1));
    }

    @Test
    void shouldNameWhatIsMissing() {
        LoaderState rank0 = run(recipe(0, 2), 2).state();
        assertThatThrownBy(() -> recipe(0, 3).resume(List.of(rank0)).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("missing the state of rank(s) 1 of 2");
        assertThatThrownBy(() -> recipe(0, 3).resume(List.of(rank0, rank0)).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("two states of rank 0");
        LoaderState otherSeed = new LoaderState(8, 1, 2, 0, Map.of());
        assertThatThrownBy(() -> recipe(0, 3).resume(List.of(rank0, otherSeed)).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("saved with seed 8");
    }

    @Test
    void shouldRefuseASourceOfUnknownSizeOnAnotherWorld() throws Exception {
        Path shard = dir.resolve("shard.tar");
        Files.write(shard, new TestTarWriter().add("a.bin", "id:a".getBytes(StandardCharsets.UTF_8)).finish());
        LoaderState a = LoaderState.start(7, 0, 2);
        LoaderState b = LoaderState.start(7, 1, 2);
        assertThatThrownBy(() -> Loader.builder().source(SampleSource.tarShards(List.of(shard)))
                .decoder(new BytesDecoder()).seed(7).rank(new RankInfo(0, 3)).resume(List.of(a, b)).build())
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("cannot resume on another number of ranks (3) than it was saved with (2)");
    }

    @Test
    void shouldWriteAndReadCarriedSlots() {
        LoaderState s = new LoaderState(7, 2, 3, 1, Map.of(1L, new LoaderState.Mark(12, new long[0])),
            Map.of(1L, new LoaderState.Carry(2, new LoaderState.Mark(2048, new long[] {2050, 2053, 2054}))));
        assertThat(s.encode()).isEqualTo("spdl4j-loader/1 seed=7 rank=2/3 epoch=1 1:12 x1/2:2048+2050,2053-2054");
        assertThat(LoaderState.parse(s.encode())).isEqualTo(s);
    }
}
