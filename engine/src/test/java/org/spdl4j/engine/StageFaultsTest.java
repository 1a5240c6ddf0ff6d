package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.Lease;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.PoolExhaustedException;

/**
 * Faults inside stages, each with its documented behaviour: a task that throws now and then fails only its item; a
 * task that hangs is interrupted at its timeout and its worker goes on; a slow stage back-pressures, loses nothing;
 * an exhausted pool or an item too large for any pool class fails only that item, with a message naming the pool.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StageFaultsTest {
    private static final int ITEMS = 20_000;

    /** Deterministic "random" choice of item: about one in {@code every}. */
    private static boolean unlucky(int i, int every, int salt) {
        int h = (i + salt) * 0x9E3779B9;
        return ((h ^ (h >>> 16)) & 0x7fffffff) % every == 0;
    }

    @Test
    void shouldDropOnlyTheItemsWhoseTaskThrowsAndCountThem() {
        List<Integer> expected = IntStream.range(0, ITEMS).filter(i -> !unlucky(i, 100, 1)).boxed().toList();
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, ITEMS).boxed().toList())
                .named("flaky")
                .pipe("sometimes-throws", (Integer i) -> {
                    if (unlucky(i, 100, 1)) {
                        throw new IllegalStateException("injected fault on item " + i);
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(4))
                .build()) {
            p.forEach(out::add);
            assertThat(p.stats().get(1).failures()).isEqualTo(ITEMS - expected.size());
            assertThat(p.stats().get(1).itemsOut()).isEqualTo(expected.size());
        }
        assertThat(out).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(expected.size()).isBetween(ITEMS - 300, ITEMS - 100); // the fault did fire
    }

    @Test
    void shouldKeepTheCauseOfEachStagesFirstFailedTask() {
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 100).boxed().toList())
                .named("first-failure")
                .pipe("odd-fails", (Integer i) -> {
                    if (i % 2 == 1) {
                        throw new IllegalStateException("odd item " + i);
                    }
                    return i;
                }, StageOptions.defaults()) // one worker: the first failure is item 1's
                .pipe("never-fails", (Integer i) -> i, StageOptions.defaults())
                .build()) {
            p.forEach(i -> { });
            assertThat(p.stats().get(1).failures()).isEqualTo(50);
            assertThat(p.stats().get(1).firstFailure()).isInstanceOf(IllegalStateException.class)
                    .hasMessage("odd item 1");
            assertThat(p.stats().get(2).firstFailure()).isNull();
        }
    }

    @Test
    void shouldInterruptAHangingTaskAtItsTimeoutAndKeepTheWorkerGoing() {
        AtomicInteger hung = new AtomicInteger();
        List<Integer> out = new ArrayList<>();
        long start = System.nanoTime();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 200).boxed().toList())
                .named("hangs")
                .pipe("may-hang", (Integer i) -> {
                    if (i % 50 == 7) {
                        hung.incrementAndGet();
                        while (!Thread.currentThread().isInterrupted()) { // hangs until the watchdog interrupts
                            LockSupport.park(this);
                        }
                        throw new IllegalStateException("interrupted while hanging on " + i);
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(1).withTaskTimeout(Duration.ofMillis(500)))
                .build()) {
            p.forEach(out::add);
            assertThat(p.stats().get(1).failures()).isEqualTo(4);
        }
        assertThat(hung.get()).isEqualTo(4);
        assertThat(out).hasSize(196).doesNotContain(7, 57, 107, 157);
        // one worker, four hangs of ~500 ms each: the worker was freed each time
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void shouldAbandonAHangingVirtualThreadTaskAtItsTimeout() {
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 100).boxed().toList())
                .named("hangs-vt")
                .pipeVirtual("may-hang", (Integer i) -> {
                    if (i % 25 == 3) {
                        LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(30)); // interrupted at the timeout
                        return null;
                    }
                    return i;
                }, StageOptions.defaults().withConcurrency(4).withTaskTimeout(Duration.ofMillis(500))
                        .withOrder(OutputOrder.INPUT))
                .build()) {
            p.forEach(out::add);
            assertThat(p.stats().get(1).failures()).isEqualTo(4);
        }
        assertThat(out).hasSize(96).isSorted().doesNotContain(3, 28, 53, 78);
    }

    @Test
    void shouldBackPressureASlowStageAndLoseNothing() {
        List<Integer> out = new ArrayList<>();
        try (Pipeline<Integer> p = PipelineBuilder.fromIterable(IntStream.range(0, 300).boxed().toList())
                .named("slow")
                .pipe("slow", (Integer i) -> {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
                    return i;
                }, StageOptions.defaults().withConcurrency(2).withRingCapacity(8).withOrder(OutputOrder.INPUT))
                .build()) {
            p.forEach(out::add);
            assertThat(p.stats().get(0).backPressuredNanos()).as("source waited on the slow stage").isPositive();
            assertThat(p.stats().get(1).failures()).isZero();
        }
        assertThat(out).containsExactlyElementsOf(IntStream.range(0, 300).boxed().toList());
    }

    @Test
    void shouldFailOnlyTheItemsThatFindThePoolExhaustedNamingThePool() throws Exception {
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("tiny").sizeClass(1024, 2)
                .acquireTimeout(Duration.ofMillis(50)).build());
             Pipeline<Lease> p = PipelineBuilder.fromIterable(IntStream.range(0, 6).boxed().toList())
                     .named("exhausted").onDiscard(item -> ((Lease) item).release())
                     .pipe("acquire", (Integer i) -> pool.acquire(100), StageOptions.defaults())
                     .sink(8)
                     .build()) {
            Lease first = p.next(Duration.ofSeconds(5));
            Lease second = p.next(Duration.ofSeconds(5));
            // the consumer holds both slabs: the next acquires time out and fail their items, the stage goes on
            Polling.awaitTrue("4 items failed on the exhausted pool", () -> p.stats().get(1).failures() >= 4,
                    Duration.ofSeconds(10));
            assertThat(p.stats().get(1).failures()).isEqualTo(4);
            assertThat(p.next(Duration.ofSeconds(5))).isNull();
            first.release();
            second.release();
            assertThat(pool.inUse()).isZero();
        }
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("tiny2").sizeClass(1024, 1)
                .acquireTimeout(Duration.ofMillis(10)).build())) {
            Lease held = pool.acquire(10);
            assertThatThrownBy(() -> pool.acquire(10)).isInstanceOf(PoolExhaustedException.class)
                    .hasMessageContaining("pool 'tiny2'").hasMessageContaining("no free slab for 10 B");
            held.release();
        }
    }

    @Test
    void shouldFailOnlyAnItemTooLargeForAnyPoolClass() {
        List<Integer> sizes = List.of(100, 5_000, 200, 1 << 20, 300);
        List<Integer> delivered = new ArrayList<>();
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("classes").sizeClass(1024, 4).sizeClass(8192, 2)
                .build());
             Pipeline<Lease> p = PipelineBuilder.fromIterable(sizes).named("too-large")
                     .pipe("acquire", (Integer n) -> pool.acquire(n), StageOptions.defaults())
                     .build()) {
            for (Lease l : p) {
                delivered.add(l.capacity());
                l.release();
            }
            assertThat(p.stats().get(1).failures()).isEqualTo(1);
            assertThatThrownBy(() -> pool.acquire(1 << 20)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("pool 'classes'").hasMessageContaining("larger than its largest slab");
        }
        assertThat(delivered).containsExactly(100, 5_000, 200, 300);
    }
}
