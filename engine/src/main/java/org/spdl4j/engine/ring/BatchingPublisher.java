package org.spdl4j.engine.ring;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * One producing thread's batch in front of a {@link BoundedPublisher} into a ring that several threads produce into:
 * the thread adds results as they are ready and publishes them together ({@link #flush()}), what a Disruptor handler
 * does when it flushes at {@code endOfBatch}. When to flush (the latency rule) is the caller's: map workers at the
 * end of each input run (see {@link org.spdl4j.engine.PublishBatching}). {@link #add} keeps the item in this
 * thread's arrays; {@link #flush} claims them with {@code tryNext(n)} (one CAS on the shared cursor per range instead
 * of per item), writes the range and publishes it before claiming the next. Nothing is claimed before the flush, so
 * a dropped result leaves no hole (a claimed slot never published would stall every consumer of the ring) and a stop
 * leaves no half-written range. What a stop leaves staged belongs to the thread: {@link #discardStaged} hands it to
 * the discard hook. (A ring's only producer needs no batch: it claims slots itself and writes results in place, see
 * {@link BoundedPublisher#ownsClaims()}.)
 *
 * <p><b>Counting:</b> each published range is reported at once to the {@code published} callback given at
 * construction (the worker's items-out counter), also a range that {@link #add} or a waiting {@link #flush} publishes
 * while the ring is full, so a slow consumer never sees items the producer has not counted yet for longer than it
 * takes to publish one range.
 *
 * <p><b>Threading:</b> one thread only. <b>Allocation:</b> the staging arrays at construction, none after.
 */
public final class BatchingPublisher {
    private final BoundedPublisher out;
    private final int capacity;
    private final Object[] items; // staged items
    private final long[] epochs;
    private int size;
    private final IntConsumer published;

    /**
     * Creates a batch that reports every published range as it goes.
     *
     * @param out       the thread's publisher
     * @param capacity  the most items held at once, at least 1
     * @param published told, on this thread, how many items each range made visible, right after it is published
     *                  (a worker passes its items-out counter)
     * @throws IllegalArgumentException if capacity is below 1
     */
    public BatchingPublisher(BoundedPublisher out, int capacity, IntConsumer published) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a publish batch needs room for at least one item, got " + capacity);
        }
        this.published = published;
        this.out = out;
        this.capacity = capacity;
        this.items = new Object[capacity];
        this.epochs = new long[capacity];
    }

    /**
     * Adds an item to the batch, flushing first if the batch is full; may wait for room, bounded by the pipeline's
     * run flag.
     *
     * @param item  the item, not {@code null}
     * @param epoch its epoch
     * @return {@code true} if added; {@code false} if the pipeline stopped first (the item is still the caller's)
     */
    public boolean add(Object item, long epoch) {
        if (size == capacity) {
            publishHeld();
            if (size > 0) {
                return false; // stopped while flushing
            }
        }
        items[size] = item;
        epochs[size] = epoch;
        size++;
        return true;
    }

    /**
     * Publishes everything in the batch, in the order added; waits while the ring is full, publishing whatever part fits as room appears. Each range is reported to the {@code published}
     * callback as it goes; if the pipeline stopped, what could not be published stays (see {@link #discardStaged}).
     */
    public void flush() {
        publishHeld();
    }

    private void publishHeld() {
        int n = size;
        if (n == 0) {
            return;
        }
        int done = out.publishAll(items, epochs, n, published);
        // The published items now belong to the ring: drop our references so the GC can have them once consumed.
        Arrays.fill(items, 0, done, null);
        if (done < n) { // stopped: keep the rest, in order, for discardStaged
            System.arraycopy(items, done, items, 0, n - done);
            System.arraycopy(epochs, done, epochs, 0, n - done);
            Arrays.fill(items, n - done, n, null);
        }
        size = n - done;
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
        size = 0;
        for (int i = 0; i < n; i++) {
            Object item = items[i];
            items[i] = null;
            sink.accept(item);
        }
        return n;
    }

    /** {@return how many items the batch holds} */
    public int size() {
        return size;
    }

    /** {@return whether the batch holds nothing} */
    public boolean isEmpty() {
        return size == 0;
    }

    /** {@return whether the batch is full (the next {@link #add} flushes first)} */
    public boolean isFull() {
        return size == capacity;
    }
}
