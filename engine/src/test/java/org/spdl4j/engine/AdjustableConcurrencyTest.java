package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A stage's concurrency moved up and down while items flow ({@link StageOptions#withMaxConcurrency},
 * {@link Pipeline#concurrency}): every item arrives exactly once, in input order where asked, the end and close never
 * hang with workers parked, and no more than the limit works.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdjustableConcurrencyTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    /** Moves both stages' limits at random every few tens of microseconds until stopped. */
    private static Thread churn(List<StageConcurrency> stages, AtomicBoolean stop, AtomicInteger changes) {
        Thread t = new Thread(() -> {
            SplittableRandom random = new SplittableRandom(7);
            while (!stop.get()) {
                for (StageConcurrency c : stages) {
                    c.set(1 + random.nextInt(c.max()));
                    changes.incrementAndGet();
                }
                LockSupport.parkNanos(random.nextLong(5_000, 200_000));
            }
        }, "churn");
        t.setDaemon(true);
        t.start();
        return t;
    }

    @ParameterizedTest(name = "{0} order, ring {1}, max {2}")
    @CsvSource({"COMPLETION, 16, 4", "COMPLETION, 4, 8", "INPUT, 16, 4", "INPUT, 4, 8"})
    void shouldDeliverEveryItemOnceWhileConcurrencyMovesUpAndDown(OutputOrder order, int ring, int max)
            throws Exception {
        int items = 40_000; // hundreds of limit changes while they flow; more only costs time on a small machine
        StageOptions o = StageOptions.defaults().withConcurrency(1).withMaxConcurrency(max).withRingCapacity(ring)
                .withOrder(order);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger changes = new AtomicInteger();
        BitSet seen = new BitSet(items);
        int count = 0;
        int previous = -1;
        boolean ordered = true;
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, items).boxed().toList())
                .named("churn")
                .pipe("a", (Integer i) -> i, o)
                .pipe("b", (Integer i) -> (i & 1023) == 0 ? spin(i) : i, o)
                .build()) {
            Thread churner = churn(List.of(p.concurrency("a"), p.concurrency("b")), stop, changes);
            try {
                Integer i;
                while ((i = p.next(WAIT)) != null) {
                    assertThat(seen.get(i)).as("item %d delivered twice", i).isFalse();
                    seen.set(i);
                    count++;
                    ordered &= i > previous;
                    previous = i;
                }
            } finally {
                stop.set(true);
                churner.join();
            }
        }
        assertThat(count).isEqualTo(items);
        assertThat(seen.cardinality()).isEqualTo(items);
        assertThat(changes.get()).as("limits changed while items flowed").isGreaterThan(100);
        if (order == OutputOrder.INPUT) {
            assertThat(ordered).as("input order kept").isTrue();
        }
        assertThat(EngineThreads.alive("churn")).isEmpty();
    }

    private static Integer spin(Integer i) {
        long until = System.nanoTime() + 20_000;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
        return i;
    }

    @Test
    void shouldEndWithMostWorkersParkedEvenWhenTheRingHoldsFewerSlotsThanWorkers() throws Exception {
        // 8 workers, 7 of them parked the whole run, a ring of 4 slots: the end needs 8 markers, so the producer
        // laps the ring while parked workers must still each take one, and a parked worker must not pin the ring.
        StageOptions o = StageOptions.defaults().withConcurrency(1).withMaxConcurrency(8).withRingCapacity(4);
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 10_000).boxed().toList())
                .named("parked").pipe("m", (Integer i) -> i, o).build()) {
            Integer i;
            while ((i = p.next(WAIT)) != null) {
                out.add(i);
            }
            assertThat(p.isEnded()).isTrue();
        }
        assertThat(out).hasSize(10_000).doesNotHaveDuplicates();
        assertThat(EngineThreads.alive("parked")).isEmpty();
    }

    @Test
    void shouldKeepAtMostTheLimitWorkingAtOnce() throws Exception {
        StageOptions o = StageOptions.defaults().withConcurrency(2).withMaxConcurrency(6);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        ConcurrentHashMap<String, Boolean> threads = new ConcurrentHashMap<>();
        int items = 3_000;
        int got = 0;
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, items).boxed().toList())
                .named("limit").pipe("m", (Integer i) -> {
                    most.accumulateAndGet(running.incrementAndGet(), Math::max);
                    threads.put(Thread.currentThread().getName(), true);
                    LockSupport.parkNanos(100_000);
                    running.decrementAndGet();
                    return i;
                }, o).build()) {
            StageConcurrency c = p.concurrency("m");
            assertThat(c.isThreads()).isTrue();
            assertThat(c.max()).isEqualTo(6);
            for (; got < 1_000; got++) {
                assertThat(p.next(WAIT)).isNotNull();
            }
            assertThat(most.get()).as("2 of 6 threads may work").isLessThanOrEqualTo(2);
            assertThat(threads).hasSizeLessThanOrEqualTo(2);
            c.set(6);
            while (p.next(WAIT) != null) {
                got++;
            }
        }
        assertThat(got).isEqualTo(items);
        assertThat(threads).as("raising the limit wakes the parked workers").hasSizeGreaterThan(2);
    }

    @Test
    void shouldCloseAnEndlessPipelineWhileWorkersAreParked() throws Exception {
        StageOptions o = StageOptions.defaults().withConcurrency(1).withMaxConcurrency(4);
        AtomicInteger n = new AtomicInteger();
        Pipeline<Integer> p = PipelineBuilder.fromSupplier(n::incrementAndGet).named("endless")
                .pipe("m", (Integer i) -> i, o).build();
        for (int k = 0; k < 1_000; k++) {
            assertThat(p.next(WAIT)).isNotNull();
        }
        long start = System.nanoTime();
        p.close();
        assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(2));
        assertThat(p.isTerminated()).isTrue();
        assertThat(EngineThreads.alive("endless")).isEmpty();
    }

    @Test
    void shouldBoundAsyncTasksInFlightByTheLimit() throws Exception {
        ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        int items = 2_000;
        BitSet seen = new BitSet();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, items).boxed().toList())
                .named("asynclimit").pipeAsync("fetch", (Integer i) -> {
                    most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    CompletableFuture<Integer> f = new CompletableFuture<>();
                    timer.schedule(() -> {
                        inFlight.decrementAndGet();
                        f.complete(i);
                    }, 200, TimeUnit.MICROSECONDS);
                    return f;
                }, StageOptions.defaults().withConcurrency(3).withMaxConcurrency(32)).build()) {
            StageConcurrency c = p.concurrency("fetch");
            assertThat(c.isThreads()).isFalse();
            for (int k = 0; k < 500; k++) {
                seen.set(p.next(WAIT));
            }
            assertThat(most.get()).isLessThanOrEqualTo(3);
            c.set(32);
            Integer i;
            while ((i = p.next(WAIT)) != null) {
                seen.set(i);
            }
        } finally {
            timer.shutdownNow();
        }
        assertThat(seen.cardinality()).isEqualTo(items);
        assertThat(most.get()).as("raised limit used").isGreaterThan(3);
    }

    @Test
    void shouldRejectAMaxBelowTheConcurrencyAndAFixedStage() {
        assertThatThrownBy(() -> PipelineBuilder.fromIterable(List.of(1)).pipe("m", (Integer i) -> i,
                StageOptions.defaults().withConcurrency(4).withMaxConcurrency(2)).build())
                .hasMessageContaining("max concurrency 2");
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(List.of(1)).pipe("m", (Integer i) -> i,
                StageOptions.defaults().withConcurrency(2)).build()) {
            assertThatThrownBy(() -> p.concurrency("m")).hasMessageContaining("adjustable");
        }
    }
}
