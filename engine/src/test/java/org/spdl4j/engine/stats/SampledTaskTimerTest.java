package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class SampledTaskTimerTest {

    private static Histogram histogram(StageStats s) {
        Histogram h = new Histogram(StageStats.HIGHEST_TRACKABLE_NANOS, 2);
        s.addIntervalTaskHistogram(h);
        return h;
    }

    @Test
    void shouldCountEveryShortTaskOnceAfterSettling() {
        StageStats s = new StageStats("p", "map", 1, () -> 0, 16);
        SampledTaskTimer timer = new SampledTaskTimer(s.worker(0), 16, Long.MAX_VALUE);
        int tasks = 1_000;
        for (int i = 0; i < tasks; i++) {
            timer.stop(timer.start());
        }
        // 1,000 = the first task + 62 samples of 16 tasks + 7 untimed: the untimed ones wait for settle()
        assertThat(s.tasks()).isEqualTo(993);
        timer.settle();
        assertThat(s.tasks()).isEqualTo(tasks);
        assertThat(histogram(s).getTotalCount()).isEqualTo(tasks);
        timer.settle();
        assertThat(s.tasks()).as("settling twice counts nothing twice").isEqualTo(tasks);
    }

    @Test
    void shouldTimeEveryTaskOnceTasksAreLong() throws Exception {
        StageStats s = new StageStats("p", "decode", 1, () -> 0, 16);
        SampledTaskTimer timer = new SampledTaskTimer(s.worker(0), 64, 1_000);
        for (int i = 0; i < 5; i++) {
            long start = timer.start();
            assertThat(start).as("task %d is timed", i).isNotZero();
            Thread.sleep(1); // far above the 1 µs threshold
            timer.stop(start);
        }
        assertThat(s.tasks()).isEqualTo(5);
        Histogram h = histogram(s);
        assertThat(h.getTotalCount()).isEqualTo(5);
        assertThat(h.getMinValue()).isGreaterThanOrEqualTo(900_000L);
    }

    @Test
    void shouldTimeEveryTaskWithAPeriodOfOne() {
        StageStats s = new StageStats("p", "guarded", 1, () -> 0, 16);
        SampledTaskTimer timer = SampledTaskTimer.everyTask(s.worker(0));
        for (int i = 0; i < 100; i++) {
            timer.stop(timer.start());
            assertThat(s.tasks()).isEqualTo(i + 1);
        }
    }

    @Test
    void shouldTimeTinyTasksOneInTheLongerPeriodAndGiveALoopTheSameBudget() {
        StageStats s = new StageStats("p", "tiny", 1, () -> 0, 16);
        // every task counts as tiny: one in 128 is timed, not one in 16
        SampledTaskTimer timer = new SampledTaskTimer(s.worker(0), 16, Long.MAX_VALUE, 128, Long.MAX_VALUE);
        for (int i = 0; i < 1_000; i++) {
            timer.stop(timer.start());
        }
        // 1,000 = the first task + 7 samples of 128 tasks + 103 untimed
        assertThat(s.tasks()).isEqualTo(897);
        assertThat(timer.untimedBudget()).as("a loop may run the rest of the period untimed").isEqualTo(127 - 103);
        timer.addUntimed(timer.untimedBudget());
        assertThat(timer.untimedBudget()).isZero();
        long start = timer.start();
        assertThat(start).as("the budget used up: the next task is timed").isNotZero();
        timer.stop(start);
        // 897 + the 103 untimed of the first loop, the 24 a loop ran untimed, and the timed one
        assertThat(s.tasks()).as("the timed task stands for the loop's untimed ones too").isEqualTo(1_025);
        assertThat(histogram(s).getTotalCount()).isEqualTo(1_025);
    }

    /**
     * Workers settle at the end of every input run, and a run may be shorter than the period (at most
     * {@link org.spdl4j.engine.EngineConfiguration#MAX_RUN}, 64, items; one when the stage keeps up with its input;
     * never the tiny period's 1024): settling records the untimed tasks but must not restart the sampling period, or
     * no task would ever be timed again and a stage whose tasks turned slow would go on batching and recording the
     * first sample's time.
     */
    @Test
    void shouldKeepTimingOneInThePeriodWhenRunsShorterThanThePeriodSettleInBetween() {
        StageStats s = new StageStats("p", "map", 1, () -> 0, 16);
        SampledTaskTimer timer = new SampledTaskTimer(s.worker(0), 16, Long.MAX_VALUE);
        int timed = 0;
        for (int run = 0; run < 160; run++) { // runs of one item, the first task timed, then one in 16
            long start = timer.start();
            if (start != 0) {
                timed++;
            }
            timer.stop(start);
            timer.settle();
        }
        assertThat(timed).isEqualTo(10);
        assertThat(s.tasks()).isEqualTo(160);
        assertThat(histogram(s).getTotalCount()).isEqualTo(160);
    }

    @Test
    void shouldGiveALoopTheBudgetLeftOfThePeriodAcrossSettledRuns() {
        StageStats s = new StageStats("p", "tiny", 1, () -> 0, 16);
        SampledTaskTimer timer = new SampledTaskTimer(s.worker(0), 16, Long.MAX_VALUE, 128, Long.MAX_VALUE);
        timer.stop(timer.start()); // the first task is timed: tiny from now on, one in 128
        int timed = 0;
        for (int run = 0; run < 16; run++) { // runs of 64 items, walked by a loop as a map worker's run is
            int budget = timer.untimedBudget();
            int untimed = 0;
            for (int i = 0; i < 64; i++) {
                if (budget > 0) {
                    budget--;
                    untimed++;
                } else {
                    timer.addUntimed(untimed);
                    untimed = 0;
                    long start = timer.start();
                    assertThat(start).as("the budget is used up: this task is timed").isNotZero();
                    timed++;
                    timer.stop(start);
                    budget = timer.untimedBudget();
                }
            }
            timer.addUntimed(untimed);
            timer.settle();
        }
        assertThat(timed).as("one in 128 of the 1,024 tasks after the first").isEqualTo(8);
        assertThat(s.tasks()).isEqualTo(1 + 16 * 64);
        assertThat(histogram(s).getTotalCount()).isEqualTo(1 + 16 * 64);
    }
}
