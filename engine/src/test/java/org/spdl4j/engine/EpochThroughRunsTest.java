package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A continuous source's epochs survive the run loops: its first epoch is 0 (a ring skips its epoch loads and stores
 * while every epoch written is 0, {@code ItemSlots.epochsWritten}), the later ones are not, and each item reaches the
 * consumer with its own epoch ({@link Pipeline#lastEpoch()}) through a batching source, single-worker stages that
 * write in place, shared stages that stage their results (completion order), a reorder window (input order) and an
 * async stage, over small rings that keep filling up.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EpochThroughRunsTest {
    private static final int ITEMS = 100_000;
    private static final int EPOCH = 700; // items per epoch: item i is of epoch i / EPOCH

    @Test
    void shouldDeliverEveryItemWithItsOwnEpochThroughEveryKindOfStage() throws Exception {
        StageOptions small = StageOptions.defaults().withRingCapacity(16)
                .withPublishBatching(PublishBatching.SHORT_TASKS);
        int[] seen = new int[ITEMS];
        long delivered = 0;
        try (Pipeline<Integer> p = PipelineBuilder.<Integer>fromSource(EpochSource::new).named("epochs")
                .sourcePublishBatching(PublishBatching.SHORT_TASKS)
                .pipe("in-place", (Integer i) -> i, small)
                .pipe("shared", (Integer i) -> i % 13 == 0 ? null : i, small.withConcurrency(3))
                .pipe("in-place-after", (Integer i) -> i, small.withRingCapacity(8))
                .pipe("window", (Integer i) -> i, small.withConcurrency(2).withOrder(OutputOrder.INPUT))
                .pipeAsync("async", (Integer i) -> CompletableFuture.completedFuture(i),
                        small.withConcurrency(4))
                .pipe("last", (Integer i) -> i, small)
                .sink(4)
                .build()) {
            for (Integer i = p.next(Duration.ofSeconds(20)); i != null; i = p.next(Duration.ofSeconds(20))) {
                if (p.lastEpoch() != i / EPOCH) {
                    throw new AssertionError("item " + i + " arrived with epoch " + p.lastEpoch() + ", expected "
                            + i / EPOCH);
                }
                seen[i]++;
                delivered++;
            }
        }
        for (int i = 0; i < ITEMS; i++) {
            assertThat(seen[i]).as("deliveries of item %d", i).isEqualTo(i % 13 == 0 ? 0 : 1);
        }
        assertThat(delivered).isEqualTo(ITEMS - (ITEMS + 12) / 13);
    }

    /** Items 0, 1, ... up to {@link #ITEMS}, item i of epoch i / {@link #EPOCH}: epoch 0 first. */
    private static final class EpochSource implements Source<Integer> {
        private int next;
        private long epoch;

        @Override
        public Integer next() {
            if (next == ITEMS) {
                return null;
            }
            epoch = next / EPOCH;
            return next++;
        }

        @Override
        public long epoch() {
            return epoch;
        }
    }
}
