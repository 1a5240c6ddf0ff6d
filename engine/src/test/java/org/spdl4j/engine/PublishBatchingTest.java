package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.spdl4j.engine.ring.ItemLink;

/**
 * Publish batching ({@link PublishBatching}): workers of short tasks publish their run's results as one range, and
 * nothing else changes: the same items in the same order, no hole where a result was dropped, slow stages still
 * publish each result at once, and a stop discards each result that was staged but never published, once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PublishBatchingTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @ParameterizedTest
    @EnumSource(PublishBatching.class)
    void shouldDeliverExactlyTheKeptItemsWhenSharedWorkersDropInsideBatchedRuns(PublishBatching batching)
            throws Exception {
        int items = 150_000;
        int[] seen = new int[items];
        long kept = IntStream.range(0, items).filter(i -> i % 3 != 0).count();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, items).boxed().toList())
                .named("batch-drop").sourcePublishBatching(batching)
                .pipe("keep", (Integer i) -> i % 3 == 0 ? null : i, StageOptions.defaults().withConcurrency(3)
                        .withRingCapacity(64).withPublishBatching(batching))
                .pipe("after", (Integer i) -> i, StageOptions.defaults().withConcurrency(2).withRingCapacity(16)
                        .withPublishBatching(batching))
                .sink(32)
                .build()) {
            for (Integer i : p) {
                seen[i]++;
            }
            assertThat(p.stats().get(1).itemsOut()).as("results published by 'keep'").isEqualTo(kept);
            assertThat(p.stats().get(2).itemsOut()).as("results published by 'after'").isEqualTo(kept);
        }
        for (int i = 0; i < items; i++) {
            if (seen[i] != (i % 3 == 0 ? 0 : 1)) {
                throw new AssertionError("item " + i + " delivered " + seen[i] + " times");
            }
        }
    }

    @Test
    void shouldKeepSourceOrderThroughBatchedSingleWorkerStagesAroundAnInputOrderStage() {
        int items = 100_000;
        List<Integer> out = new ArrayList<>(items);
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, items).boxed().toList())
                .named("batch-order").sourcePublishBatching(PublishBatching.SHORT_TASKS)
                .pipe("a", (Integer i) -> i, StageOptions.defaults().withRingCapacity(64))
                .pipe("b", (Integer i) -> i, StageOptions.defaults().withConcurrency(4).withRingCapacity(64)
                        .withOrder(OutputOrder.INPUT))
                .pipe("c", (Integer i) -> i % 5 == 0 ? null : i, StageOptions.defaults().withRingCapacity(16))
                .sink(32)
                .build()) {
            for (Integer i : p) {
                out.add(i);
            }
        }
        List<Integer> expected = IntStream.range(0, items).filter(i -> i % 5 != 0).boxed().toList();
        assertThat(out).hasSameSizeAs(expected);
        for (int i = 0; i < expected.size(); i++) {
            if (!out.get(i).equals(expected.get(i))) {
                throw new AssertionError("position " + i + " holds " + out.get(i) + ", expected " + expected.get(i));
            }
        }
    }

    @Test
    void shouldPublishEachResultOfASlowStageAsSoonAsItsTaskReturns() throws Exception {
        int items = 16;
        AtomicInteger received = new AtomicInteger();
        AtomicInteger heldBackAt = new AtomicInteger(-1);
        CountDownLatch firstTaskStarted = new CountDownLatch(1);
        // Item 0 makes a run of its own (the source waits for its task before making item 1), so the worker has
        // timed a slow task before it opens the run of the others: from then on it must publish per item.
        Iterable<Integer> source = () -> new java.util.Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < items;
            }

            @Override
            public Integer next() {
                if (next == 1) {
                    awaitUntil(() -> firstTaskStarted.getCount() == 0);
                }
                return next++;
            }
        };
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(source).named("batch-slow")
                .sourcePublishBatching(PublishBatching.PER_ITEM)
                .pipe("decode", (Integer i) -> {
                    firstTaskStarted.countDown();
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // a decode-like task: far over 2 us
                    // Handshake, no timing: task i goes on only once the consumer holds item i - 1. A stage that kept
                    // its results until the run ends would never let it: the wait times out and says where.
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                    while (heldBackAt.get() < 0 && received.get() < i) {
                        if (System.nanoTime() > deadline) {
                            heldBackAt.set(i - 1);
                            break;
                        }
                        LockSupport.parkNanos(100_000);
                    }
                    return i;
                }, StageOptions.defaults().withRingCapacity(64).withPublishBatching(PublishBatching.SHORT_TASKS))
                .build()) {
            for (int i = 0; i < items; i++) {
                assertThat(p.next(WAIT)).isEqualTo(i);
                received.incrementAndGet();
            }
            assertThat(p.next(WAIT)).isNull();
        }
        assertThat(heldBackAt).as("the item whose result was not published when its task returned (-1: none)")
                .hasValue(-1);
    }

    /**
     * Runs of a single worker are aligned here: the stage holds item 0 until the source has filled the ring with
     * items 1..capacity, so every later run is exactly {@code maxRun} items from 1 on. The worker's first run
     * (item 0, not yet timed) and the next one (after item 0's long task) publish per item; from the third on its
     * last timed task is short, so it batches. Item {@code blocking}, in the middle of the fourth full run, waits
     * until close interrupts it: with batching, the results of that run before it are staged, never published.
     */
    @ParameterizedTest
    @EnumSource(PublishBatching.class)
    void shouldDiscardEachStagedResultExactlyOnceWhenStoppedInTheMiddleOfABatchedRun(PublishBatching batching)
            throws Exception {
        warmUpWorkers(); // timed tasks of interpreted code can exceed 2 µs; the scenario needs short ones
        int capacity = 256;
        int run = ItemLink.maxRun(capacity);
        int runStart = 1 + 3 * run;
        int blocking = runStart + run / 2;
        TrackedResources res = new TrackedResources();
        Map<Integer, AtomicInteger> discarded = new ConcurrentHashMap<>();
        AtomicInteger next = new AtomicInteger();
        CountDownLatch firstTaskStarted = new CountDownLatch(1);
        Function<TrackedResources.Res, TrackedResources.Res> hold = r -> {
            if (r.id == 0) {
                firstTaskStarted.countDown();
                awaitUntil(() -> next.get() >= capacity + 2); // the source made item capacity+1: the ring is full
            } else if (r.id == blocking) {
                while (!Thread.currentThread().isInterrupted()) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
                r.release(); // a function owns its input until it returns
                throw new IllegalStateException("interrupted while holding " + r);
            }
            return r;
        };
        Pipeline<TrackedResources.Res> p = PipelineBuilder.fromSupplier(() -> {
                    int id = next.getAndIncrement();
                    if (id == 1) {
                        awaitUntil(() -> firstTaskStarted.getCount() == 0); // item 0 makes a run of its own
                    }
                    return res.create(id);
                }).named("batch-stop").onDiscard(item -> {
                    discarded.computeIfAbsent(((TrackedResources.Res) item).id, k -> new AtomicInteger())
                            .incrementAndGet();
                    res.discard(item);
                })
                .pipe("hold", hold, StageOptions.defaults().withRingCapacity(capacity).withPublishBatching(batching))
                .sink(capacity)
                .build();
        int expected = batching == PublishBatching.SHORT_TASKS ? runStart : blocking;
        List<Integer> got = new ArrayList<>();
        try {
            for (int i = 0; i < expected; i++) {
                TrackedResources.Res r = p.next(WAIT);
                got.add(r.id);
                r.release();
            }
            assertThatThrownBy(() -> p.next(Duration.ofMillis(300)))
                    .as("results staged before item %d are not published while it blocks", blocking)
                    .isInstanceOf(TimeoutException.class);
        } finally {
            long start = System.nanoTime();
            p.close();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        }

        assertThat(got).containsExactlyElementsOf(IntStream.range(0, expected).boxed().toList());
        for (int id = expected; id < blocking; id++) {
            assertThat(discarded.get(id)).as("discards of staged result %d", id).isNotNull()
                    .hasValue(1);
        }
        assertThat(res.outstanding()).as("items neither consumed nor discarded").isZero();
        assertThat(res.errors()).isEmpty();
        assertThat(EngineThreads.alive("batch-stop")).isEmpty();
    }

    private static void warmUpWorkers() throws Exception {
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 50_000).boxed().toList())
                .named("batch-warm-up").pipe("a", (Integer i) -> i).build()) {
            for (Integer ignored : p) {
                // drain
            }
        }
    }

    private static void awaitUntil(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline || Thread.currentThread().isInterrupted()) {
                throw new IllegalStateException("condition not reached (test setup)");
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
        }
    }
}
