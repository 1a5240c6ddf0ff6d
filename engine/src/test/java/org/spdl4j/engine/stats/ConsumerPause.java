package org.spdl4j.engine.stats;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.spdl4j.engine.Pipeline;

/** The start of a consumer's pause, for the pause tests: items flowed, then nobody takes and the sink's ring fills. */
final class ConsumerPause {
    private ConsumerPause() {
    }

    /**
     * Takes 1,000 items (the pipeline in its steady state), then takes nothing until the sink's ring is full: from
     * then on the stage in front of the sink waits for room.
     *
     * @param p            the started pipeline
     * @param sink         the sink's stats
     * @param sinkCapacity the sink's ring capacity
     * @throws Exception when an item does not come
     */
    static void fillTheSink(Pipeline<?> p, StageStats sink, int sinkCapacity) throws Exception {
        for (int i = 0; i < 1_000; i++) {
            p.next(Duration.ofSeconds(5));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sink.inputOccupancy() < sinkCapacity && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(sink.inputOccupancy()).as("the sink's ring, full while nobody takes").isEqualTo(sinkCapacity);
    }
}
