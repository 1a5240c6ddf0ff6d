package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;

import org.junit.jupiter.api.Test;

class DistributedSamplerTest {
    private static List<Long> take(DistributedSampler s, long epoch) {
        List<Long> out = new ArrayList<>();
        PrimitiveIterator.OfLong it = s.indices(epoch, 0);
        while (it.hasNext()) {
            out.add(it.nextLong());
        }
        return out;
    }

    private static Map<Long, Integer> unionOverRanks(long n, int world, long seed, long epoch, RemainderPolicy p,
            List<Integer> counts) {
        Map<Long, Integer> times = new HashMap<>();
        for (int r = 0; r < world; r++) {
            List<Long> mine = take(new DistributedSampler(n, new RankInfo(r, world), seed, true, p), epoch);
            counts.add(mine.size());
            for (long i : mine) {
                times.merge(i, 1, Integer::sum);
            }
        }
        return times;
    }

    @Test
    void shouldCoverTheDatasetExactlyOncePerEpochOverFourRanksWithEqualCounts() {
        for (long epoch = 0; epoch < 3; epoch++) {
            List<Integer> counts = new ArrayList<>();
            Map<Long, Integer> times = unionOverRanks(1000, 4, 7, epoch, RemainderPolicy.DROP, counts);
            assertThat(counts).containsOnly(250);
            assertThat(times).hasSize(1000);
            assertThat(times.values()).containsOnly(1);
            assertThat(times.keySet()).allMatch(i -> i >= 0 && i < 1000);
        }
    }

    @Test
    void shouldDropTheRemainderWithoutRepeats() {
        List<Integer> counts = new ArrayList<>();
        Map<Long, Integer> times = unionOverRanks(1003, 4, 7, 0, RemainderPolicy.DROP, counts);
        assertThat(counts).containsOnly(250);
        assertThat(times).hasSize(1000);
        assertThat(times.values()).containsOnly(1);
    }

    @Test
    void shouldPadTheRemainderSoEveryItemIsReadAndCountsAreEqual() {
        List<Integer> counts = new ArrayList<>();
        Map<Long, Integer> times = unionOverRanks(1003, 4, 7, 0, RemainderPolicy.PAD, counts);
        assertThat(counts).containsOnly(251);
        assertThat(times).hasSize(1003);
        assertThat(times.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(1004);
        assertThat(times.values().stream().filter(t -> t == 2).count()).isEqualTo(1);
    }

    /** PAD on a dataset within the world size of Long.MAX_VALUE: no overflow in the share or the wrapped slot. */
    @Test
    void shouldPadADatasetNearLongMaxValueWithoutOverflow() {
        long n = Long.MAX_VALUE;
        DistributedSampler last = new DistributedSampler(n, new RankInfo(3, 4), 0, false, RemainderPolicy.PAD);
        assertThat(last.samplesPerRank()).isEqualTo(n / 4 + 1);
        assertThat(last.index(0, 0)).isEqualTo(3);
        // the last position's slot, 3 + (n / 4) * 4, is past n - 1 (and past Long.MAX_VALUE): it wraps to the start
        assertThat(last.index(0, n / 4)).isEqualTo(Long.remainderUnsigned(3 + (n / 4) * 4, n));
    }

    @Test
    void shouldGiveTheSameOrderForTheSameSeedAndEpochAndAnotherForAnotherEpoch() {
        DistributedSampler a = new DistributedSampler(5000, new RankInfo(1, 4), 99, true, RemainderPolicy.DROP);
        DistributedSampler again = new DistributedSampler(5000, new RankInfo(1, 4), 99, true, RemainderPolicy.DROP);
        assertThat(take(a, 3)).isEqualTo(take(again, 3));
        assertThat(take(a, 4)).isNotEqualTo(take(a, 3));
        DistributedSampler otherSeed = new DistributedSampler(5000, new RankInfo(1, 4), 100, true,
                RemainderPolicy.DROP);
        assertThat(take(otherSeed, 3)).isNotEqualTo(take(a, 3));
        assertThat(a.index(3, 17)).isEqualTo(take(a, 3).get(17));
    }

    @Test
    void shouldShardInNaturalOrderWithoutShuffle() {
        DistributedSampler s = new DistributedSampler(10, new RankInfo(1, 3), 0, false, RemainderPolicy.DROP);
        assertThat(take(s, 0)).containsExactly(1L, 4L, 7L);
        assertThat(take(s, 5)).containsExactly(1L, 4L, 7L);
    }

    @Test
    void shouldShardAHundredMillionItemsWithoutMaterialisingThem() {
        long n = 100_000_000L;
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes(); // this thread's own, not the whole heap's
        DistributedSampler s = new DistributedSampler(n, new RankInfo(3, 8), 1, true, RemainderPolicy.DROP);
        PrimitiveIterator.OfLong it = s.indices(2, s.samplesPerRank() - 100_000);
        long count = 0;
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        while (it.hasNext()) {
            long i = it.nextLong();
            min = Math.min(min, i);
            max = Math.max(max, i);
            count++;
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(count).isEqualTo(100_000);
        assertThat(min).isGreaterThanOrEqualTo(0L);
        assertThat(max).isLessThan(n);
        assertThat(s.samplesPerRank()).isEqualTo(12_500_000);
        assertThat(allocated).as("bytes allocated").isLessThan(1L << 20); // a long[] of 100M would be 800 MB
    }

    @Test
    void shouldReadRankFromEnvironment() {
        assertThat(RankInfo.fromEnvironment(Map.of("RANK", "2", "WORLD_SIZE", "4"))).isEqualTo(new RankInfo(2, 4));
        assertThat(RankInfo.fromEnvironment(Map.of())).isEqualTo(RankInfo.SINGLE);
        assertThatThrownBy(() -> RankInfo.fromEnvironment(Map.of("RANK", "1"))).hasMessageContaining("WORLD_SIZE");
        assertThatThrownBy(() -> RankInfo.fromEnvironment(Map.of("RANK", "4", "WORLD_SIZE", "4")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("environment variables RANK=4 WORLD_SIZE=4: need WORLD_SIZE >= 1 and 0 <= RANK < WORLD_SIZE");
        assertThatThrownBy(() -> RankInfo.fromEnvironment(Map.of("RANK", "abc", "WORLD_SIZE", "2")))
                .hasMessage("environment variables RANK=abc WORLD_SIZE=2: both must be whole numbers");
    }
}
