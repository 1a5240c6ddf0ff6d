package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class StageStatsTest {

    @Test
    void shouldSumEveryWorkersCounters() {
        StageStats s = new StageStats("p", "decode", 3, () -> 7, 16);
        for (int w = 0; w < 3; w++) {
            WorkerStats ws = s.worker(w);
            for (int i = 0; i <= w * 10; i++) {
                ws.onItemIn();
                ws.onTask(100 + i);
                ws.onItemOut();
            }
            ws.onFailure();
            ws.onStarved(1_000 * (w + 1));
            ws.onBackPressured(10 * (w + 1));
        }
        // 1 + 11 + 21 items
        assertThat(s.itemsIn()).isEqualTo(33);
        assertThat(s.itemsOut()).isEqualTo(33);
        assertThat(s.tasks()).isEqualTo(33);
        assertThat(s.failures()).isEqualTo(3);
        assertThat(s.starvedNanos()).isEqualTo(6_000);
        assertThat(s.backPressuredNanos()).isEqualTo(60);
        assertThat(s.worker(2).itemsIn()).isEqualTo(21);
        assertThat(s.inputOccupancy()).isEqualTo(7);
        assertThat(s.inputCapacity()).isEqualTo(16);
        assertThat(s.name()).isEqualTo("p:decode");
        assertThat(s.toString()).startsWith("p:decode x3: in 33, out 33, failed 3, busy ");
    }

    @Test
    void shouldCountBusyTimeAsTheSumOfTaskTimes() {
        StageStats s = new StageStats("p", "map", 1, () -> 0, 0);
        s.worker(0).onTask(1_500);
        s.worker(0).onTask(2_500);
        assertThat(s.busyNanos()).isEqualTo(4_000);
    }

    @Test
    void shouldNeverLoseOrRepeatTaskTimesAcrossIntervals() {
        StageStats s = new StageStats("p", "map", 2, () -> 0, 0);
        Histogram total = StageStats.newTaskHistogram();
        long recorded = 0;
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < round; i++) {
                s.worker(i % 2).onTask(1_000 + i);
                recorded++;
            }
            Histogram interval = StageStats.newTaskHistogram();
            s.addIntervalTaskHistogram(interval);
            assertThat(interval.getTotalCount()).isEqualTo(round);
            total.add(interval);
        }
        assertThat(total.getTotalCount()).isEqualTo(recorded).isEqualTo(s.tasks());
    }

    @Test
    void shouldClampTaskTimesIntoTheHistogramsRange() {
        StageStats s = new StageStats("p", "map", 1, () -> 0, 0);
        s.worker(0).onTask(0);
        s.worker(0).onTask(-5);
        s.worker(0).onTask(Long.MAX_VALUE);
        Histogram h = StageStats.newTaskHistogram();
        s.addIntervalTaskHistogram(h);
        assertThat(h.getTotalCount()).isEqualTo(3);
        assertThat(h.getMinValue()).isEqualTo(1);
        assertThat(h.getMaxValue()).isGreaterThanOrEqualTo(StageStats.HIGHEST_TRACKABLE_NANOS / 100 * 99);
    }

    @Test
    void shouldRejectAStageWithoutWorkers() {
        assertThatThrownBy(() -> new StageStats("p", "decode", 0, () -> 0, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("decode");
    }

    @Test
    void shouldReplaceWhitespaceAndCommasInTags() {
        assertThat(new StageStats("my pipe", "a,b", 1, () -> 0, 0).tag()).isEqualTo("my_pipe:a_b");
    }
}
