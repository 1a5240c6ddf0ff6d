package org.spdl4j.engine.ring;

import java.util.function.Consumer;

/**
 * One producing thread's batch in front of a {@link BoundedPublisher}: the thread stages results as they are ready
 * and publishes them together ({@link #flush()}) as claimed ranges of the output ring, one claim and one cursor
 * release per range instead of per item: what a Disruptor handler does when it flushes at {@code endOfBatch}.
 *
 * <p>Staged items are not in the ring: no slot is claimed until {@link #flush()}, and flush publishes each range it
 * claims before it claims the next, so a stop never leaves a claimed but unwritten slot (a hole that would stall a
 * multi-producer ring's consumers), and a dropped result ({@code null}) is simply never staged. What a stop leaves
 * staged belongs to the thread, which hands it to the discard hook with {@link #discardStaged} when it leaves; the
 * close-time sweep of the rings never sees it, so each item is discarded exactly once.
 *
 * <p>When to flush (the latency rule) is the caller's: map workers at the end of each input run, the source when the
 * batch is full or a call was slow (see {@link org.spdl4j.engine.PublishBatching}).
 *
 * <p><b>Threading:</b> one thread only. <b>Allocation:</b> the staging arrays at construction, none after.
 */
public final class BatchingPublisher {
    private final BoundedPublisher out;
    private final Object[] items;
    private final long[] epochs;
    private int size;

    /**
     * Creates a batch.
     *
     * @param out      the thread's publisher
     * @param capacity the most items staged at once, at least 1
     * @throws IllegalArgumentException if capacity is below 1
     */
    public BatchingPublisher(BoundedPublisher out, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a publish batch needs room for at least one item, got " + capacity);
        }
        this.out = out;
        this.items = new Object[capacity];
        this.epochs = new long[capacity];
    }

    /**
     * Stages an item.
     *
     * @param item  the item, not {@code null}
     * @param epoch its epoch
     * @throws IllegalStateException if the batch is full (flush first)
     */
    public void stage(Object item, long epoch) {
        if (size == items.length) {
            throw new IllegalStateException("publish batch full (" + size + " items): flush before staging more");
        }
        items[size] = item;
        epochs[size] = epoch;
        size++;
    }

    /**
     * Publishes every staged item, in staging order; waits (bounded by the pipeline's run flag) while the ring is
     * full, publishing whatever part fits as room appears.
     *
     * @return how many were published; fewer than were staged only if the pipeline stopped, and the rest stays
     *         staged (see {@link #discardStaged})
     */
    public int flush() {
        if (size == 0) {
            return 0;
        }
        int done = out.publishAll(items, epochs, size);
        // The published items now belong to the ring: drop our references so the GC can have them once consumed.
        java.util.Arrays.fill(items, 0, done, null);
        if (done < size) {
            System.arraycopy(items, done, items, 0, size - done); // stopped: keep the rest in order for discard
            System.arraycopy(epochs, done, epochs, 0, size - done);
            java.util.Arrays.fill(items, size - done, size, null);
        }
        size -= done;
        return done;
    }

    /**
     * Hands every staged item to {@code sink} and empties the batch: for a thread that leaves without publishing
     * them (the pipeline stopped).
     *
     * @param sink receives each staged item
     * @return how many were handed over
     */
    public int discardStaged(Consumer<Object> sink) {
        int n = size;
        for (int i = 0; i < n; i++) {
            Object item = items[i];
            items[i] = null;
            sink.accept(item);
        }
        size = 0;
        return n;
    }

    /** {@return whether the output ring has room for everything staged plus one more item (see BoundedPublisher)} */
    public boolean hasRoomForOneMore() {
        return out.hasRoomFor(size + 1);
    }

    /** {@return how many items are staged} */
    public int size() {
        return size;
    }

    /** {@return whether no item is staged} */
    public boolean isEmpty() {
        return size == 0;
    }

    /** {@return whether the batch is full} */
    public boolean isFull() {
        return size == items.length;
    }

    /** {@return the most items staged at once} */
    public int capacity() {
        return items.length;
    }
}
