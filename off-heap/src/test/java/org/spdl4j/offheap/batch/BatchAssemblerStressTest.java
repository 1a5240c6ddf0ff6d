package org.spdl4j.offheap.batch;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.spdl4j.offheap.BufferPool;
import org.spdl4j.offheap.PoolConfig;
import org.spdl4j.offheap.tensor.BatchDescriptor;
import org.spdl4j.offheap.tensor.DType;
import org.spdl4j.offheap.testing.PoolLeakExtension;

/**
 * One claimer, many producers completing slots in random order, about 10% of samples failing (after scribbling
 * over their slot). The consumer checks every published batch as it arrives, on the publishing thread: exactly its
 * surviving sequences, ascending, each sample's bytes a pattern of its own sequence number.
 */
@ExtendWith(PoolLeakExtension.class)
class BatchAssemblerStressTest {
    private static final int ITEMS = 20_011; // not a multiple of the batch size: the last batch is partial
    private static final int BATCH = 16;
    private static final int PRODUCERS = 4;
    private static final BatchDescriptor LAYOUT = BatchDescriptor.of(BATCH, DType.I32, 6);
    private static final Object POISON = new Object();

    private static boolean fails(long sequence) {
        return new SplittableRandom(sequence * 31 + 7).nextInt(10) == 0;
    }

    @Test
    @Timeout(120)
    void shouldHoldExactlySurvivingSamplesInInputOrderWithBytesIntact() throws Exception {
        try (BufferPool pool = BufferPool.open(PoolConfig.builder("assembly-stress")
                .sizeClass(LAYOUT.batchBytes(), 8).acquireTimeout(Duration.ofSeconds(30)).build())) {
            final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
            final ConcurrentHashMap<Long, Long> heldBy = new ConcurrentHashMap<>();
            final List<long[]> batchRanges = Collections.synchronizedList(new ArrayList<>());
            final BatchAssembler assembler = BatchAssembler.builder(pool, LAYOUT).batchesInFlight(6)
                    .consumer(b -> {
                        check(b, errors, heldBy);
                        batchRanges.add(new long[] {b.firstSequence(), b.size(), b.failedCount()});
                        b.close();
                    }).build();

            final BlockingQueue<Object> work = new ArrayBlockingQueue<>(256);
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread[] producers = new Thread[PRODUCERS];
            for (int p = 0; p < PRODUCERS; p++) {
                producers[p] = new Thread(() -> produce(work, failure), "producer-" + p);
                producers[p].start();
            }
            final SplittableRandom random = new SplittableRandom(42);
            final List<Slot> window = new ArrayList<>();
            for (int i = 0; i < ITEMS; i++) {
                window.add(assembler.claim());
                if (window.size() == 40 || i == ITEMS - 1) { // shuffle a window spanning several batches
                    for (int k = window.size() - 1; k > 0; k--) {
                        Collections.swap(window, k, random.nextInt(k + 1));
                    }
                    for (Slot s : window) {
                        work.put(s);
                    }
                    window.clear();
                }
            }
            assembler.close();
            for (int p = 0; p < PRODUCERS; p++) {
                work.put(POISON);
            }
            for (Thread t : producers) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("producer failed", failure.get());
            }
            assertThat(errors).isEmpty();

            long survivors = 0;
            for (long s = 0; s < ITEMS; s++) {
                if (!fails(s)) {
                    survivors++;
                    assertThat(heldBy).as("sequence %d delivered", s).containsKey(s);
                } else {
                    assertThat(heldBy).as("failed sequence %d not delivered", s).doesNotContainKey(s);
                }
            }
            assertThat(heldBy).hasSize((int) survivors);
            batchRanges.sort(Comparator.comparingLong(r -> r[0]));
            assertThat(batchRanges.size() + assembler.discardedBatches()).isEqualTo((ITEMS + BATCH - 1) / BATCH);
            assertThat(pool.inUse()).isZero();
        }
    }

    private static void produce(BlockingQueue<Object> work, AtomicReference<Throwable> failure) {
        try {
            while (true) {
                final Object o = work.take();
                if (o == POISON) {
                    return;
                }
                final Slot slot = (Slot) o;
                final long seq = slot.sequence();
                if (fails(seq)) {
                    slot.buffer().setMemory(0, slot.length(), (byte) 0x5A);
                    slot.fail(new RuntimeException("decode failed for " + seq));
                } else {
                    for (int k = 0; k < 6; k++) {
                        slot.buffer().putInt(k * 4, (int) (seq * 6 + k));
                    }
                    slot.complete();
                }
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
    }

    private static void check(Batch b, ConcurrentLinkedQueue<String> errors, ConcurrentHashMap<Long, Long> heldBy) {
        final long first = b.firstSequence();
        final long last = Math.min(first + BATCH, ITEMS);
        final List<Long> expected = new ArrayList<>();
        for (long s = first; s < last; s++) {
            if (!fails(s)) {
                expected.add(s);
            }
        }
        if (b.size() != expected.size() || b.failedCount() != (last - first) - expected.size()) {
            errors.add("batch " + first + ": holds " + b.size() + ", expected " + expected);
            return;
        }
        for (int i = 0; i < b.size(); i++) {
            final long seq = b.sequence(i);
            if (seq != expected.get(i)) {
                errors.add("batch " + first + " sample " + i + " is " + seq + ", expected " + expected.get(i));
            }
            for (int k = 0; k < 6; k++) {
                final int v = b.lease().buffer().getInt(i * LAYOUT.sampleBytes() + k * 4);
                if (v != (int) (seq * 6 + k)) {
                    errors.add("batch " + first + " sample " + i + " (seq " + seq + ") int " + k + " = " + v);
                }
            }
            if (heldBy.put(seq, first) != null) {
                errors.add("sequence " + seq + " delivered twice");
            }
        }
        if (b.tensor().shape(0) != b.size()) {
            errors.add("batch " + first + " tensor shape " + b.tensor().shape(0));
        }
    }
}
