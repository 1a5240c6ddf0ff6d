package org.spdl4j.engine.ring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Work sharing under contention: several producers, many consumers sharing one claim sequence, a tiny ring. Every
 * item must be taken exactly once (a producer overwriting an untaken slot loses one item and duplicates another; a
 * sequence claimed twice duplicates one), and each consumer must see each producer's items in publication order.
 * The batched variants publish through {@link BatchingPublisher}s with runs of random size, most larger than the
 * ring: a single producer writes in place and flushes whenever the ring is full; several producers stage and split
 * each flush into partial claims as room appears, racing the other producers' claims.
 */
class WorkSharingStressTest {

    private static void stress(int producers, int consumers, int capacity, int itemsPerProducer, long waitSeconds)
            throws Exception {
        stress(producers, consumers, capacity, itemsPerProducer, 1, waitSeconds);
    }

    /** As above; with {@code maxBatch > 1} each producer flushes batches of 1 to {@code maxBatch} items. */
    private static void stress(int producers, int consumers, int capacity, int itemsPerProducer, int maxBatch,
                               long waitSeconds) throws Exception {
        ItemLink link = new ItemLink("stress", capacity, producers > 1, consumers,
                new BackoffWaitStrategy(new BackoffPolicy(100, 10, 5_000, 100_000, 1_000, 100_000)));
        RunFlag running = new RunFlag();
        int total = producers * itemsPerProducer;
        AtomicIntegerArray seen = new AtomicIntegerArray(total);
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        CountDownLatch producersDone = new CountDownLatch(producers);
        List<Thread> threads = new ArrayList<>();

        for (int p = 0; p < producers; p++) {
            int base = p * itemsPerProducer;
            BoundedPublisher out = link.publisher(new BackoffIdleStrategy(), running);
            BatchingPublisher batch = new BatchingPublisher(out, Math.min(maxBatch, 16), n -> { }); // larger flush early
            long seed = 0x9E3779B97F4A7C15L * (p + 1);
            threads.add(Thread.ofPlatform().daemon(true).name("stress-producer-" + p).start(() -> {
                java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
                int i = 0;
                while (i < itemsPerProducer) {
                    if (maxBatch == 1) {
                        out.publish(base + i, epochOf(i)); // boxing: test-side allocation only
                        i++;
                        continue;
                    }
                    int n = Math.min(itemsPerProducer - i, 1 + random.nextInt(maxBatch));
                    for (int k = 0; k < n; k++) {
                        if (!batch.add(base + i, epochOf(i))) {
                            errors.add("add refused while running");
                        }
                        i++;
                    }
                    batch.flush();
                    if (!batch.isEmpty()) {
                        errors.add("flush left " + batch.size() + " items while running");
                    }
                }
                producersDone.countDown();
            }));
        }
        for (int c = 0; c < consumers; c++) {
            WorkSharingReader in = link.reader(c);
            threads.add(Thread.ofPlatform().daemon(true).name("stress-consumer-" + c).start(() -> {
                int[] lastByProducer = new int[producers];
                java.util.Arrays.fill(lastByProducer, -1);
                try {
                    for (;;) {
                        in.next();
                        if (in.isEnd()) {
                            in.releaseAndRetire();
                            return;
                        }
                        long epoch = in.epoch();
                        int item = (Integer) in.take();
                        in.release();
                        if (epoch != epochOf(item % itemsPerProducer)) {
                            errors.add("item " + item + " read with epoch " + epoch + ", published with "
                                    + epochOf(item % itemsPerProducer));
                        }
                        seen.incrementAndGet(item);
                        int producer = item / itemsPerProducer;
                        if (item <= lastByProducer[producer]) {
                            errors.add("consumer saw " + item + " after " + lastByProducer[producer]);
                        }
                        lastByProducer[producer] = item;
                    }
                } catch (Exception e) {
                    errors.add(e.toString());
                }
            }));
        }
        try {
            if (!producersDone.await(waitSeconds, TimeUnit.SECONDS)) {
                long taken = 0;
                for (int i = 0; i < total; i++) {
                    taken += seen.get(i);
                }
                throw new AssertionError("producers not finished after " + waitSeconds + " s; " + taken + " of "
                        + total + " items taken so far (slow machine, or a stall)");
            }
            BoundedPublisher ends = link.publisher(new BackoffIdleStrategy(), running);
            for (int c = 0; c < consumers; c++) {
                assertThat(ends.publishEnd()).as("end marker %d published", c).isTrue();
            }
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(waitSeconds));
                assertThat(t.isAlive()).as(t.getName() + " finished").isFalse();
            }
        } finally {
            running.stop(); // on failure or timeout, let every thread of this test leave
            link.alert();
        }

        assertThat(errors).isEmpty();
        int lost = 0;
        int duplicated = 0;
        for (int i = 0; i < total; i++) {
            int n = seen.get(i);
            lost += n == 0 ? 1 : 0;
            duplicated += n > 1 ? 1 : 0;
        }
        assertThat(lost).as("items lost").isZero();
        assertThat(duplicated).as("items duplicated").isZero();
        assertThat(link.occupancy()).isZero();
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldTakeEveryItemExactlyOnceWithEightConsumersOnARingOfTwo() throws Exception {
        stress(3, 8, 2, 100_000, 60);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldTakeEveryItemExactlyOnceWithASingleProducerAndFourConsumers() throws Exception {
        stress(1, 4, 4, 300_000, 60);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldTakeEveryItemExactlyOnceWhenThreeProducersFlushBatchesLargerThanTheRing() throws Exception {
        stress(3, 4, 8, 100_000, 20, 60);
    }

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void shouldTakeEveryItemExactlyOnceWhenASingleProducerFlushesBatchesLargerThanTheRing() throws Exception {
        stress(1, 4, 4, 200_000, 12, 60);
    }

    @Test
    @Tag("long")
    @Timeout(value = 600, unit = TimeUnit.SECONDS)
    void shouldTakeMillionsOfItemsExactlyOnceUnderHeavyContention() throws Exception {
        stress(4, 16, 4, 1_000_000, 540);
    }

    /**
     * The epoch a producer publishes its i-th item with: it changes every few items, so the producers of one ring
     * interleave different epochs and a slot is often refilled with an epoch other than the one it holds (the case
     * in which {@link ItemSlots#set} must store it).
     */
    private static long epochOf(int i) {
        return i / 7;
    }
}
