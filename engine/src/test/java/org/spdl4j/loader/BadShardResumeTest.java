package org.spdl4j.loader;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.tar.TestTarWriter;
import org.spdl4j.offheap.batch.Batch;

/**
 * Exact resume where a source ends early or goes bad: tar shards with a bad or truncated shard (plain, read several at
 * once, or as a mixture's part: skipping by headers passes over exactly what reading delivers), and a fixed-length
 * mixture whose part has no sample on a rank (its epochs still end).
 */
@Timeout(120)
class BadShardResumeTest {
    @TempDir
    static Path dir;
    static SampleSource big;

    @BeforeAll
    static void data() throws Exception {
        Path root = Files.createDirectories(dir.resolve("big"));
        for (int i = 0; i < 30; i++) {
            Files.writeString(root.resolve(String.format("a%02d.bin", i)), String.format("id:a%02d", i));
        }
        big = SampleSource.folder(root, Set.of("bin"));
    }

    private static LoaderBuilder<Batch> recipe(SampleSource source) {
        return Loader.builder().name("bad-shards").source(source).decoder(new BytesDecoder()).batchSize(4).seed(5)
            .order(OutputOrder.INPUT).readConcurrency(2).decodeConcurrency(1).shuffle(false);
    }

    @Test
    void fixedLengthMixtureWithAPartEmptyOnThisRankFinishesItsEpochs() throws IOException {
        SampleSource tiny = SampleSource.of(List.of(SampleEntry.file(
            Files.writeString(dir.resolve("tiny.bin"), "id:tiny"), 0))); // 1 sample: 0 per rank of 2
        SampleSource mix = SampleSource.mix().add(big, 1).add(tiny, 1).samplesPerEpoch(20).build();
        LoaderRun run = LoaderRun.of(recipe(mix).rank(new RankInfo(0, 2)).epochs(2).dropLast(false),
            Integer.MAX_VALUE);
        assertThat(run.state.epoch()).as("keys %s, state %s", run.keys, run.state.encode()).isEqualTo(2);
    }

    private static Path shard(String name, String prefix, int n, int dupAt) throws IOException {
        TestTarWriter tar = new TestTarWriter();
        for (int i = 0; i < n; i++) {
            String stem = prefix + i;
            tar.add(stem + ".bin", ("id:" + stem).getBytes(StandardCharsets.UTF_8));
            if (i == dupAt) {
                tar.add(stem + ".bin", ("id:" + stem).getBytes(StandardCharsets.UTF_8)); // a repeated field
            }
        }
        Path p = dir.resolve(name);
        Files.write(p, tar.finish());
        return p;
    }

    private static void resumeExactly(SampleSource source, int[] stops) {
        List<String> whole = LoaderRun.of(recipe(source).epochs(1).dropLast(false), Integer.MAX_VALUE).keys;
        for (int k : stops) {
            LoaderRun first = LoaderRun.of(recipe(source).epochs(1).dropLast(false), k);
            List<String> resumed = new ArrayList<>(first.keys);
            resumed.addAll(LoaderRun.of(recipe(source).epochs(1).dropLast(false)
                .resume(LoaderState.parse(first.state.encode())), Integer.MAX_VALUE).keys);
            assertThat(resumed).as("stopped after %d batches; whole %s", k, whole).containsExactlyElementsOf(whole);
        }
    }

    /** A shard that goes bad in the middle (a repeated member): resume of interleaved shards must be exact. */
    @Test
    void interleavedShardsWithABadShardResumeExactly() throws IOException {
        Path a = shard("bad-a.tar", "a", 10, 2);
        Path b = shard("bad-b.tar", "b", 10, -1);
        resumeExactly(SampleSource.tarShards(List.of(a, b)).interleave(2), new int[] {1, 2, 3});
    }

    @Test
    void plainShardsWithABadShardResumeExactly() throws IOException {
        Path a = shard("bad-p.tar", "p", 10, 2);
        Path b = shard("good-p.tar", "q", 10, -1);
        resumeExactly(SampleSource.tarShards(List.of(a, b)), new int[] {1, 2});
    }

    private static Path cut(String name, String prefix) throws IOException {
        TestTarWriter tar = new TestTarWriter();
        for (int i = 0; i < 10; i++) {
            tar.add(prefix + i + ".bin", ("id:" + prefix + i + "-" + "x".repeat(600))
                .getBytes(StandardCharsets.US_ASCII));
        }
        byte[] bytes = tar.finish();
        Path p = dir.resolve(name);
        Files.write(p, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        return p;
    }

    @Test
    void plainShardsWithATruncatedShardResumeExactly() throws IOException {
        Path a = cut("cut-p.tar", "c");
        Path b = shard("good-c.tar", "d", 10, -1);
        resumeExactly(SampleSource.tarShards(List.of(a, b)), new int[] {1, 2, 3});
    }

    @Test
    void interleavedShardsWithATruncatedShardResumeExactly() throws IOException {
        Path a = cut("cut-i.tar", "e");
        Path b = shard("good-i.tar", "f", 10, -1);
        resumeExactly(SampleSource.tarShards(List.of(a, b)).interleave(2), new int[] {1, 2, 3});
    }

    @Test
    void mixtureWithATruncatedTarPartResumesExactly() throws IOException {
        Path a = cut("cut-m.tar", "g");
        Path b = shard("good-g.tar", "h", 10, -1);
        SampleSource mix = SampleSource.mix().add(SampleSource.tarShards(List.of(a, b)), 1).add(big, 1).build();
        resumeExactly(mix, new int[] {1, 2, 3, 4, 5});
    }

    /** The same through a mixture whose tar part is opened at its count (headers only). */
    @Test
    void mixtureWithABadTarPartResumesExactly() throws IOException {
        Path a = shard("bad-m.tar", "m", 10, 2);
        Path b = shard("good-m.tar", "n", 10, -1);
        SampleSource mix = SampleSource.mix().add(SampleSource.tarShards(List.of(a, b)), 1).add(big, 1).build();
        resumeExactly(mix, new int[] {1, 2, 3, 4, 5});
    }
}
