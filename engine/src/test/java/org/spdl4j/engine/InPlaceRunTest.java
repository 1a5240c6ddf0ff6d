package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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

    @Test
    void shouldCountASourceCallThatEndsTheSourceAsATask() throws Exception {
        int items = 10_000; // many runs of the call-free stretch, and the ending call inside one
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(upTo(items)).named("source-tasks")
                .sourcePublishBatching(PublishBatching.SHORT_TASKS)
                .sink(64)
                .build()) {
            long got = 0;
            while (p.next(Duration.ofSeconds(20)) != null) {
                got++;
            }
            assertThat(got).isEqualTo(items);
            assertThat(p.stats().get(0).tasks()).as("source calls: every item's and the one that ended it")
                    .isEqualTo(items + 1L);
        }
    }

    @Test
    void shouldCountTheItemWhoseTaskSawTheCloseAsTakenIn() throws Exception {
        int closeAt = 300; // inside a run of the call-free stretch: the ring holds every item before it
        AtomicReference<Pipeline<Integer>> self = new AtomicReference<>();
        AtomicInteger calls = new AtomicInteger();
        StageOptions batching = StageOptions.defaults().withPublishBatching(PublishBatching.SHORT_TASKS)
                .withRingCapacity(4096);
        Pipeline<Integer> p = PipelineBuilder.fromSupplier(upTo(4000)).named("close-in-run")
                .sourcePublishBatching(PublishBatching.SHORT_TASKS)
                .pipe("closer", (Integer i) -> {
                    if (calls.incrementAndGet() == closeAt) {
                        self.get().close(); // on the stage's own thread: stops the pipeline and returns at once
                    }
                    return i;
                }, batching)
                .sink(4096)
                .build();
        self.set(p);
        try (p) {
            p.start();
            Polling.awaitTrue("the pipeline closed from its own stage", p::isTerminated, Duration.ofSeconds(20));
            assertThat(calls.get()).isEqualTo(closeAt);
            assertThat(p.stats().get(1).itemsIn()).as("items the stage took: every call, the closing one too")
                    .isEqualTo(closeAt);
        }
    }

    /** {@return a source of 0 .. items - 1, then the end} */
    static Supplier<Integer> upTo(int items) {
        int[] next = {0};
        return () -> next[0] < items ? next[0]++ : null;
    }

    private static Supplier<Integer> counter() {
        int[] next = {0};
        return () -> next[0] < ITEMS ? next[0]++ : null;
    }
}
