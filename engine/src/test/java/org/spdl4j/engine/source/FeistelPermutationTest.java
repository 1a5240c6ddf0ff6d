package org.spdl4j.engine.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;

import org.junit.jupiter.api.Test;

class FeistelPermutationTest {
    @Test
    void shouldBeABijectionForAwkwardSizes() {
        for (long n : new long[] {1, 2, 3, 5, 16, 17, 255, 256, 257, 1000, 4097, 65_537}) {
            FeistelPermutation p = new FeistelPermutation(n, 42);
            BitSet seen = new BitSet();
            for (long i = 0; i < n; i++) {
                long y = p.apply(i);
                assertThat(y).isBetween(0L, n - 1);
                assertThat(seen.get((int) y)).as("n=%d image %d twice", n, y).isFalse();
                seen.set((int) y);
            }
            assertThat(seen.cardinality()).isEqualTo((int) n);
        }
    }

    @Test
    void shouldGiveAnotherOrderForAnotherKeyAndTheSameForTheSameKey() {
        FeistelPermutation a = new FeistelPermutation(10_000, 1);
        FeistelPermutation a2 = new FeistelPermutation(10_000, 1);
        FeistelPermutation b = new FeistelPermutation(10_000, 2);
        int same = 0;
        int fixed = 0;
        for (long i = 0; i < 10_000; i++) {
            assertThat(a.apply(i)).isEqualTo(a2.apply(i));
            same += a.apply(i) == b.apply(i) ? 1 : 0;
            fixed += a.apply(i) == i ? 1 : 0;
        }
        // a random permutation agrees with another in ~1 place in expectation; allow slack
        assertThat(same).isLessThan(20);
        assertThat(fixed).isLessThan(20);
    }

    @Test
    void shouldHandleHugeDomainsInConstantMemory() {
        long n = 100_000_000_000L;
        FeistelPermutation p = new FeistelPermutation(n, 7);
        for (long i = n - 1000; i < n; i++) {
            assertThat(p.apply(i)).isBetween(0L, n - 1);
        }
        FeistelPermutation full = new FeistelPermutation(Long.MAX_VALUE, 7);
        assertThat(full.apply(Long.MAX_VALUE - 1)).isBetween(0L, Long.MAX_VALUE - 1);
    }

    @Test
    void shouldRejectElementsOutsideTheDomain() {
        assertThatThrownBy(() -> new FeistelPermutation(10, 0).apply(10)).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
