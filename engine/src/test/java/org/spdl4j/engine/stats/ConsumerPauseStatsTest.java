package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;

/**
 * A training loop that stops taking items for longer than the report interval: the stage in front of the sink waits
 * for room all that time, and the snapshots taken during the pause must say so, not show it idle and then, after the
 * pause, several times over.
 */
@Timeout(60)
class ConsumerPauseStatsTest {
    private static final long PAUSE_MILLIS = 600;
    private static final int SINK_CAPACITY = 4;

    @Test
    void shouldShowTheLastStageBackPressuredWhileTheConsumerPauses() throws Exception {
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> 1).named("pause")
                .pipe("id", (Integer i) -> i, StageOptions.defaults().withRingCapacity(8))
                .sink(SINK_CAPACITY)
                .build().start()) {
            PipelineStats stats = PipelineStats.of(p.stats());
            StageStats id = p.stats().get(1);
            StageStats sink = p.stats().get(2);
            // The pause: nothing taken. Once the sink's ring is full, "id" holds a result and waits for room.
            ConsumerPause.fillTheSink(p, sink, SINK_CAPACITY);
            stats.snapshot(); // the interval starts here, inside the wait
            long backPressuredAtStart = id.backPressuredNanos();

            Thread.sleep(PAUSE_MILLIS / 2); // the consumer's pause is the situation under test, not a synchronisation
            long backPressuredHalfway = id.backPressuredNanos();
            PipelineSnapshot during = stats.snapshot();
            Thread.sleep(PAUSE_MILLIS / 2);
            PipelineSnapshot later = stats.snapshot();

            long halfPause = TimeUnit.MILLISECONDS.toNanos(PAUSE_MILLIS / 2);
            assertThat(backPressuredHalfway - backPressuredAtStart)
                    .as("id's back-pressure grows while it waits, before the wait ends")
                    .isGreaterThanOrEqualTo(halfPause * 8 / 10);
            for (PipelineSnapshot s : new PipelineSnapshot[] {during, later}) {
                assertThat(s.stage("id").backPressuredPercent()).as("id's back-pressure over %d ms of the pause",
                        TimeUnit.NANOSECONDS.toMillis(s.intervalNanos())).isBetween(80.0, 101.0);
                assertThat(s.stage("id").busyPercent()).isLessThan(5.0);
                assertThat(s.stage("sink").starvedPercent()).as("the loop is not waiting for data").isLessThan(5.0);
                assertThat(s.consumerBound()).as("the consumer is the bottleneck").isTrue();
            }

            for (int i = 0; i < 1_000; i++) { // the pause ends
                p.next(Duration.ofSeconds(5));
            }
            PipelineSnapshot after = stats.snapshot();
            assertThat(after.stage("id").backPressuredPercent())
                    .as("the interval after the pause holds only its own waits, not the pause's")
                    .isLessThanOrEqualTo(101.0);
        }
    }
}
