package org.spdl4j.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

/** {@code tune}'s search, with made-up rates in place of real trials. */
class TuneSearchTest {
    private static final PipelineSettings BASE = PipelineSettings.defaults().withReadConcurrency(8);

    /**
     * On 2 cores, 2 decode threads are 1.5x one; trials jitter by +-10%, and one in ten is slowed to 50-70% by
     * something else on the machine. A single trial per level picks 1 thread about whenever the 2-thread trial is the
     * slowed one (about 8% of seeds); the median of three needs two of its three trials slowed (about 2%).
     */
    @Test
    void shouldPickTheFasterDecodeLevelDespiteNoisyTrialsInNearlyEverySeed() {
        int right = 0;
        for (long seed = 0; seed < 1000; seed++) {
            SplittableRandom random = new SplittableRandom(seed);
            ToDoubleFunction<PipelineSettings> trial = o -> {
                double rate = o.decodeConcurrency() >= 2 ? 750 : 500;
                double jitter = 0.9 + 0.2 * random.nextDouble();
                double slowed = random.nextInt(10) == 0 ? 0.5 + 0.2 * random.nextDouble() : 1;
                return rate * jitter * slowed;
            };
            TuneSearch.Result result = TuneSearch.search(2, BASE, trial, (sweep, level, m) -> {
            });
            right += result.best().decodeConcurrency() == 2 ? 1 : 0;
        }
        assertThat(right).as("seeds in which 2 decode threads won, of 1000").isGreaterThanOrEqualTo(960);
    }

    /** Each configuration is measured once, as the median of 3 trials; meeting it again reuses that. */
    @Test
    void shouldMeasureEachConfigurationOnceAsTheMedianOfThreeTrials() {
        Map<List<Integer>, Integer> trials = new HashMap<>();
        Map<List<Integer>, Integer> next = new HashMap<>();
        double[][] rates = {{100, 900, 300}, {500, 200, 400}}; // per decode level: trial 1, 2, 3
        ToDoubleFunction<PipelineSettings> trial = o -> {
            List<Integer> key = List.of(o.decodeConcurrency(), o.readConcurrency());
            trials.merge(key, 1, Integer::sum);
            int i = next.merge(key, 1, Integer::sum) - 1;
            return rates[o.decodeConcurrency() - 1][i];
        };
        List<String> told = new ArrayList<>();
        TuneSearch.Result result = TuneSearch.search(2, BASE, trial, (sweep, level, m) -> told.add(sweep + " " + level
            + ": " + m.imagesPerSecond() + (m.reused() ? " reused" : "")));
        // decode 1: median 300; decode 2: median 400 wins (not its 500, nor decode 1's 900). Reads: 2, 8 (= the base's
        // 8, measured in the decode sweep: reused), 32.
        assertThat(told).startsWith("decode threads 1: 300.0", "decode threads 2: 400.0");
        assertThat(told.get(3)).isEqualTo("reads in flight 8: 400.0 reused");
        assertThat(trials).containsEntry(List.of(1, 8), 3).containsEntry(List.of(2, 8), 3).containsEntry(List.of(2, 2), 3)
            .containsEntry(List.of(2, 32), 3).hasSize(4);
        assertThat(result.best().decodeConcurrency()).isEqualTo(2);
    }

    /** A level replaces the best only when its median is more than the margin faster: fewer threads win a tie. */
    @Test
    void shouldKeepFewerThreadsUnlessMoreAreFasterByTheMargin() {
        for (double speedUp : new double[] {1.02, 1.05}) {
            TuneSearch.Result r = TuneSearch.search(2, BASE, o -> o.decodeConcurrency() == 2 ? 100 * speedUp : 100,
                (sweep, level, m) -> {
                });
            assertThat(r.best().decodeConcurrency()).as("2 threads %sx one", speedUp)
                .isEqualTo(speedUp < 1 + TuneSearch.MARGIN ? 1 : 2);
            assertThat(r.best().readConcurrency()).as("reads make no difference: the base's").isEqualTo(8);
        }
    }
}
