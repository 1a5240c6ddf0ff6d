package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The in-place run loops (a batching source or single-worker stage that is its output ring's only producer writes
 * each result straight into the next claimed slot and publishes the run as one range): with rings far smaller than
 * a run, so the loops keep meeting a full output ring in the middle of a run, drops and failures between kept
 * results, and a consumer that stalls now and then, every kept item arrives once, in source order, and the counts
 * add up.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InPlaceRunTest {
    private static final int ITEMS = 200_000;

    private static boolean dropped(int i) {
        return i % 7 == 0;
    }

    private static boolean failing(int i) {
        return i % 997 == 1;
    }

    @Test
    void shouldDeliverEveryKeptItemOnceInOrderThroughFullRingsDropsAndFailures() throws Exception {
        long kept = 0;
        long failed = 0;
        for (int i = 0; i < ITEMS; i++) {
            if (failing(i)) {
                failed++;
            } else if (!dropped(i)) {
                kept++;
            }
        }
        StageOptions batching = StageOptions.defaults().withPublishBatching(PublishBatching.SHORT_TASKS);
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(counter()).named("in-place")
                .sourcePublishBatching(PublishBatching.SHORT_TASKS)
                .pipe("filter", (Integer i) -> {
                    if (failing(i)) {
                        throw new IllegalArgumentException("bad item " + i);
                    }
                    return dropped(i) ? null : i;
                }, batching.withRingCapacity(16).withFailureBudget(FailureBudget.count(failed)))
                .pipe("same", (Integer i) -> i, batching.withRingCapacity(8))
                .sink(4)
                .build()) {
            int expected = 0;
            long got = 0;
            for (Integer i = p.next(Duration.ofSeconds(20)); i != null; i = p.next(Duration.ofSeconds(20))) {
                while (failing(expected) || dropped(expected)) {
                    expected++;
                }
                assertThat(i).as("item after %d kept items", got).isEqualTo(expected);
                expected++;
                got++;
                if (got % 5_000 == 0) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2)); // every ring fills up behind us
                }
            }
            assertThat(got).isEqualTo(kept);
            assertThat(p.stats().get(0).itemsOut()).as("source out").isEqualTo(ITEMS);
            assertThat(p.stats().get(1).itemsIn()).as("filter in").isEqualTo(ITEMS);
            assertThat(p.stats().get(1).failures()).as("filter failures").isEqualTo(failed);
            assertThat(p.stats().get(1).itemsOut()).as("filter out").isEqualTo(kept);
            assertThat(p.stats().get(2).itemsIn()).as("same in").isEqualTo(kept);
            assertThat(p.stats().get(2).itemsOut()).as("same out").isEqualTo(kept);
        }
    }

    private static Supplier<Integer> counter() {
        int[] next = {0};
        return () -> next[0] < ITEMS ? next[0]++ : null;
    }
}
