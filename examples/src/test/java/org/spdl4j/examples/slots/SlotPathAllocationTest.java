package org.spdl4j.examples.slots;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.agrona.UnsafeApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.offheap.DirectMemoryAllocator;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;

/**
 * The slot-assembly path (source -> assign -> fill -> consumer, {@link SlotStages}) allocates nothing per sample or
 * per batch in steady state: preallocated batches, slots and slot table, pooled items, a writer that stores one int.
 * Measured with HotSpot's per-thread allocation counters over the loader's threads and the consumer.
 *
 * <p>One allowance: the assign thread opens each batch, and opening acquires a pool lease, for which the leak
 * detector may record an acquisition site (every lease in the tests' paranoid mode, one in 128 by default): up to
 * {@link #SITE_BYTES} per batch. A per-sample object (16 B at least) would add {@code 16 x} {@link #BATCH} per batch
 * on top, beyond that allowance.
 *
 * <p>The consumer (iterator, labels, {@link Batch#close()}) allocates nothing per batch. What it does allocate is
 * the JIT's, once: when a consumer-path method is first queued for (re)compilation, HotSpot's
 * {@code CompileBroker::compile_method} resolves the String literals of the method's class
 * ({@code ConstantPool::resolve_string_constants}, interning one String and its byte[] per literal) on the calling
 * thread. Traced with async-profiler ({@code event=alloc,alloc=1,cstack=vmx}): {@code SinkReader.await} -> C1
 * counter overflow -> compile request -> 3 Strings + 176 B of byte[] = 248 B (SinkReader's exception messages), and
 * likewise {@code Lease.release} (Lease's, up to ~900 B). Whether one falls inside the measured window depends on
 * when the tier-up happens: measured 0 to 248 B over the window (0.04 B per batch; the ~4 B per batch noted before
 * did not reproduce). The literals of every class on the consumer path total under 5 KB, so
 * {@link #CONSUMER_ONE_OFF_BYTES} bounds the whole window: one 16 B object per batch would be 96 KB, one every 8
 * batches 12 KB, either fails.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SlotPathAllocationTest {
    private static final int BATCH = 64;
    private static final int WARM_UP_BATCHES = 3_000;
    private static final int MEASURED_BATCHES = 6_000;
    /** The most a leak-detection acquisition site takes (its message and stack trace), per batch. */
    private static final int SITE_BYTES = 1_024;
    /**
     * The most the consumer may allocate over the whole measured window: the JIT's one-off String-literal resolution
     * of the consumer path's classes (under 5 KB in all), never anything per batch.
     */
    private static final long CONSUMER_ONE_OFF_BYTES = 8 * 1_024;

    @Test
    void shouldAllocateNothingPerSampleOnTheSlotPath() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Integer[] pool = new Integer[1024];
        for (int i = 0; i < pool.length; i++) {
            pool[i] = 1_000 + i; // outside the Integer cache: real objects, reused
        }
        Iterable<Integer> endless = () -> new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return true;
            }

            @Override
            public Integer next() {
                return pool[next++ & (pool.length - 1)];
            }
        };
        SlotWriter<Integer> writer = (item, address, length) -> UnsafeApi.putInt(address, item);
        SlotLoaderOptions options = new SlotLoaderOptions(2, 4, false, WaitPolicy.BACKOFF);
        long labelSum = 0;
        try (SlotBatchLoader<Integer> loader = new SlotBatchLoader<>("slot-alloc", endless,
                BatchDescriptor.of(BATCH, DType.I32, 1), writer, item -> item & 7, item -> { }, options,
                DirectMemoryAllocator.INSTANCE)) {
            Iterator<Batch> batches = loader.iterator();
            labelSum += consume(loader, batches, WARM_UP_BATCHES);
            Map<Long, Long> before = loaderThreadAllocations(threads);
            long consumerBefore = threads.getCurrentThreadAllocatedBytes();
            labelSum += consume(loader, batches, MEASURED_BATCHES);
            long consumer = threads.getCurrentThreadAllocatedBytes() - consumerBefore;
            Map<Long, Long> after = loaderThreadAllocations(threads);
            long loaderBytes = 0;
            long assignBytes = 0;
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                Long end = after.get(t.threadId());
                if (end == null) {
                    continue;
                }
                long bytes = end - before.getOrDefault(t.threadId(), 0L);
                if (t.getName().startsWith("spdl4j-slot-alloc-" + SlotStages.ASSIGN_STAGE + "-")) {
                    assignBytes += bytes;
                } else {
                    loaderBytes += bytes;
                }
            }
            long samples = (long) MEASURED_BATCHES * BATCH;
            assertThat(before).as("source, assign, 2 fill workers").hasSize(4);
            // Slack for one-off JIT deoptimisation or lazily initialised state; a per-sample object would be >= 16 B.
            assertThat((double) loaderBytes / samples).as("source and fill bytes per sample (total %d)", loaderBytes)
                    .isLessThan(0.05);
            assertThat((double) assignBytes / MEASURED_BATCHES).as("assign bytes per batch (total %d)", assignBytes)
                    .isLessThan(SITE_BYTES + 8.0 * BATCH);
            // The iteration, the labels and the batch's close: nothing per batch (~100 B per batch before
            // Pipeline's iterator stopped making a Duration per item), only the JIT's one-off literal resolution.
            assertThat(consumer).as("consumer bytes over %d batches", MEASURED_BATCHES)
                    .isLessThan(CONSUMER_ONE_OFF_BYTES);
        }
        assertThat(labelSum).isPositive();
    }

    /** Takes {@code n} batches, checks each sample's label against its slot's content, closes them. */
    private static long consume(SlotBatchLoader<Integer> loader, Iterator<Batch> batches, int n) {
        long sum = 0;
        for (int b = 0; b < n; b++) {
            try (Batch batch = batches.next()) {
                for (int i = 0; i < batch.size(); i++) {
                    int label = loader.label(batch, i);
                    if (label != (UnsafeApi.getInt(batch.sampleAddress(i)) & 7)) {
                        throw new AssertionError("sample " + i + " of batch " + batch.firstSequence()
                                + " has label " + label);
                    }
                    sum += label + 1;
                }
            }
        }
        return sum;
    }

    private static Map<Long, Long> loaderThreadAllocations(com.sun.management.ThreadMXBean threads) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("spdl4j-slot-alloc-"))
                .collect(Collectors.toMap(Thread::threadId, t -> threads.getThreadAllocatedBytes(t.threadId())));
    }
}
