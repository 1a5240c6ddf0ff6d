package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * How a pipeline stops in the corners: closed by an interrupted thread, a virtual-thread task that throws an
 * {@link Error}, a dropped last batch, a disaggregate stage over an endless iterable. In each, every item is either
 * delivered or handed to the discard hook, and no thread is left running.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StopEdgeCasesTest {

    /**
     * try-with-resources closes an interrupted training loop's pipeline with the interrupt flag still set: close must
     * still stop every thread and sweep the rings, and leave the flag set for the caller.
     */
    @Test
    void shouldStopAndSweepEverythingWhenClosedByAnInterruptedThread() {
        TrackedResources res = new TrackedResources();
        AtomicInteger next = new AtomicInteger();
        Pipeline<TrackedResources.Res> p = PipelineBuilder.fromSupplier(() -> res.create(next.getAndIncrement()))
                .named("closed-interrupted").onDiscard(res::discard)
                .pipe("slow", (TrackedResources.Res r) -> {
                    if (r.id >= 5) {
                        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(20)); // until close interrupts it
                    }
                    return r;
                }, StageOptions.defaults().withConcurrency(2).withRingCapacity(16))
                .pipe("more", (TrackedResources.Res r) -> r, StageOptions.defaults().withConcurrency(2))
                .build();
        Iterator<TrackedResources.Res> it = p.iterator();
        for (int i = 0; i < 3; i++) {
            it.next().release();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (next.get() < 20 && System.nanoTime() < deadline) { // the source fills the slow stage's ring
            LockSupport.parkNanos(1_000_000);
        }
        Thread.currentThread().interrupt();
        try {
            p.close();
            assertThat(Thread.currentThread().isInterrupted()).as("the caller's interrupt flag, kept").isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(p.isTerminated()).as("every thread stopped").isTrue();
        assertThat(EngineThreads.alive("closed-interrupted")).isEmpty();
        assertThat(res.outstanding()).as("items neither delivered nor discarded").isZero();
        assertThat(res.errors()).isEmpty();
    }

    /** An Error on a virtual thread fails the pipeline (as in a sync stage) instead of holding its slot forever. */
    @Test
    void shouldFailThePipelineWhenAVirtualThreadTaskThrowsAnError() {
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 20).boxed().toList())
                .named("vt-error")
                .pipeVirtual("io", (Integer i) -> {
                    if (i == 3) {
                        throw new AssertionError("broken invariant (test)");
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(4).withOrder(OutputOrder.INPUT))
                .build()) {
            assertThatThrownBy(() -> {
                for (int k = 0; k < 21; k++) {
                    if (p.next(Duration.ofSeconds(10)) == null) {
                        break;
                    }
                }
            }).isInstanceOf(PipelineFailedException.class).hasMessageContaining("io")
                    .hasMessageContaining("broken invariant (test)");
        }
    }

    /** The items of a last batch that {@code dropLast} drops are discarded (their leases go back), not forgotten. */
    @Test
    void shouldDiscardTheItemsOfADroppedLastBatchAtTheEndAndAtClose() {
        TrackedResources res = new TrackedResources();
        List<Integer> sizes = new ArrayList<>();
        AtomicInteger next = new AtomicInteger();
        try (Pipeline<List<TrackedResources.Res>> p = PipelineBuilder
                .fromSupplier(() -> next.get() < 10 ? res.create(next.getAndIncrement()) : null)
                .named("drop-last").onDiscard(res::discard)
                .aggregate(4, true)
                .build()) {
            for (List<TrackedResources.Res> batch : p) {
                sizes.add(batch.size());
                batch.forEach(TrackedResources.Res::release);
            }
        }
        assertThat(sizes).containsExactly(4, 4);
        assertThat(res.outstanding()).as("the 2 items of the dropped last batch").isZero();

        TrackedResources cut = new TrackedResources();
        AtomicInteger made = new AtomicInteger();
        Pipeline<List<TrackedResources.Res>> endless = PipelineBuilder
                .fromSupplier(() -> cut.create(made.getAndIncrement()))
                .named("drop-last-close").onDiscard(cut::discard)
                .aggregate(4, true)
                .build();
        endless.iterator().next().forEach(TrackedResources.Res::release);
        endless.close();
        assertThat(cut.outstanding()).as("items delivered or discarded, the partial batch's included").isZero();
        assertThat(cut.errors()).isEmpty();
    }

    /**
     * An aggregator whose flush throws when close cuts its partial aggregate short still hands over what it holds
     * (takeUndelivered), as it does when its flush throws at the end of the stream.
     */
    @Test
    void shouldDiscardWhatAnAggregatorHoldsWhenItsFlushThrowsAtClose() throws Exception {
        TrackedResources res = new TrackedResources();
        AtomicInteger made = new AtomicInteger();
        Pipeline<List<TrackedResources.Res>> p = PipelineBuilder
                .fromSupplier(() -> {
                    if (made.get() < 6) {
                        return res.create(made.getAndIncrement());
                    }
                    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(20)); // the stream pauses: until close interrupts
                    return null;
                })
                .named("flush-throws-at-close").onDiscard(res::discard)
                .aggregate("fours", () -> new Aggregator<TrackedResources.Res, List<TrackedResources.Res>>() {
                    private final List<TrackedResources.Res> held = new ArrayList<>();

                    @Override
                    public List<TrackedResources.Res> add(TrackedResources.Res item) {
                        held.add(item);
                        if (held.size() < 4) {
                            return null;
                        }
                        List<TrackedResources.Res> four = List.copyOf(held);
                        held.clear();
                        return four;
                    }

                    @Override
                    public List<TrackedResources.Res> flush() {
                        throw new IllegalStateException("cannot finish a partial aggregate (test)");
                    }

                    @Override
                    public Object takeUndelivered() {
                        List<TrackedResources.Res> rest = List.copyOf(held);
                        held.clear();
                        return rest;
                    }
                }, StageOptions.defaults())
                .build();
        p.iterator().next().forEach(TrackedResources.Res::release);
        Polling.awaitTrue("6 items into the aggregator, two of them held as a partial batch",
                () -> p.stats().get(1).itemsIn() >= 6, Duration.ofSeconds(10));
        assertThat(p.stats().get(1).itemsIn()).isEqualTo(6);
        p.close();
        assertThat(res.outstanding()).as("items delivered or discarded, the partial aggregate's included").isZero();
        assertThat(res.errors()).isEmpty();
    }

    /**
     * A disaggregate stage stopped while it unpacks an endless lazy iterable hands the iterator to the discard hook
     * instead of iterating on (it would never end, and its thread would outlive close).
     */
    @Test
    void shouldStopADisaggregateStageInTheMiddleOfAnEndlessIterable() {
        List<Object> discarded = new CopyOnWriteArrayList<>();
        Iterable<Integer> endless = () -> new Iterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Integer next() {
                return i++;
            }
        };
        Pipeline<Integer> p = PipelineBuilder.fromIterable(List.of(endless)).named("unpack-endless")
                .onDiscard(discarded::add)
                .<Integer>disaggregate()
                .sink(4)
                .build();
        Iterator<Integer> it = p.iterator();
        for (int k = 0; k < 10; k++) {
            assertThat(it.next()).isEqualTo(k);
        }
        p.close();
        assertThat(p.isTerminated()).as("the disaggregate thread stopped").isTrue();
        assertThat(discarded).anyMatch(o -> o instanceof Iterator<?>);
    }

    /**
     * A stage function that closes its own pipeline makes the first close run on an engine thread, which cannot join
     * itself: close must return to the function at once, and the stop and the sweep still happen once the function's
     * thread has left, so every item is delivered or discarded and no thread is left running.
     */
    @Test
    void shouldStopAndSweepEverythingWhenAStageFunctionClosesItsOwnPipeline() throws Exception {
        closeFromOwnStage("closed-by-stage", false);
    }

    /** The same from a virtual-thread stage: its task threads are the pipeline's own threads too. */
    @Test
    void shouldStopAndSweepEverythingWhenAVirtualThreadTaskClosesItsOwnPipeline() throws Exception {
        closeFromOwnStage("closed-by-vt-stage", true);
    }

    private static void closeFromOwnStage(String name, boolean virtual) throws Exception {
        TrackedResources res = new TrackedResources();
        AtomicInteger next = new AtomicInteger();
        AtomicLong closeNanos = new AtomicLong(-1);
        Pipeline<?>[] self = new Pipeline<?>[1];
        java.util.function.Function<TrackedResources.Res, TrackedResources.Res> closer = r -> {
            if (r.id == 5) {
                long t0 = System.nanoTime();
                self[0].close();
                closeNanos.set(System.nanoTime() - t0);
            }
            return r;
        };
        PipelineBuilder<TrackedResources.Res> b = PipelineBuilder.fromSupplier(() -> res.create(next.getAndIncrement()))
                .named(name).onDiscard(res::discard);
        b = virtual ? b.pipeVirtual("closer", closer, StageOptions.defaults().withConcurrency(4).withRingCapacity(16))
                : b.pipe("closer", closer, StageOptions.defaults().withRingCapacity(16));
        Pipeline<TrackedResources.Res> p = b
                .pipe("more", (TrackedResources.Res r) -> r, StageOptions.defaults().withConcurrency(2))
                .sink(4)
                .build();
        self[0] = p;
        p.start();
        Polling.awaitTrue("the stage function's close() returned and every thread stopped",
                () -> closeNanos.get() >= 0 && p.isTerminated(), Duration.ofSeconds(20));
        p.close(); // the consumer's close: the first one has finished
        assertThat(EngineThreads.alive(name)).isEmpty();
        assertThat(res.outstanding()).as("items neither delivered nor discarded").isZero();
        assertThat(res.errors()).isEmpty();
        assertThat(Duration.ofNanos(closeNanos.get())).as("close() from the stage's own thread does not wait for it")
                .isLessThan(Duration.ofMillis(EngineConfiguration.CLOSE_TIMEOUT_MILLIS));
    }
}
