package org.spdl4j.engine.ring;

import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.Sequence;

/**
 * The non-blocking reader of a link that has exactly one consumer: {@link #poll()} returns the next published slot or
 * {@code null} at once. The caller decides how to wait (the pipeline's consumer waits with a timeout; an async
 * stage's dispatcher interleaves input with completions).
 *
 * <p><b>Threading:</b> one thread at a time (calls from different threads need a happens-before between them, as a
 * training loop handing the pipeline over has). <b>Allocation:</b> none.
 */
public final class SingleConsumerPoller {
    private final RingBuffer<ItemSlot> ring;
    private final Sequence own;
    private final boolean singleProducer;
    private long sequence = -1L;
    private long cachedAvailable = -1L;

    /**
     * Creates the poller of a single-consumer link.
     *
     * @param link the link; its consumer count must be 1
     * @throws IllegalArgumentException if the link has several consumers
     */
    public SingleConsumerPoller(ItemLink link) {
        if (link.consumerCount() != 1) {
            throw new IllegalArgumentException("link '" + link.name() + "' has " + link.consumerCount()
                    + " consumers; a poller needs it to have exactly one");
        }
        this.ring = link.ring();
        this.own = link.firstConsumerSequence();
        this.singleProducer = !link.isMultiProducer();
    }

    /**
     * Returns the next slot if it has been published.
     *
     * @return the slot (read it, then {@link #release()}), or {@code null} if nothing is published yet
     */
    public ItemSlot poll() {
        long s = sequence + 1;
        if (s > cachedAvailable) {
            if (singleProducer) {
                // Acquire load of the cursor: a single producer publishes by storing it after writing every slot up
                // to it, so everything to the cursor is ready: one load per published range, not per item.
                long cursor = ring.getCursor();
                if (cursor < s) {
                    return null;
                }
                cachedAvailable = cursor;
            } else {
                if (!ring.isAvailable(s)) { // acquire load of the slot's availability flag (the cursor counts claims)
                    return null;
                }
                cachedAvailable = s;
            }
        }
        sequence = s;
        return ring.get(s);
    }

    /** Gives the slot returned by the last {@link #poll()} back to the producer. */
    public void release() {
        // Release store: the slot was read (and its reference cleared) before the producer may reuse it.
        own.set(sequence);
    }
}
