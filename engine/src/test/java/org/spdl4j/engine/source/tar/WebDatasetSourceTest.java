package org.spdl4j.engine.source.tar;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spdl4j.engine.source.CountingAllocator;
import org.spdl4j.engine.source.EpochIterable;
import org.spdl4j.engine.source.EpochSource;
import org.spdl4j.engine.source.RankInfo;
import org.spdl4j.engine.source.RemainderPolicy;
import org.spdl4j.engine.source.Sample;
import org.spdl4j.engine.source.SampleAllocator;
import org.spdl4j.engine.source.SourceState;

class WebDatasetSourceTest {
    @TempDir
    Path dir;
    final List<String> shards = new ArrayList<>();

    @BeforeEach
    void writeShards() throws IOException {
        for (int s = 0; s < 8; s++) {
            TestTarWriter w = new TestTarWriter();
            for (int i = 0; i < 5; i++) {
                String key = "s%d/%03d".formatted(s, i);
                w.add(key + ".bin", WebDatasetSampleIteratorTest.payload(s * 5 + i, 300 + i)).add(key + ".cls",
                        String.valueOf(s).getBytes());
            }
            Path p = dir.resolve("shard-%02d.tar".formatted(s));
            Files.write(p, w.finish());
            shards.add(p.toString());
        }
    }

    private WebDatasetSource source(int rank, SampleAllocator alloc) {
        return new WebDatasetSource(shards, ShardOpener.LOCAL_FILES, new RankInfo(rank, 4), 17, true,
                RemainderPolicy.DROP, alloc, EpochSource.UNKNOWN_LENGTH);
    }

    private static List<String> keys(java.util.Iterator<Sample> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(s -> {
            out.add(s.key());
            s.close();
        });
        return out;
    }

