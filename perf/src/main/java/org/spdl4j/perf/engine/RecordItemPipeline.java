package org.spdl4j.perf.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.WaitPolicy;
import org.spdl4j.records.RecordConsumer;
import org.spdl4j.records.RecordPipeline;
import org.spdl4j.records.RecordPipelineBuilder;
import org.spdl4j.records.RecordSource;

/**
 * The benchmark shape on record rings (spdl4j-records): an endless source writing a {@code long} into each slot, two
 * one-worker in-place stages ({@code plus-one}, {@code times-three}) and the consumer, all chained on one off-heap
 * ring of {@link ItemPipeline#CAPACITY} slots (so at most a third of the records the three-link variants may hold are
 * in flight), its slots aligned as asked (16: four records to a cache line). The values never leave the ring: no
 * item objects, no references.
 *
 * <p>The record pipeline's consumer is an engine thread (a {@link RecordConsumer} callback), so the benchmark thread
 * does not take items: {@link #awaitRecords(int)} parks until the consumer has counted {@code n} more and the
 * consumer unparks it once per such batch. The benchmark thread is thus a fifth, sleeping thread; the four working
 * threads are the same count as in every other variant.
 *
 * <p><b>Threading:</b> {@link #awaitRecords(int)} from one benchmark thread; the counter fields are written by the
 * consumer thread only, {@link #target} and {@link #waiter} by the benchmark thread only.
 */
final class RecordItemPipeline {
    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(RecordItemPipeline.class, "count", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final RecordPipeline pipeline;
    private long count; // records consumed; consumer thread writes (release), benchmark thread reads (acquire)
    private long sum; // consumer thread only
    private long notified; // consumer thread only: the last target it woke the waiter for
    private volatile long target = Long.MAX_VALUE; // benchmark thread writes: wake me when count reaches this
    private volatile Thread waiter;
    private long goal; // benchmark thread only

    RecordItemPipeline(WaitPolicy policy, PublishBatching sourceBatching, int slotAlignment) {
        pipeline = RecordPipelineBuilder.named("bench-records").recordLength(Long.BYTES)
                .ringCapacity(ItemPipeline.CAPACITY).slotAlignment(slotAlignment).waitPolicy(policy)
                .sourcePublishBatching(sourceBatching)
                .source(new Counting())
                .stage("plus-one", r -> {
                    r.putLong(0, r.getLong(0) + 1);
                    return true;
                }, 1)
                .stage("times-three", r -> {
                    r.putLong(0, r.getLong(0) * 3);
                    return true;
                }, 1)
                .consumer(this::consume)
                .build()
                .start();
    }

    /** Endless source (source thread only). */
    private static final class Counting implements RecordSource {
        private long next;

        @Override
        public boolean next(MutableDirectBuffer record) {
            record.putLong(0, next++);
            return true;
        }
    }

    private void consume(DirectBuffer record) {
        sum += record.getLong(0);
        long c = count + 1;
        COUNT.setRelease(this, c); // a plain store on x86: the benchmark thread reads it after it wakes
        long t = target; // one volatile load per record; the line changes once per batch
        if (c >= t && t != notified) {
            notified = t;
            LockSupport.unpark(waiter);
        }
    }

    /**
     * Waits until the consumer has consumed {@code n} more records than at the previous call's return.
     *
     * @param n records to wait for
     * @return the consumer's running checksum (racy read; only for JMH to consume)
     * @throws InterruptedException if interrupted while waiting
     */
    long awaitRecords(int n) throws InterruptedException {
        goal += n;
        if (waiter == null) {
            waiter = Thread.currentThread();
        }
        target = goal;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while ((long) COUNT.getAcquire(this) < goal) {
            // The timeout bounds a lost wake-up (the consumer read an older target): the loop rechecks the count.
            LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for records");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("record pipeline consumed no " + n + " records in 30 s");
            }
        }
        return sum;
    }

    /**
     * Starts counting afresh from what the consumer has consumed so far (benchmark thread, between iterations): the
     * records the pipeline moved while JMH was not measuring are not credited to the next iteration.
     */
    void startIteration() {
        goal = (long) COUNT.getAcquire(this);
    }

    void stop() {
        pipeline.close();
    }
}
