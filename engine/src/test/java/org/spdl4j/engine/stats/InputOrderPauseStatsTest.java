package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.OutputOrder;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.PipelineBuilder;
import org.spdl4j.engine.StageOptions;

/**
 * A training loop pauses behind an INPUT-order stage of three workers: one drains the reorder window into the full
 * sink ring, the other two wait with finished results for room in the window. All three are held back by the
 * consumer, and the snapshots taken during the pause must show all three waits while they last, not only the
 * drainer's (whose wait is in the ring's publisher) until the others' end.
 */
@Timeout(60)
class InputOrderPauseStatsTest {
    private static final long PAUSE_MILLIS = 500;
    private static final int WORKERS = 3;
    private static final int SINK_CAPACITY = 2;

    @Test
    void shouldShowWorkersHeldBackByTheReorderWindowWhileTheConsumerPauses() throws Exception {
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> 1).named("input-pause")
                .pipe("ordered", (Integer i) -> i, StageOptions.defaults().withConcurrency(WORKERS)
                        .withOrder(OutputOrder.INPUT).withReorderWindow(2).withRingCapacity(8))
                .sink(SINK_CAPACITY)
                .build().start()) {
            PipelineStats stats = PipelineStats.of(p.stats());
            StageStats ordered = p.stats().get(1);
            StageStats sink = p.stats().get(2);
            // The pause: nothing taken. Once the sink's ring is full, the drainer waits for room to publish the head,
            // and the other workers wait for room in the two-entry window behind it.
            ConsumerPause.fillTheSink(p, sink, SINK_CAPACITY);
            stats.snapshot(); // the interval starts here, inside the waits
            long start = System.nanoTime();
            long backPressuredAtStart = ordered.backPressuredNanos(start);

            Thread.sleep(PAUSE_MILLIS); // the consumer's pause is the situation under test, not a synchronisation
            long now = System.nanoTime();
            long backPressuredMidPause = ordered.backPressuredNanos(now);
            PipelineSnapshot during = stats.snapshot();

            long soFar = now - start;
            assertThat(backPressuredMidPause - backPressuredAtStart)
                    .as("the stage's back-pressure over %d ms of the pause: the drainer's and the held-back workers'"
                            + " waits while they last (the drainer's alone is 1x)", TimeUnit.NANOSECONDS.toMillis(soFar))
                    .isGreaterThanOrEqualTo(2 * soFar);
            assertThat(during.stage("ordered").backPressuredPercent())
                    .as("the stage's back-pressure share over %d ms of the pause (a share of its %d task slots)",
                            TimeUnit.NANOSECONDS.toMillis(during.intervalNanos()), WORKERS)
                    .isBetween(70.0, 101.0);
            assertThat(during.consumerBound()).as("the consumer is the bottleneck").isTrue();

            for (int i = 0; i < 1_000; i++) { // the pause ends
                p.next(Duration.ofSeconds(5));
            }
            assertThat(stats.snapshot().stage("ordered").backPressuredPercent())
                    .as("the interval after the pause holds only its own waits, not the pause's")
                    .isLessThanOrEqualTo(101.0);
        }
    }
}
