package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class WeightedMixSourceTest {
    /** Items are "name:index". */
    private static EpochSource<String> named(String name, long n) {
        IndexedDataset<String> d = new IndexedDataset<>() {
            @Override
            public long size() {
                return n;
            }

            @Override
            public String get(long index) {
                return name + ":" + index;
            }
        };
        return SampledSource.of(d, RankInfo.SINGLE, 0, false, RemainderPolicy.DROP);
    }

    /** The same source with an unknown length, to exercise resume by skipping. */
    private static EpochSource<String> unknownLength(EpochSource<String> s) {
        return new EpochSource<>() {
            @Override
            public CloseableIterator<String> open(long epoch, long position) {
                return s.open(epoch, position);
            }

            @Override
            public long seed() {
                return s.seed();
            }
        };
    }

    private static List<String> drain(CloseableIterator<String> it) {
        List<String> out = new ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    @Test
    void shouldInterleaveByWeightDeterministically() {
        var mix = new WeightedMixSource<String>(List.of(named("a", 10_000), named("b", 10_000)), new double[] {3, 1},
                42, MixStopPolicy.FIRST_EXHAUSTED);
        List<String> first = drain(mix.open(0, 0));
        assertThat(drain(mix.open(0, 0))).isEqualTo(first);
        assertThat(drain(mix.open(1, 0))).isNotEqualTo(first);
        long a = first.stream().filter(s -> s.startsWith("a")).count();
        long b = first.size() - a;
        assertThat((double) a / b).isBetween(2.7, 3.3);
        // each source's items keep their own order
        assertThat(first.stream().filter(s -> s.startsWith("b")).toList())
                .isEqualTo(drain(named("b", 10_000).open(0, 0)).subList(0, (int) b));
    }

    @Test
    void shouldRunEverySourceDryUnderAllExhausted() {
        var mix = new WeightedMixSource<String>(List.of(named("a", 50), named("b", 500)), new double[] {1, 1}, 1,
                MixStopPolicy.ALL_EXHAUSTED);
        List<String> all = drain(mix.open(0, 0));
        assertThat(all).hasSize(550).doesNotHaveDuplicates();
        assertThat(mix.epochLength()).isEqualTo(550);
    }

    @Test
    void shouldResumeAtAPositionByReplayOrBySkippingAlike() {
        for (MixStopPolicy stop : MixStopPolicy.values()) {
            var known = new WeightedMixSource<String>(List.of(named("a", 100), named("b", 300), named("c", 40)),
                    new double[] {1, 2, 0.5}, 9, stop);
            var unknown = new WeightedMixSource<String>(List.of(unknownLength(named("a", 100)),
                    unknownLength(named("b", 300)), unknownLength(named("c", 40))), new double[] {1, 2, 0.5}, 9, stop);
            List<String> full = drain(known.open(2, 0));
            assertThat(drain(unknown.open(2, 0))).isEqualTo(full);
            for (int k : new int[] {1, 50, 150, full.size() - 1, full.size()}) {
                assertThat(drain(known.open(2, k))).as("%s replay k=%d", stop, k).isEqualTo(full.subList(k, full.size()));
                assertThat(drain(unknown.open(2, k))).as("%s skip k=%d", stop, k)
                        .isEqualTo(full.subList(k, full.size()));
            }
        }
    }
}
