package org.spdl4j.engine.ring;

import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * One producing thread's batch in front of a {@link BoundedPublisher}: the thread adds results as they are ready and
 * publishes them together ({@link #flush()}), what a Disruptor handler does when it flushes at {@code endOfBatch}.
 * When to flush (the latency rule) is the caller's: map workers at the end of each input run, the source when the
 * batch is full or a call was slow (see {@link org.spdl4j.engine.PublishBatching}). Two ways, by the ring's
 * sequencer:
 *
 * <ul>
 *   <li><b>Single producer: in place.</b> {@link #add} claims the next slot (the publisher's own claim counter, a
 *   compare and an increment while its cached view of the consumers shows room) and writes the item into it at once;
 *   {@link #flush} publishes the claimed range with one release store of the cursor. Nothing is copied, and nothing
 *   claimed is visible to the consumers before the flush. A full ring flushes first (the consumers cannot free slots
 *   past an unpublished one), then waits. On a stop, results in claimed, unpublished slots stay in the ring, where the
 *   close-time sweep takes each once.</li>
 *   <li><b>Several producers: staged.</b> {@link #add} keeps the item in this thread's arrays; {@link #flush} claims
 *   them with {@code tryNext(n)} (one CAS on the shared cursor per range instead of per item), writes the range and
 *   publishes it before claiming the next. Nothing is claimed before the flush, so a dropped result leaves no hole
 *   (a claimed slot never published would stall every consumer of the ring) and a stop leaves no half-written
 *   range. What a stop leaves staged belongs to the thread: {@link #discardStaged} hands it to the discard hook.</li>
 * </ul>
 *
 * <p><b>Counting:</b> each published range is reported at once to the {@code published} callback given at
 * construction (the worker's items-out counter), also a range that {@link #add} or a waiting {@link #flush} publishes
 * while the ring is full, so a slow consumer never sees items the producer has not counted yet for longer than it
 * takes to publish one range.
 *
 * <p><b>Threading:</b> one thread only. <b>Allocation:</b> the staging arrays at construction (several producers
 * only), none after.
 */
public final class BatchingPublisher {
    private final BoundedPublisher out;
    private final boolean inPlace;
    private final int capacity;
    private final Object[] items; // staged items (several producers); null in place
    private final long[] epochs;
    private int size;
    private long first; // in place: the first claimed, unpublished sequence (when size > 0)
    private long last;  // in place: the last one
    private final IntConsumer published;

    /**
     * Creates a batch that reports every published range as it goes.
     *
     * @param out       the thread's publisher; a single-producer ring's is used in place
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
        this.inPlace = out.isSingleProducer();
        this.capacity = capacity;
        this.items = inPlace ? null : new Object[capacity];
        this.epochs = inPlace ? null : new long[capacity];
    }

    /**
     * Adds an item to the batch, flushing first if the batch is full, or (in place) if the ring is; may wait for
     * room, bounded by the pipeline's run flag.
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
        if (!inPlace) {
            items[size] = item;
            epochs[size] = epoch;
            size++;
            return true;
        }
        long seq = out.tryClaim();
        if (seq < 0) {
            publishHeld(); // the consumers need what we hold published before they can free a slot
            seq = out.claimSlot(); // waits for room; counts the wait as back-pressure
            if (seq < 0) {
                return false;
            }
        }
        out.write(seq, item, epoch);
        if (size == 0) {
            first = seq;
        }
        last = seq;
        size++;
        return true;
    }

    /**
     * Publishes everything in the batch, in the order added. In place this never waits; staged, it waits while the
     * ring is full, publishing whatever part fits as room appears. Each range is reported to the {@code published}
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
        if (inPlace) {
            out.publishRange(first, last); // one release store of the cursor for the whole range
            size = 0;
            published.accept(n);
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
     * them (the pipeline stopped). In place there is nothing to hand over: claimed slots are the ring's, swept on
     * close.
     *
     * @param sink receives each staged item
     * @return how many were handed over
     */
    public int discardStaged(Consumer<Object> sink) {
        if (inPlace) {
            size = 0;
            return 0;
        }
        int n = size;
        size = 0;
        for (int i = 0; i < n; i++) {
            Object item = items[i];
            items[i] = null;
            sink.accept(item);
        }
        return n;
    }

    /** {@return the most items the batch holds at once} */
    public int capacity() {
        return capacity;
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

    /** {@return whether items are written straight into claimed slots (single producer) rather than staged} */
    public boolean isInPlace() {
        return inPlace;
    }
}
