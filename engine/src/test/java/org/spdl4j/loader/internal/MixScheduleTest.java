package org.spdl4j.loader.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The mixture's interleave: proportional in every prefix, and its closed form agrees with the step-by-step walk. */
class MixScheduleTest {
    @Test
    void shouldInterleaveThreeToOneEvenly() {
        MixSchedule s = new MixSchedule(new double[] {3, 1});
        long[] counts = new long[2];
        StringBuilder order = new StringBuilder();
        for (int p = 0; p < 16; p++) {
            int j = s.next(counts);
            counts[j]++;
            order.append(j);
        }
        // every window of 4 holds three of part 0 and one of part 1
        assertThat(order.toString()).isEqualTo("0010001000100010");
    }

    @Test
    void shouldHoldEveryPartInProportionInEveryPrefix() {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 40; trial++) {
            int m = 2 + random.nextInt(5);
            double[] w = new double[m];
            for (int j = 0; j < m; j++) {
                w[j] = 0.01 + random.nextDouble() * (random.nextBoolean() ? 1 : 100);
            }
            MixSchedule s = new MixSchedule(w);
            long[] counts = new long[m];
            double worst = 0;
            for (int p = 1; p <= 5_000; p++) {
                counts[s.next(counts)]++;
                for (int j = 0; j < m; j++) {
                    worst = Math.max(worst, Math.abs(counts[j] - p * s.fraction(j)));
                }
            }
            // two parts: within half a sample of the quota; more: the deviation grows with the parts (Sainte-Laguë
            // does not keep to the quota), measured up to ~0.33 (m - 1) samples
            assertThat(worst).as("weights %s", Arrays.toString(w)).isLessThanOrEqualTo(m == 2 ? 0.5 + 1e-6 : m / 2.0);
        }
    }

    @Test
    void shouldComputeTheCountsAtAnyPositionAsTheWalkReachesThem() {
        SplittableRandom random = new SplittableRandom(11);
        for (int trial = 0; trial < 30; trial++) {
            int m = 1 + random.nextInt(6);
            double[] w = new double[m];
            for (int j = 0; j < m; j++) {
                w[j] = random.nextInt(4) == 0 ? 1 : 0.001 + random.nextDouble() * 10; // some equal weights: ties
            }
            MixSchedule s = new MixSchedule(w);
            long[] walked = new long[m];
            long[] closed = new long[m];
            for (int p = 0; p <= 3_000; p++) {
                s.countsAt(p, closed);
                assertThat(closed).as("position %d, weights %s", p, Arrays.toString(w)).containsExactly(walked);
                walked[s.next(walked)]++;
            }
            // far into an epoch: the closed form, then the walk, reach the closed form further on
            long far = 1_000_000_007L + random.nextInt(1_000_000);
            s.countsAt(far, walked);
            for (int k = 0; k < 500; k++) {
                walked[s.next(walked)]++;
            }
            s.countsAt(far + 500, closed);
            assertThat(closed).as("position %d + 500, weights %s", far, Arrays.toString(w)).containsExactly(walked);
        }
    }

    @Test
    void shouldGiveEveryPartASampleEvenAtATinyWeight() {
        MixSchedule s = new MixSchedule(new double[] {1, 1e-9});
        long[] counts = new long[2];
        s.countsAt(1L << 39, counts);
        assertThat(counts[1]).isPositive(); // its share is kept at 1 part in 2^20, not rounded to 0
        assertThat(counts[0] + counts[1]).isEqualTo(1L << 39);
    }

    @Test
    void shouldRefuseWeightsThatAreNotPositiveAndFinite() {
        for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThatThrownBy(() -> new MixSchedule(new double[] {1, bad}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("part 1");
        }
        assertThatThrownBy(() -> new MixSchedule(new double[0])).hasMessageContaining("at least one part");
        assertThatThrownBy(() -> new MixSchedule(new double[] {1}).countsAt(1L << 40, new long[1]))
            .hasMessageContaining("outside");
    }
}
