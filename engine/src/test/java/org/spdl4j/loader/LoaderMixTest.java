package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.agrona.UnsafeApi;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.EncodedSample;
import org.spdl4j.offheap.batch.SampleSeeds;
import org.spdl4j.offheap.batch.SlotDecoder;
import org.spdl4j.offheap.tensor.DType;

/**
 * A weighted mixture of sources through the whole loader: proportions in every stretch of an epoch, epochs that end
 * where a part runs out or have a fixed length (a small part up-sampled, in new orders), exact resume, ranks, tar
 * shards mixed with files, and the mixtures refused.
 */
class LoaderMixTest {
    private static final int BIG = 30;
    private static final int SMALL = 12;

    @TempDir
    static Path dir;
    static SampleSource big;
    static SampleSource small;

    @BeforeAll
    static void data() throws IOException {
        big = SampleSource.folder(folder("big", "a", BIG), Set.of("bin"));
        small = SampleSource.folder(folder("small", "b", SMALL), Set.of("bin"));
    }

    private static Path folder(String name, String prefix, int n) throws IOException {
        Path root = Files.createDirectories(dir.resolve(name));
        for (int i = 0; i < n; i++) {
            String stem = String.format("%s%02d", prefix, i);
            Files.writeString(root.resolve(stem + ".bin"), "id:" + stem);
        }
        return root;
    }

    private static LoaderBuilder<Batch> recipe(SampleSource source) {
        return Loader.builder().name("mix").source(source).decoder(new BytesDecoder()).batchSize(4).seed(5)
            .order(OutputOrder.INPUT).readConcurrency(4).decodeConcurrency(2);
    }

    @Test
    void shouldEndAnEpochWhereAPartRunsOutWithEveryStretchInProportion() {
        SampleSource mix = SampleSource.mix().add(big, 1).add(small, 1).build();
        // equal weights alternate a b a b ...: b's 12 samples end the epoch after a's 13th (a goes first)
        assertThat(mix.size()).isEqualTo(2 * SMALL + 1);
        LoaderRun run = LoaderRun.of(recipe(mix).dropLast(false), Integer.MAX_VALUE);
        assertThat(run.keys).hasSize(2 * SMALL + 1).doesNotHaveDuplicates();
        assertThat(run.keys.stream().filter(k -> k.startsWith("b"))).hasSize(SMALL);
        for (int p = 0; p < run.keys.size(); p++) {
            assertThat(run.keys.get(p)).as("position %d of %s", p, run.keys).startsWith(p % 2 == 0 ? "a" : "b");
            assertThat(run.texts.get(run.keys.get(p))).isEqualTo("id:" + run.keys.get(p).replace(".bin", ""));
        }
    }

    @Test
    void shouldUpSampleASmallPartInNewOrdersWhenEpochsHaveAFixedLength() {
        SampleSource mix = SampleSource.mix().add(big, 1).add(small, 1).samplesPerEpoch(60).build();
        LoaderRun run = LoaderRun.of(recipe(mix).epochs(1), Integer.MAX_VALUE);
        assertThat(run.keys).hasSize(60);
        Map<String, Integer> times = new HashMap<>();
        run.keys.forEach(k -> times.merge(k, 1, Integer::sum));
        List<String> smallOnes = run.keys.stream().filter(k -> k.startsWith("b")).toList();
        assertThat(smallOnes).hasSize(30); // 12 + 12 + 6: two whole passes and part of a third
        assertThat(times.entrySet().stream().filter(e -> e.getKey().startsWith("a")).map(Map.Entry::getValue))
            .hasSize(BIG).containsOnly(1);
        // each pass is the whole part once, in its own order
        assertThat(new HashSet<>(smallOnes.subList(0, SMALL))).hasSize(SMALL);
        assertThat(new HashSet<>(smallOnes.subList(SMALL, 2 * SMALL))).hasSize(SMALL);
        assertThat(smallOnes.subList(SMALL, 2 * SMALL)).isNotEqualTo(smallOnes.subList(0, SMALL));
    }

