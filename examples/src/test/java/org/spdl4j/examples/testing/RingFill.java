package org.spdl4j.examples.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.spdl4j.engine.Pipeline;
import org.spdl4j.engine.stats.StageStats;

/**
 * Early-close tests close a loader while items wait in its rings, so that the close-time sweep has something to
 * return. This waits for that state instead of sleeping a fixed time (which may see empty rings on a loaded machine),
 * and fails the test when it never comes.
 */
public final class RingFill {
    private RingFill() {
    }

    /**
     * Waits (up to 20 s) until at least {@code min} items wait in the pipeline's rings and consumer buffer.
     *
     * @param pipeline the running pipeline
     * @param min      items to wait for
     * @throws InterruptedException if interrupted while waiting
     */
    public static void awaitItemsInRings(Pipeline<?> pipeline, long min) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        long n;
        while ((n = itemsInRings(pipeline)) < min && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(n).as("items waiting in the rings of pipeline '%s'", pipeline.spec().name())
                .isGreaterThanOrEqualTo(min);
    }

    /** {@return items waiting in the pipeline's stage input rings and consumer buffer now} */
    public static long itemsInRings(Pipeline<?> pipeline) {
        long n = 0;
        for (StageStats stage : pipeline.stats()) {
            n += Math.max(0, stage.inputOccupancy());
        }
        return n;
    }
}
