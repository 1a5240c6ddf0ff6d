package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.offheap.batch.Batch;

/** Ranks split every source kind without overlap; a user's iterable streams in its own order, resumably. */
class LoaderRanksTest {
    @TempDir
    static Path dir;
    static LoaderData data;

    @BeforeAll
    static void data() throws Exception {
        data = new LoaderData(dir, 36);
    }

    @AfterAll
    static void stop() {
        data.close();
    }

    @Test
    void shouldGiveEachRankItsOwnShareOfEveryListSource() throws Exception {
        for (LoaderData.Kind kind : List.of(LoaderData.Kind.FOLDER, LoaderData.Kind.PATH_LIST,
                LoaderData.Kind.URLS)) {
            List<String> all = new ArrayList<>();
            for (int r = 0; r < 3; r++) {
                all.addAll(keys(Loader.builder().source(data.source(kind)).rank(new RankInfo(r, 3))));
            }
            assertThat(all).as(kind.toString()).containsExactlyInAnyOrderElementsOf(data.expected(kind).keySet());
        }
    }

    @Test
    void shouldEndAtOnceForARankThatGetsNoSample() throws Exception {
        // 2 samples for 4 ranks: each rank's share of a list source is 0 (the remainder is dropped)
        List<SampleEntry> two = List.of(SampleEntry.file(dir.resolve("folder/c0/s000.bin"), 0),
            SampleEntry.file(dir.resolve("folder/c1/s001.bin"), 1));
        List<String> keys = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(10),
            () -> keys(Loader.builder().source(SampleSource.of(two)).rank(new RankInfo(3, 4)).epochs(2)));
        assertThat(keys).isEmpty();
    }

    @Test
    void shouldTellItsSizeWhenKnownBeforeReading() throws Exception {
        SampleSource folder = data.source(LoaderData.Kind.FOLDER);
        assertThat(folder.size()).isEqualTo(36);
        assertThat(folder.samplesPerEpoch(new RankInfo(1, 3))).isEqualTo(12);
        assertThat(folder.samplesPerEpoch(new RankInfo(1, 5))).isEqualTo(7); // the remainder dropped
        assertThat(data.source(LoaderData.Kind.URLS).size()).isEqualTo(36);
        assertThat(data.source(LoaderData.Kind.TAR).size()).isEqualTo(-1);
    }

    @Test
    void shouldDealTarShardsWholeToRanks() throws Exception {
        List<String> all = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
            all.addAll(keys(Loader.builder().source(data.source(LoaderData.Kind.TAR)).rank(new RankInfo(r, 3))));
        }
        assertThat(all).containsExactlyInAnyOrderElementsOf(data.expected(LoaderData.Kind.TAR).keySet());
    }

    @Test
    void shouldStreamAUsersIterableInItsOrderAndResumeIt() throws Exception {
        List<SampleEntry> entries;
        try (Stream<Path> files = Files.walk(dir.resolve("folder"))) {
            entries = files.filter(Files::isRegularFile).sorted().map(p -> SampleEntry.file(p, 0)).toList();
        }
        SampleSource streamed = SampleSource.streamed(entries);
        List<String> whole = keys(Loader.builder().source(streamed).order(OutputOrder.INPUT).epochs(2));
        List<String> goodInOrder = entries.stream().map(SampleEntry::key)
            .filter(k -> data.expected(LoaderData.Kind.PATH_LIST).containsKey(k)).toList();
        assertThat(whole.subList(0, goodInOrder.size())).containsExactlyElementsOf(goodInOrder);

        List<String> first = new ArrayList<>();
        LoaderState state;
        try (Loader<Batch> loader = Loader.builder().source(streamed).order(OutputOrder.INPUT).epochs(2)
                .decoder(new BytesDecoder()).batchSize(4).build()) {
            int n = 0;
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        first.add(batch.key(i));
                    }
                }
                if (++n == 7) {
                    break;
                }
            }
            state = loader.state();
        }
        List<String> rest = keys(Loader.builder().source(streamed).order(OutputOrder.INPUT).epochs(2)
            .resume(LoaderState.parse(state.encode())));
        first.addAll(rest);
        assertThat(first).containsExactlyElementsOf(whole);
    }

    private static List<String> keys(LoaderBuilder<Batch> recipe) {
        List<String> keys = new ArrayList<>();
        try (Loader<Batch> loader = recipe.decoder(new BytesDecoder()).batchSize(4).decodeConcurrency(2).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        keys.add(batch.key(i));
                    }
                }
            }
        }
        return keys;
    }
}