    @Test
    void shouldGiveASampleDrawnAgainInAnEpochAnotherTransformSeed() {
        SampleSource mix = SampleSource.mix().add(big, 1).add(small, 1).samplesPerEpoch(60).build();
        Map<String, List<Long>> seeds = new HashMap<>();
        try (Loader<Batch> loader = Loader.builder().name("seeds").source(mix).decoder(new SeedDecoder()).batchSize(4)
                .seed(5).epochs(1).build()) {
            for (LoadedBatch<Batch> batch : loader) {
                try (batch) {
                    for (int i = 0; i < batch.size(); i++) {
                        seeds.computeIfAbsent(batch.key(i), k -> new ArrayList<>())
                            .add(UnsafeApi.getLong(batch.data().sampleAddress(i)));
                    }
                }
            }
        }
        for (Map.Entry<String, List<Long>> e : seeds.entrySet()) {
            if (e.getKey().startsWith("a")) { // drawn once: the seed any loader gives it in epoch 0
                assertThat(e.getValue()).containsExactly(SampleSeeds.of(5, 0, SampleSeeds.keyId(e.getKey())));
            } else {                          // drawn two or three times: another seed each time
                assertThat(e.getValue()).as(e.getKey()).hasSizeBetween(2, 3).doesNotHaveDuplicates();
            }
        }
    }

    /** Writes the sample's transform seed into its slot. */
    private static final class SeedDecoder implements SlotDecoder {
        @Override
        public DType dtype() {
            return DType.U8;
        }

        @Override
        public long[] sampleShape() {
            return new long[] {Long.BYTES};
        }

        @Override
        public void decode(EncodedSample sample, long destination, int length) {
            UnsafeApi.putLong(destination, sample.seed());
        }
    }

    @Test
    void shouldResumeAMixtureExactlyWhereItStopped() {
        for (long perEpoch : new long[] {-1, 50}) {
            SampleMix m = SampleSource.mix().add(big, 3).add(small, 1);
            SampleSource mix = perEpoch < 0 ? m.build() : m.samplesPerEpoch(perEpoch).build();
            List<String> whole = LoaderRun.of(recipe(mix).epochs(2), Integer.MAX_VALUE).keys;
            for (int k : new int[] {1, 4, 9}) { // in the first epoch, at its end, in the second
                LoaderRun first = LoaderRun.of(recipe(mix).epochs(2), k);
                LoaderState saved = LoaderState.parse(first.state.encode());
                List<String> resumed = new ArrayList<>(first.keys);
                resumed.addAll(LoaderRun.of(recipe(mix).epochs(2).resume(saved), Integer.MAX_VALUE).keys);
                assertThat(resumed).as("%s samples per epoch, stopped after %d batches (state %s)", perEpoch, k,
                    saved).containsExactlyElementsOf(whole);
            }
            assertThat(whole).hasSize(2 * (int) mix.size());
        }
    }

