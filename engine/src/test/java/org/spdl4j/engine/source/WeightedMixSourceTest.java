package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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

    /** Each weight finite, their sum not: every draw would land on the last source. */
    @Test
    void shouldRejectWeightsWhoseSumIsNotFinite() {
        assertThatThrownBy(() -> new WeightedMixSource<>(List.of(named("a", 10), named("b", 10)),
                new double[] {Double.MAX_VALUE, Double.MAX_VALUE}, 1, MixStopPolicy.ALL_EXHAUSTED))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("scale them down");
    }

    /** Two sources of more than half of Long.MAX_VALUE items: no negative length (which resume rejects). */
    @Test
    void shouldNotWrapTheEpochLengthOfHugeSources() {
        long half = Long.MAX_VALUE / 2 + 1;
        WeightedMixSource<String> mix = new WeightedMixSource<>(List.of(named("a", half), named("b", half)),
                new double[] {1, 1}, 1, MixStopPolicy.ALL_EXHAUSTED);

        assertThat(mix.epochLength()).isEqualTo(EpochSource.UNKNOWN_LENGTH);
        assertThat(new WeightedMixSource<>(List.of(named("a", 3), named("b", 4)), new double[] {1, 1}, 1,
                MixStopPolicy.ALL_EXHAUSTED).epochLength()).isEqualTo(7);
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

    /**
     * A child that fails after {@code failAfter} items (a truncated shard), with opens and closes counted for both
     * children; an unknown length, so resuming skips.
     */
    private static EpochSource<String> failing(EpochSource<String> s, int failAfter, int[] openClose) {
        return new EpochSource<>() {
            @Override
            public CloseableIterator<String> open(long epoch, long position) {
                CloseableIterator<String> inner = s.open(epoch, position);
                openClose[0]++;
                return new CloseableIterator<>() {
                    private int given;

                    @Override
                    public boolean hasNext() {
                        if (given >= failAfter) {
                            throw new IllegalStateException("truncated shard");
                        }
                        return inner.hasNext();
                    }

                    @Override
                    public String next() {
                        given++;
                        return inner.next();
                    }

                    @Override
                    public void close() {
                        openClose[1]++;
                        inner.close();
                    }
                };
            }

            @Override
            public long seed() {
                return s.seed();
            }
        };
    }

    /** One child failing closes every child the mixer opened: while resuming (skipping) and while iterating. */
    @Test
    void shouldCloseEveryOpenChildWhenOneFails() {
        int[] a = new int[2];
        int[] b = new int[2];
        var mix = new WeightedMixSource<String>(List.of(failing(named("a", 1000), Integer.MAX_VALUE, a),
                failing(named("b", 1000), 20, b)), new double[] {1, 1}, 3, MixStopPolicy.ALL_EXHAUSTED);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> mix.open(0, 500))
                .hasMessageContaining("truncated shard");
        assertThat(a).as("a opened, closed while resuming").containsExactly(1, 1);
        assertThat(b).as("b opened, closed while resuming").containsExactly(1, 1);
        CloseableIterator<String> it = mix.open(0, 0);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> drain(it)).hasMessageContaining("truncated shard");
        assertThat(a).as("a opened, closed while iterating").containsExactly(2, 2);
        assertThat(b).as("b opened, closed while iterating").containsExactly(2, 2);
    }
}
