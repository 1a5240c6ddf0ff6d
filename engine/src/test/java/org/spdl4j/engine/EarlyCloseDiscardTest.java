package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A consumer that stops early loses nothing: every item the pipeline will never deliver (in rings, in a worker's hand,
 * in a reorder window, in an async task, in the consumer's buffer) reaches the discard hook, exactly once; close()
 * returns within 2 s and leaves no spdl4j thread.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EarlyCloseDiscardTest {

    /** Where the items sit when the consumer stops. */
    enum Shape { SYNC_COMPLETION, SYNC_INPUT_ORDER, VIRTUAL_THREADS, ASYNC_FUTURES, AGGREGATE_DISAGGREGATE }

    /** Holds the item a little, giving it back if interrupted (a stage function owns its input until it returns). */
    private static Function<TrackedResources.Res, TrackedResources.Res> slowPassThrough(long maxMicros) {
        return r -> {
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos((r.id * 37L) % maxMicros));
            if (Thread.currentThread().isInterrupted()) {
                r.release();
                throw new IllegalStateException("interrupted while holding " + r);
            }
            return r;
        };
    }

    private static PipelineBuilder<TrackedResources.Res> build(Shape shape, TrackedResources res) {
        AtomicInteger next = new AtomicInteger();
        PipelineBuilder<TrackedResources.Res> b = PipelineBuilder.fromSupplier(() -> res.create(next.getAndIncrement()))
                .named("early-" + shape.name().toLowerCase(java.util.Locale.ROOT)).onDiscard(res::discard);
        StageOptions small = StageOptions.defaults().withRingCapacity(16);
        return switch (shape) {
            case SYNC_COMPLETION -> b.pipe("a", slowPassThrough(200), small.withConcurrency(3))
                    .pipe("b", slowPassThrough(50), small.withConcurrency(2)).sink(8);
            case SYNC_INPUT_ORDER -> b.pipe("a", slowPassThrough(300), small.withConcurrency(4)
                    .withOrder(OutputOrder.INPUT).withReorderWindow(8)).sink(8);
            case VIRTUAL_THREADS -> b.pipeVirtual("io", slowPassThrough(500), small.withConcurrency(16)).sink(8);
            case ASYNC_FUTURES -> b.pipeAsync("fetch", (TrackedResources.Res r) -> CompletableFuture.supplyAsync(
                    () -> r, CompletableFuture.delayedExecutor(r.id % 3, TimeUnit.MILLISECONDS)),
                    small.withConcurrency(8).withOrder(OutputOrder.INPUT)).sink(8);
            case AGGREGATE_DISAGGREGATE -> b.pipe("a", slowPassThrough(100), small.withConcurrency(2))
                    .aggregate(5, false).<TrackedResources.Res>disaggregate().sink(8);
        };
    }

    @ParameterizedTest
    @EnumSource(Shape.class)
    void shouldHandEveryUndeliveredItemToTheDiscardHookWhenTheConsumerStopsEarly(Shape shape) throws Exception {
        TrackedResources res = new TrackedResources();
        Pipeline<TrackedResources.Res> p = build(shape, res).build();
        for (int i = 0; i < 50; i++) {
            p.next(Duration.ofSeconds(10)).release();
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20)); // let the rings fill up again

        long start = System.nanoTime();
        p.close();
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(took).isLessThan(Duration.ofSeconds(2));
        assertThat(EngineThreads.alive(p.spec().name())).isEmpty();
        assertThat(res.created()).as("items were in flight when the consumer stopped").isGreaterThan(60);
        // virtual-thread and async tasks still running discard their own results when they end: allow them a moment
        Polling.awaitTrue("every item consumed or discarded", () -> res.outstanding() == 0, Duration.ofSeconds(5));
        assertThat(res.errors()).isEmpty();
    }

    @Test
    void shouldDiscardWhatIsLeftWhenAFailedPipelineIsClosed() {
        TrackedResources res = new TrackedResources();
        AtomicInteger next = new AtomicInteger();
        Pipeline<TrackedResources.Res> p = PipelineBuilder.fromSupplier(() -> res.create(next.getAndIncrement()))
                .named("fails").onDiscard(res::discard)
                .pipe("flaky", (TrackedResources.Res r) -> {
                    if (r.id >= 200 && r.id % 2 == 0) {
                        r.release();
                        throw new IllegalArgumentException("bad item " + r.id);
                    }
                    return r;
                }, StageOptions.defaults().withConcurrency(2).withFailureBudget(FailureBudget.count(10)))
                .pipe("after", (TrackedResources.Res r) -> r, StageOptions.defaults().withRingCapacity(64))
                .build();
        assertThatThrownBy(() -> {
            for (TrackedResources.Res r : p) {
                r.release();
            }
        }).isInstanceOf(PipelineFailedException.class).hasMessageContaining("flaky");
        p.close();
        assertThat(res.outstanding()).isZero();
        assertThat(res.errors()).isEmpty();
    }

    @Test
    void shouldDiscardAResultASyncTaskReturnedAfterItsTimeout() throws Exception {
        TrackedResources res = new TrackedResources();
        try (Pipeline<TrackedResources.Res> p = PipelineBuilder.fromIterable(List.of(0, 1, 2, 3))
                .named("late").onDiscard(res::discard)
                .pipe("stubborn", (Integer i) -> {
                    TrackedResources.Res r = res.create(i);
                    if (i == 2) { // ignores the interrupt and returns late: its result must not be lost
                        sleepIgnoringInterrupts(TimeUnit.SECONDS.toNanos(1));
                    }
                    return r;
                }, StageOptions.defaults().withTaskTimeout(Duration.ofMillis(300)))
                .build()) {
            int delivered = 0;
            for (TrackedResources.Res r : p) {
                r.release();
                delivered++;
            }
            assertThat(delivered).isEqualTo(3);
            assertThat(p.stats().get(1).failures()).isEqualTo(1);
        }
        assertThat(res.outstanding()).isZero();
    }

    @Test
    void shouldDiscardTheLateResultOfAnAbandonedVirtualThreadTask() throws Exception {
        TrackedResources res = new TrackedResources();
        try (Pipeline<TrackedResources.Res> p = PipelineBuilder.fromIterable(List.of(0, 1, 2))
                .named("late-vt").onDiscard(res::discard)
                .pipeVirtual("stubborn", (Integer i) -> {
                    TrackedResources.Res r = res.create(i);
                    if (i == 1) {
                        sleepIgnoringInterrupts(TimeUnit.SECONDS.toNanos(1)); // parks: holds no carrier thread
                    }
                    return r;
                }, StageOptions.defaults().withConcurrency(3).withTaskTimeout(Duration.ofMillis(300)))
                .build()) {
            int delivered = 0;
            for (TrackedResources.Res r : p) {
                r.release();
                delivered++;
            }
            assertThat(delivered).isEqualTo(2);
        }
        Polling.awaitTrue("every item delivered or discarded, the late result included", () -> res.outstanding() == 0,
                Duration.ofSeconds(5));
    }

    @Test
    void shouldDeliverWhatTheSourceEmittedBeforeItFailedMidEpochAndLeakNothing() {
        TrackedResources res = new TrackedResources();
        AtomicInteger next = new AtomicInteger();
        int[] delivered = {0};
        try (Pipeline<TrackedResources.Res> p = PipelineBuilder.fromSupplier(() -> {
            int id = next.getAndIncrement();
            if (id == 500) {
                throw new java.io.UncheckedIOException(new java.io.IOException("shard 3 unreadable"));
            }
            return res.create(id);
        }).named("source-fails").onDiscard(res::discard)
                .pipe("a", slowPassThrough(20), StageOptions.defaults().withConcurrency(3)
                        .withOrder(OutputOrder.INPUT))
                .build()) {
            assertThatThrownBy(() -> {
                for (TrackedResources.Res r : p) {
                    assertThat(r.id).isEqualTo(delivered[0]++);
                    r.release();
                }
            }).isInstanceOf(PipelineFailedException.class).hasMessageContaining("stage 'source'")
                    .hasRootCauseMessage("shard 3 unreadable");
        }
        assertThat(delivered[0]).as("every item emitted before the failure, in order").isEqualTo(500);
        assertThat(res.outstanding()).isZero();
    }

    /** A task that ignores interrupts (like a native call) and returns late; parks, so no core is burnt. */
    private static void sleepIgnoringInterrupts(long nanos) {
        long end = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = end - System.nanoTime()) {
            LockSupport.parkNanos(left);
            Thread.interrupted(); // swallowed: this task does not stop when asked
        }
    }
}