    @Test
    void shouldGiveEachRankItsOwnShareOfEveryPartInProportion() {
        SampleSource mix = SampleSource.mix().add(big, 2).add(small, 1).build();
        List<String> all = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            List<String> keys = LoaderRun.of(recipe(mix).rank(new RankInfo(r, 2)).dropLast(false), Integer.MAX_VALUE)
                .keys;
            // each rank has 6 of the small part's 12; at 2:1 its epoch ends with about twice as many of the big one
            long length = mix.samplesPerEpoch(new RankInfo(r, 2));
            assertThat(keys).as("rank %d", r).hasSize((int) length);
            assertThat(keys.stream().filter(k -> k.startsWith("b"))).as("rank %d: %s", r, keys).hasSize(6);
            assertThat(length - 6).as("rank %d: %s", r, keys).isBetween(12L, 13L);
            all.addAll(keys);
        }
        assertThat(all).doesNotHaveDuplicates();
    }

    @Test
    void shouldMixTarShardsWithFiles() throws IOException {
        TestTarWriter tar = new TestTarWriter();
        for (int i = 0; i < 8; i++) {
            tar.add("t" + i + ".bin", ("id:t" + i).getBytes(StandardCharsets.UTF_8))
                .add("t" + i + ".cls", "7".getBytes(StandardCharsets.US_ASCII));
        }
        Path shard = dir.resolve("mixed-shard.tar");
        Files.write(shard, tar.finish());
        SampleSource mix = SampleSource.mix().add(SampleSource.tarShards(shard), 1).add(big, 1).build();
        LoaderRun run = LoaderRun.of(recipe(mix).dropLast(false), Integer.MAX_VALUE);
        List<String> fromTar = run.keys.stream().filter(k -> k.contains("@")).toList();
        assertThat(fromTar).hasSize(8);
        for (String k : fromTar) {
            String member = k.substring(k.indexOf('@') + 1);
            assertThat(run.texts.get(k)).isEqualTo("id:" + member);
            assertThat(run.labels.get(k)).isEqualTo(7);
        }
        // t a t a ...: the shard's length is known only once read; its 9th turn finds it used up and ends the epoch
        assertThat(run.keys).hasSize(16).doesNotHaveDuplicates();
    }

    @Test
    void shouldInterleaveTarShardsAndResumeThemExactly() throws IOException {
        List<Path> shards = new ArrayList<>();
        for (int s = 0; s < 4; s++) {
            TestTarWriter tar = new TestTarWriter();
            for (int i = 0; i < 6; i++) { // each shard one class, as a shard set written in class order is
                tar.add("k" + s + "-" + i + ".bin", ("id:k" + s + "-" + i).getBytes(StandardCharsets.UTF_8))
                    .add("k" + s + "-" + i + ".cls", String.valueOf(s).getBytes(StandardCharsets.US_ASCII));
            }
            Path shard = dir.resolve("class-" + s + ".tar");
            Files.write(shard, tar.finish());
            shards.add(shard);
        }
        SampleSource interleaved = SampleSource.tarShards(shards).interleave(4);
        LoaderRun whole = LoaderRun.of(recipe(interleaved).epochs(2), Integer.MAX_VALUE);
        assertThat(whole.keys).hasSize(48);
        for (int b = 0; b < 12; b++) { // every batch of 4 holds the 4 classes
            assertThat(whole.delivered.subList(4 * b, 4 * b + 4).stream().map(LoaderRun.Delivered::label).distinct())
                .as("batch %d", b).hasSize(4);
        }
        for (int k : new int[] {1, 5, 7}) {
            LoaderRun first = LoaderRun.of(recipe(interleaved).epochs(2), k);
            List<String> resumed = new ArrayList<>(first.keys);
            resumed.addAll(LoaderRun.of(recipe(interleaved).epochs(2).resume(LoaderState.parse(first.state.encode())),
                Integer.MAX_VALUE).keys);
            assertThat(resumed).as("stopped after %d batches", k).containsExactlyElementsOf(whole.keys);
        }
        assertThatThrownBy(() -> big.interleave(2)).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("not tar shards");
    }

    @Test
    void shouldRefuseMixturesThatCannotShareAReadStageOrBeResharded() throws IOException {
        SampleSource urls = SampleSource.of(List.of(SampleEntry.url(URI.create("http://127.0.0.1:9/x.bin"), 0)));
        assertThatThrownBy(() -> SampleSource.mix().add(big, 1).add(urls, 1).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("share one read stage")
            .hasMessageContaining("list of 1 samples");
        assertThatThrownBy(() -> SampleSource.mix().build()).hasMessageContaining("at least one part");
        assertThatThrownBy(() -> SampleSource.mix().add(big, 0)).hasMessageContaining("above 0");
        assertThatThrownBy(() -> SampleSource.mix().samplesPerEpoch(0)).hasMessageContaining(">= 1");

        SampleSource mix = SampleSource.mix().add(big, 1).add(small, 1).build();
        List<LoaderState> saved = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            saved.add(LoaderRun.of(recipe(mix).rank(new RankInfo(r, 2)), 1).state);
        }
        assertThatThrownBy(() -> recipe(mix).rank(new RankInfo(0, 3)).resume(saved).build())
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mixture")
            .hasMessageContaining("saved number of ranks");
    }
}