    @Test
    void shouldDealShardsToFourRanksCoveringEverySampleOncePerEpoch() {
        for (long epoch = 0; epoch < 2; epoch++) {
            Set<String> union = new HashSet<>();
            int total = 0;
            List<List<String>> perRank = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                List<String> mine = keys(source(r, SampleAllocator.HEAP).open(epoch, 0));
                assertThat(mine).hasSize(10);
                perRank.add(mine);
                union.addAll(mine);
                total += mine.size();
            }
            assertThat(total).isEqualTo(40);
            assertThat(union).hasSize(40);
            assertThat(keys(source(0, SampleAllocator.HEAP).open(epoch, 0))).isEqualTo(perRank.get(0));
        }
        assertThat(source(0, SampleAllocator.HEAP).shardsOf(0)).isNotEqualTo(source(0, SampleAllocator.HEAP)
                .shardsOf(1));
    }

    @Test
    void shouldResumeMidEpochWithExactlyTheRemainder() {
        List<String> uninterrupted = keys(EpochIterable.of(source(2, SampleAllocator.HEAP)).continuous(2));
        assertThat(uninterrupted).hasSize(20);
        for (int k : new int[] {0, 3, 5, 7, 10, 13, 19}) {
            CountingAllocator alloc = new CountingAllocator();
            EpochIterable<Sample> run = EpochIterable.of(source(2, alloc));
            var cursor = run.continuous(2);
            for (int i = 0; i < k; i++) {
                cursor.next().close();
            }
            byte[] saved = run.state().toBytes();
            cursor.close();
            var resumed = EpochIterable.resume(source(2, alloc), SourceState.fromBytes(saved)).continuous(2);
            assertThat(keys(resumed)).as("k=%d", k).isEqualTo(uninterrupted.subList(k, 20));
            assertThat(alloc.outstanding()).isZero();
        }
    }

    /**
     * A state saved after an epoch's last sample (the length is not known up front, so the state says position 10
     * of epoch 0): the resumed iterable's first iterator gives epoch 1, not an empty remainder.
     */
    @Test
    void shouldGiveTheNextEpochWhenResumedAtTheEndOfOne() {
        List<String> uninterrupted = keys(EpochIterable.of(source(2, SampleAllocator.HEAP)).continuous(2));
        EpochIterable<Sample> run = EpochIterable.of(source(2, SampleAllocator.HEAP));
        var cursor = run.continuous(2);
        for (int i = 0; i < 10; i++) {
            cursor.next().close();
        }
        byte[] saved = run.state().toBytes();
        cursor.close();
        EpochIterable<Sample> resumed = EpochIterable.resume(source(2, SampleAllocator.HEAP),
                SourceState.fromBytes(saved));
        List<String> next = new java.util.ArrayList<>();
        try (var it = resumed.iterator()) {
            it.forEachRemaining(s -> {
                next.add(s.key());
                s.close();
            });
        }
        assertThat(next).isEqualTo(uninterrupted.subList(10, 20));
    }

    /** Resuming skips by headers: no sample of the skipped part is read into the allocator. */
    @Test
    void shouldResumeWithoutReadingTheSkippedSamples() {
        List<String> all = keys(source(2, SampleAllocator.HEAP).open(1, 0));
        for (int k : new int[] {3, 5, 7, 10}) {
            CountingAllocator alloc = new CountingAllocator();
            var cursor = source(2, alloc).open(1, k);
            assertThat(alloc.allocations()).as("buffers allocated while skipping %d", k).isZero();
            assertThat(keys(cursor)).isEqualTo(all.subList(k, all.size()));
            assertThat(alloc.outstanding()).isZero();
        }
    }

    @Test
    void shouldCapSamplesPerEpochForEqualCounts() {
        var capped = new WebDatasetSource(shards, ShardOpener.LOCAL_FILES, new RankInfo(1, 3), 1, true,
                RemainderPolicy.DROP, SampleAllocator.HEAP, 7);
        assertThat(keys(capped.open(0, 0))).hasSize(7);
        assertThat(keys(capped.open(0, 4))).isEqualTo(keys(capped.open(0, 0)).subList(4, 7));
    }

    /** Shards of unequal lengths (5, 1, 7, 3, ... samples) read three at a time. */
    private List<String> unequalShards() throws IOException {
        List<String> out = new ArrayList<>();
        int[] lengths = {5, 1, 7, 3, 4, 2, 6};
        for (int s = 0; s < lengths.length; s++) {
            TestTarWriter w = new TestTarWriter();
            for (int i = 0; i < lengths[s]; i++) {
                w.add("u%d/%03d.bin".formatted(s, i), WebDatasetSampleIteratorTest.payload(s * 10 + i, 200));
            }
            Path p = dir.resolve("unequal-%02d.tar".formatted(s));
            Files.write(p, w.finish());
            out.add(p.toString());
        }
        return out;
    }

    @Test
    void shouldTakeSamplesInTurnFromShardsReadAtOnceAndResumeAnywhere() throws IOException {
        List<String> unequal = unequalShards();
        java.util.function.Supplier<WebDatasetSource> source = () -> new WebDatasetSource(unequal,
                ShardOpener.LOCAL_FILES, RankInfo.SINGLE, 5, true, RemainderPolicy.DROP, SampleAllocator.HEAP,
                EpochSource.UNKNOWN_LENGTH).interleaving(3);
        List<String> order = source.get().shardsOf(0).stream()
                .map(p -> Path.of(p).getFileName().toString().replace("unequal-0", "u").replace(".tar", "")).toList();
        List<String> all = keys(source.get().open(0, 0));
        assertThat(all).hasSize(28).doesNotHaveDuplicates();
        // the first three come from the epoch's first three shards, one each, in turn
        for (int i = 0; i < 3; i++) {
            assertThat(all.get(i)).as("%s", all).startsWith(order.get(i) + "/");
        }
        // within a shard, its samples stay in order
        for (String shard : order) {
            List<String> mine = all.stream().filter(k -> k.startsWith(shard + "/")).toList();
            assertThat(mine).isSorted();
        }
        for (int k = 0; k <= 28; k++) {
            assertThat(keys(source.get().open(0, k))).as("resumed at %d", k).isEqualTo(all.subList(k, 28));
        }
        List<String> oneAtATime = keys(new WebDatasetSource(unequal, ShardOpener.LOCAL_FILES, RankInfo.SINGLE, 5,
                true, RemainderPolicy.DROP, SampleAllocator.HEAP, EpochSource.UNKNOWN_LENGTH).open(0, 0));
        assertThat(all).containsExactlyInAnyOrderElementsOf(oneAtATime).isNotEqualTo(oneAtATime);
    }
}
