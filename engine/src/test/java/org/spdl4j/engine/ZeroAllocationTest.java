package org.spdl4j.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Supplier;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The engine's own path allocates nothing per item: with preallocated items and identity functions, the bytes the
 * engine's threads and the consumer allocate over many items stay near zero (HotSpot's per-thread allocation
 * counters; the JMH gc profiler in the perf module measures the same thing more precisely).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZeroAllocationTest {
    private static final int WARM_UP = 300_000;
    private static final int MEASURED = 1_000_000;

    @Test
    void shouldAllocateNothingPerItemOnTheEnginePath() throws Exception {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Duration timeout = Duration.ofSeconds(10);
        try (Pipeline<Object> p = PipelineBuilder.fromSupplier(pooledItems())
                .named("zero-alloc")
                .pipe("a", x -> x, StageOptions.defaults().withConcurrency(2).withRingCapacity(256))
                .pipe("b", x -> x, StageOptions.defaults().withConcurrency(2).withOrder(OutputOrder.INPUT)
                        .withRingCapacity(256))
                .pipe("c", x -> x, StageOptions.defaults().withRingCapacity(256))
                .sink(256)
                .build()) {
            for (int i = 0; i < WARM_UP; i++) {
                p.next(timeout);
            }
            Map<Long, Long> before = engineThreadAllocations(threads);
            long consumerBefore = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < MEASURED; i++) {
                p.next(timeout);
            }
            long consumer = threads.getCurrentThreadAllocatedBytes() - consumerBefore;
            Map<Long, Long> after = engineThreadAllocations(threads);
            long engine = 0;
            for (Map.Entry<Long, Long> e : after.entrySet()) {
                engine += e.getValue() - before.getOrDefault(e.getKey(), 0L);
            }
            assertThat(before).hasSize(6); // source, a x2, b x2, c
            // A few hundred bytes of slack for one-off JIT deoptimisation or lazily initialised state.
            assertThat((double) engine / MEASURED).as("engine bytes per item (total %d)", engine).isLessThan(0.01);
            assertThat((double) consumer / MEASURED).as("consumer bytes per item (total %d)", consumer)
                    .isLessThan(0.01);
        }
    }

    @Test
    void shouldAllocateNothingPerItemWhileAdjustableStagesParkAndWake() throws Exception {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Duration timeout = Duration.ofSeconds(10);
        try (Pipeline<Object> p = PipelineBuilder.fromSupplier(pooledItems())
                .named("zero-alloc-adj")
                .pipe("a", x -> x, StageOptions.defaults().withConcurrency(2).withMaxConcurrency(3)
                        .withRingCapacity(256))
                .pipe("b", x -> x, StageOptions.defaults().withConcurrency(1).withMaxConcurrency(2)
                        .withOrder(OutputOrder.INPUT).withRingCapacity(256))
                .sink(256)
                .build()) {
            StageConcurrency a = p.concurrency("a");
            StageConcurrency b = p.concurrency("b");
            for (int i = 0; i < WARM_UP; i++) {
                p.next(timeout);
                if (i % 50_000 == 0) {
                    a.set(1 + (i / 50_000) % 3);
                    b.set(1 + (i / 50_000) % 2);
                }
            }
            Map<Long, Long> before = engineThreadAllocations(threads);
            for (int i = 0; i < MEASURED; i++) {
                p.next(timeout);
                if (i % 50_000 == 0) { // workers park and wake again while measured
                    a.set(1 + (i / 50_000) % 3);
                    b.set(1 + (i / 50_000) % 2);
                }
            }
            Map<Long, Long> after = engineThreadAllocations(threads);
            long engine = 0;
            for (Map.Entry<Long, Long> e : after.entrySet()) {
                engine += e.getValue() - before.getOrDefault(e.getKey(), 0L);
            }
            assertThat(before).hasSize(6); // source, a x3, b x2
            assertThat((double) engine / MEASURED).as("engine bytes per item (total %d)", engine).isLessThan(0.01);
        }
    }

    @Test
    void shouldAllocateNothingPerItemWhenTheConsumerIterates() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (Pipeline<Object> p = PipelineBuilder.fromSupplier(pooledItems())
                .named("zero-alloc-iter")
                .pipe("a", x -> x, StageOptions.defaults().withRingCapacity(256))
                .sink(256)
                .build()) {
            Iterator<Object> it = p.iterator();
            for (int i = 0; i < WARM_UP; i++) {
                it.next();
            }
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < MEASURED; i++) {
                it.next();
            }
            long consumer = threads.getCurrentThreadAllocatedBytes() - before;
            // Before the iterator passed a constant deadline, it made a Duration per item: 24 B/item.
            assertThat((double) consumer / MEASURED).as("iterating consumer bytes per item (total %d)", consumer)
                    .isLessThan(0.01);
        }
    }

    /** An endless source of 1024 preallocated objects, handed out in turn (source thread only): no item allocates. */
    private static Supplier<Object> pooledItems() {
        Object[] items = new Object[1024];
        for (int i = 0; i < items.length; i++) {
            items[i] = new Object();
        }
        long[] counter = {0};
        return () -> items[(int) (counter[0]++ & 1023)];
    }

    private static Map<Long, Long> engineThreadAllocations(com.sun.management.ThreadMXBean threads) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("spdl4j-zero-alloc-"))
                .collect(Collectors.toMap(Thread::threadId, t -> threads.getThreadAllocatedBytes(t.threadId())));
    }
}
