package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class AsyncPipeTest {
    private static final int ITEMS = 2_000;
    private ScheduledExecutorService timer;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();

    @BeforeEach
    void startTimer() {
        timer = Executors.newScheduledThreadPool(2);
    }

    @AfterEach
    void stopTimer() {
        timer.shutdownNow();
    }

    /** An async "I/O" call: completes on the timer's thread after a random delay. */
    private CompletableFuture<Integer> delayed(Integer i) {
        maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
        CompletableFuture<Integer> f = new CompletableFuture<>();
        timer.schedule(() -> {
            inFlight.decrementAndGet();
            f.complete(i);
        }, ThreadLocalRandom.current().nextLong(0, 300), TimeUnit.MICROSECONDS);
        return f;
    }

    private List<Integer> run(OutputOrder order, int concurrency) {
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, ITEMS).boxed().toList())
                .named("async")
                .pipeAsync("fetch", this::delayed, StageOptions.defaults().withConcurrency(concurrency)
                        .withOrder(order))
                .build()) {
            p.forEach(out::add);
        }
        return out;
    }

    @Test
    void shouldKeepAtMostConcurrencyTasksInFlightAndDeliverEveryItem() {
        List<Integer> out = run(OutputOrder.COMPLETION, 16);

        assertThat(out).containsExactlyInAnyOrderElementsOf(IntStream.range(0, ITEMS).boxed().toList());
        assertThat(maxInFlight.get()).isLessThanOrEqualTo(16).isGreaterThan(1);
    }

    @Test
    void shouldDeliverAsyncResultsInInputOrder() {
        assertThat(run(OutputOrder.INPUT, 8)).isEqualTo(IntStream.range(0, ITEMS).boxed().toList());
    }

    @Test
    void shouldDropNullResultsAndCountFailedFutures() {
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 100).boxed().toList())
                .named("async-fail")
                .pipeAsync("maybe", (Integer i) -> i % 3 == 0 ? CompletableFuture.<Integer>completedFuture(null)
                                : i % 3 == 1 ? CompletableFuture.<Integer>failedFuture(new IllegalStateException("x"))
                                : delayed(i),
                        StageOptions.defaults().withConcurrency(4).withOrder(OutputOrder.INPUT))
                .build()) {
            p.forEach(out::add);
            assertThat(p.stats().get(1).failures()).isEqualTo(33);
        }
        assertThat(out).isEqualTo(IntStream.range(0, 100).filter(i -> i % 3 == 2).boxed().toList());
    }

    @Test
    void shouldFailAsyncTasksThatNeverComplete() {
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 20).boxed().toList())
                .named("async-timeout")
                .pipeAsync("hang", (Integer i) -> i == 5 ? new CompletableFuture<Integer>() : delayed(i),
                        StageOptions.defaults().withConcurrency(4).withTaskTimeout(Duration.ofSeconds(1))) // normal: < 1 ms
                .build()) {
            p.forEach(out::add);
            assertThat(p.stats().get(1).failures()).isEqualTo(1);
        }
        assertThat(out).hasSize(19).doesNotContain(5);
    }

    @Test
    void shouldRunBlockingTasksOnVirtualThreadsWithBoundedConcurrency() {
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        List<Boolean> virtual = java.util.Collections.synchronizedList(new ArrayList<>());
        int count;
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 400).boxed().toList())
                .named("vt")
                .pipeVirtual("io", (Integer i) -> {
                    maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
                    virtual.add(Thread.currentThread().isVirtual());
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    } finally {
                        running.decrementAndGet();
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(64).withOrder(OutputOrder.INPUT))
                .build()) {
            List<Integer> out = new ArrayList<>();
            p.forEach(out::add);
            assertThat(out).isEqualTo(IntStream.range(0, 400).boxed().toList());
            count = out.size();
        }
        assertThat(count).isEqualTo(400);
        assertThat(maxRunning.get()).isLessThanOrEqualTo(64).isGreaterThan(8);
        assertThat(virtual).containsOnly(true); // concurrency shows in maxRunning, not in a wall-clock bound
    }
}
