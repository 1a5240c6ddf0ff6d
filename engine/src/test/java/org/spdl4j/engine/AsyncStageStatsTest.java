package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.stats.PipelineSnapshot;
import org.spdl4j.engine.stats.PipelineStats;
import org.spdl4j.engine.stats.StageSnapshot;

/**
 * The stats of an async stage read like a sync stage's of the same concurrency: its shares are per task slot, so a
 * stage whose slots all wait for input is starved nearly all the time (not 1/concurrency of it), and a task's time is
 * its own, from start to completion, not until the dispatcher got round to publishing it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncStageStatsTest {
    @Test
    void shouldShowAnAsyncStageBehindASlowSourceAsStarved() throws Exception {
        AtomicInteger next = new AtomicInteger();
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> {
                    int i = next.getAndIncrement();
                    if (i >= 40) {
                        return null;
                    }
                    EngineThreads.sleep(5); // the source is the bottleneck
                    return i;
                })
                .named("async-starved")
                .pipeAsync("a", (Integer i) -> CompletableFuture.completedFuture(i),
                        StageOptions.defaults().withConcurrency(8))
                .build()) {
            PipelineStats stats = PipelineStats.of(p.stats());
            int n = 0;
            while (p.next(Duration.ofSeconds(10)) != null) {
                n++;
            }
            assertThat(n).isEqualTo(40);
            PipelineSnapshot s = stats.snapshot();
            assertThat(s.stage("a").starvedPercent()).as("the async stage waits for the source").isGreaterThan(50);
        }
    }

    @Test
    void shouldTimeAnAsyncTaskToItsCompletionNotToItsPublication() throws Exception {
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 8).boxed().toList())
                .named("async-input-order")
                .pipeAsync("a", (Integer i) -> i == 0
                                ? CompletableFuture.supplyAsync(() -> i,
                                        CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS))
                                : CompletableFuture.completedFuture(i),
                        StageOptions.defaults().withConcurrency(4).withOrder(OutputOrder.INPUT))
                .build()) {
            for (Integer i; (i = p.next(Duration.ofSeconds(10))) != null; ) {
                out.add(i);
            }
            // about 300 ms of task time in all: item 0's; items 1-3 completed at once but waited behind it
            long busyMs = p.stats().get(1).busyNanos() / 1_000_000;
            assertThat(busyMs).as("task time, ms").isLessThan(550);
        }
        assertThat(out).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);
    }

    /**
     * Per task slot, busy, starved and back-pressured time cannot add up to more than the time there was: a slot
     * running a task while the dispatcher waits to publish another's result is busy, not also back-pressured. Nor
     * much less: over the whole run only the start and the tail (the last results and the end marker going out)
     * are in none of them, about 15% here.
     */
    @Test
    void shouldNotCountARunningTaskAsBackPressuredToo() throws Exception {
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 16).boxed().toList())
                .named("async-backpressure")
                .pipeAsync("a", (Integer i) -> i % 2 == 0 ? CompletableFuture.completedFuture(i)
                                : CompletableFuture.supplyAsync(() -> i,
                                        CompletableFuture.delayedExecutor(60, TimeUnit.MILLISECONDS)),
                        StageOptions.defaults().withConcurrency(2))
                .sink(1)
                .build()) {
            PipelineStats stats = PipelineStats.of(p.stats());
            while (p.next(Duration.ofSeconds(10)) != null) {
                Thread.sleep(60); // a slow consumer: the dispatcher waits for room while the other slot's task runs
            }
            var a = stats.snapshot().stage("a");
            assertThat(a.busyPercent() + a.starvedPercent() + a.backPressuredPercent())
                    .as("busy %.1f + starved %.1f + back-pressured %.1f", a.busyPercent(), a.starvedPercent(),
                            a.backPressuredPercent())
                    .isBetween(70.0, 110.0);
        }
    }

    /**
     * An async stage whose function does its work before it returns the stage (here a completed future): only one
     * task is ever in flight, and the dispatcher's time in the function is what limits the stage. The slots left
     * idle meanwhile are busy with it too, so the stage reads as saturated and is named the bottleneck, not as
     * 1/concurrency busy with nothing to blame.
     */
    @Test
    void shouldShowAnAsyncStageBoundByItsSynchronousPartAsBusy() throws Exception {
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(() -> 1)
                .named("async-dispatch-bound")
                .pipeAsync("a", (Integer i) -> {
                    EngineThreads.sleep(1); // the synchronous part, on the dispatcher's thread
                    return CompletableFuture.completedFuture(i);
                }, StageOptions.defaults().withConcurrency(16))
                .sink(16)
                .build()) {
            PipelineStats stats = PipelineStats.of(p.stats());
            for (int i = 0; i < 30; i++) {
                assertThat(p.next(Duration.ofSeconds(10))).isNotNull();
            }
            stats.snapshot();
            for (int i = 0; i < 200; i++) {
                assertThat(p.next(Duration.ofSeconds(10))).isNotNull(); // the consumer takes each item at once
            }
            PipelineSnapshot s = stats.snapshot();
            var a = s.stage("a");
            assertThat(a.busyPercent()).as("busy %.1f, starved %.1f, back-pressured %.1f", a.busyPercent(),
                    a.starvedPercent(), a.backPressuredPercent()).isBetween(70.0, 110.0);
            assertThat(s.bottleneck()).map(StageSnapshot::stage).contains("a");
        }
    }

    /**
     * A stage held back by its consumer: while the dispatcher waits to publish one result, the other slots' tasks
     * finish and their results wait behind it. Those slots are back-pressured too, so busy, starved and
     * back-pressured time cover (nearly) all of the slots' time, not about half of it.
     */
    @Test
    void shouldCountSlotsHoldingFinishedResultsAsBackPressured() throws Exception {
        AtomicInteger next = new AtomicInteger();
        try (Pipeline<Integer> p = PipelineBuilder.fromSupplier(next::getAndIncrement) // endless: no tail to measure
                .named("async-held")
                .pipeAsync("a", (Integer i) -> CompletableFuture.supplyAsync(() -> i,
                                CompletableFuture.delayedExecutor(5, TimeUnit.MILLISECONDS)),
                        StageOptions.defaults().withConcurrency(64))
                .sink(4)
                .build()) {
            PipelineStats stats = PipelineStats.of(p.stats());
            for (int i = 0; i < 50; i++) { // past the start: every slot has run a task, the rings are full
                assertThat(p.next(Duration.ofSeconds(10))).isNotNull();
                Thread.sleep(2);
            }
            stats.snapshot();
            for (int i = 0; i < 150; i++) {
                assertThat(p.next(Duration.ofSeconds(10))).isNotNull();
                Thread.sleep(2); // a slow consumer: the stage could do 64 items per 5 ms
            }
            var a = stats.snapshot().stage("a");
            assertThat(a.busyPercent() + a.starvedPercent() + a.backPressuredPercent())
                    .as("busy %.1f + starved %.1f + back-pressured %.1f", a.busyPercent(), a.starvedPercent(),
                            a.backPressuredPercent())
                    .isBetween(80.0, 110.0);
            assertThat(a.backPressuredPercent()).isGreaterThan(a.busyPercent() + a.starvedPercent());
        }
    }
}
