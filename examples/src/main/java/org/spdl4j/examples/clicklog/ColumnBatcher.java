package org.spdl4j.examples.clicklog;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.spdl4j.offheap.MemoryAllocator;
import org.spdl4j.records.RecordConsumer;

/**
 * The record pipeline's consumer: writes each row, as it comes off the ring, into the next index of every column of
 * the batch being filled, records its latency, and hands each full batch to the training loop. A fixed set of
 * {@code batches} column batches in one off-heap block circulates between the two threads through two one-to-one
 * queues: full ones to the training loop ({@link #pollFull()}), closed ones back ({@link #recycle}). When every batch
 * is full or held, the consumer waits for one to come back, and the ring behind it fills up: back-pressure reaches the
 * source, and no row is dropped.
 *
 * <p><b>Threading:</b> {@link #accept} on the pipeline's consumer thread; {@link #pollFull()}, {@link #recycle} and
 * {@link #takePartial()} on one training-loop thread (the queues are single-producer, single-consumer).
 * <b>Allocation:</b> the block and the batch objects at construction; none per row or per batch. <b>Ownership:</b>
 * the batcher owns the block; {@link #close()} frees it, only after the pipeline's threads have stopped and no
 * batch is read any more. <b>Stopping:</b> an interrupt (the pipeline's close) ends a wait for a free batch; the row
 * is then dropped.
 */
final class ColumnBatcher implements RecordConsumer, AutoCloseable {
    private final MemoryAllocator allocator;
    private final long address;
    private final long bytes;
    private final OneToOneConcurrentArrayQueue<ColumnBatch> full; // consumer thread -> training loop
    private final OneToOneConcurrentArrayQueue<ColumnBatch> free; // training loop -> consumer thread
    private final IdleStrategy idle;
    private final RowLatency latency;
    private final ColumnBatch[] all;
    private ColumnBatch filling; // consumer thread; the training loop once the pipeline completed
    private boolean freed;

    /**
     * Allocates the batches, all free.
     *
     * @param batchSize rows per batch
     * @param batches   batches in circulation, at least 1
     * @param idle      how the consumer waits for a free batch
     * @param latency   where each row's latency goes
     * @param allocator where the block comes from (plain direct memory, or pinned memory for copies to a GPU)
     */
    ColumnBatcher(int batchSize, int batches, IdleStrategy idle, RowLatency latency, MemoryAllocator allocator) {
        long batchBytes = ColumnBatchDescriptor.batchBytes(batchSize);
        this.allocator = allocator;
        this.bytes = batchBytes * batches;
        this.address = allocator.allocate(bytes, ColumnBatchDescriptor.ALIGNMENT);
        this.full = new OneToOneConcurrentArrayQueue<>(batches);
        this.free = new OneToOneConcurrentArrayQueue<>(batches);
        this.idle = idle;
        this.latency = latency;
        this.all = new ColumnBatch[batches];
        for (int b = 0; b < batches; b++) {
            all[b] = new ColumnBatch(this, address + b * batchBytes, batchSize);
            free.offer(all[b]);
        }
    }

    @Override
    public void accept(DirectBuffer row) {
        ColumnBatch b = filling;
        if (b == null) {
            b = takeFree();
            if (b == null) {
                return; // interrupted: the pipeline is closing
            }
            filling = b;
        }
        boolean isFull = b.append(row);
        latency.record(row, System.nanoTime());
        if (isFull) {
            filling = null;
            full.offer(b); // release: the columns and size are visible to whoever polls it; never full (one per batch)
        }
    }

    private ColumnBatch takeFree() {
        idle.reset();
        for (;;) {
            ColumnBatch b = free.poll(); // acquire: the training loop finished reading it before it closed it
            if (b != null) {
                b.clear();
                return b;
            }
            if (Thread.currentThread().isInterrupted()) {
                return null;
            }
            idle.idle();
        }
    }

    /** {@return the oldest full batch, handed out, or {@code null} when none is ready} (training loop) */
    ColumnBatch pollFull() {
        ColumnBatch b = full.poll(); // acquire: pairs with the consumer's offer
        return b == null ? null : b.handOut();
    }

    /**
     * {@return the batch the consumer was filling when the stream ended (fewer rows than a full one), handed out, or
     * {@code null} if the rows filled whole batches} Training loop, only after the pipeline completed (its completion
     * latch orders the consumer's last writes before this read).
     */
    ColumnBatch takePartial() {
        ColumnBatch b = filling;
        filling = null;
        return b == null ? null : b.handOut();
    }

    /**
     * Takes a closed batch back for refilling (training loop; called by {@link ColumnBatch#close()}).
     *
     * @param batch the batch
     */
    void recycle(ColumnBatch batch) {
        free.offer(batch); // release: the reads of it are done before the consumer refills it
    }

    /** Frees the block; idempotent. Only once the pipeline's threads have stopped and no batch is read. */
    @Override
    public void close() {
        if (!freed) {
            freed = true;
            for (ColumnBatch b : all) {
                b.detach(); // a stray read after this fails the bounds check instead of reading freed memory
            }
            allocator.free(address, bytes, ColumnBatchDescriptor.ALIGNMENT);
        }
    }
}
