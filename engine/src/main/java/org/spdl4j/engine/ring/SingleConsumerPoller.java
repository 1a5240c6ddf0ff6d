package org.spdl4j.engine.ring;

import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.Sequencer;

/**
 * The non-blocking reader of a link that has exactly one consumer: {@link #poll()} moves to the next published slot
 * or answers {@code false} at once. The caller decides how to wait (the pipeline's consumer waits with a timeout; an async
 * stage's dispatcher interleaves input with completions).
 *
 * <p><b>Threading:</b> one thread at a time (calls from different threads need a happens-before between them, as a
 * training loop handing the pipeline over has). <b>Allocation:</b> none.
 */
public final class SingleConsumerPoller extends SlotCursor {
    private final Sequencer sequencer;
    private final Sequence own;
    private final boolean singleProducer;
    /** The slots' reference array and mask, held here: the consumer's call reads them once each, not through the slots. */
    private final Object[] refs;
    private final int mask;
    private long cachedAvailable = -1L;

    /**
     * Creates the poller of a single-consumer link.
     *
     * @param link the link; its consumer count must be 1
     * @throws IllegalArgumentException if the link has several consumers
     */
    public SingleConsumerPoller(ItemLink link) {
        super(link.slots());
        if (link.consumerCount() != 1) {
            throw new IllegalArgumentException("link '" + link.name() + "' has " + link.consumerCount()
                    + " consumers; a poller needs it to have exactly one");
        }
        this.sequencer = link.sequencer();
        this.own = link.firstConsumerSequence();
        this.singleProducer = !link.isMultiProducer();
        this.refs = link.slots().refs();
        this.mask = link.slots().mask();
    }

    /**
     * Moves to the next slot if it has been published; read it through the cursor ({@link #isEnd()},
     * {@link #epoch()}, {@link #take()}) or {@link #swapOut()}, then {@link #release()} it.
     *
     * @return {@code true} if the next slot is published, {@code false} (and nothing moved) if not yet
     */
    public boolean poll() {
        long s = sequence + 1;
        if (s > cachedAvailable) {
            if (singleProducer) {
                // Acquire load of the cursor: a single producer publishes by storing it after writing every slot up
                // to it, so everything to the cursor is ready: one load per published range, not per item.
                long cursor = sequencer.getCursor();
                if (cursor < s) {
                    return false;
                }
                cachedAvailable = cursor;
            } else {
                if (!sequencer.isAvailable(s)) { // acquire load of the slot's availability flag (the cursor counts claims)
                    return false;
                }
                cachedAvailable = s;
            }
        }
        sequence = s;
        return true;
    }

    /**
     * Takes the item of the last successful {@link #poll()}, which the caller found not to be the end marker, with
     * one atomic swap, for a consumer that may race the close-time sweep ({@link ItemSlots#swapOut}).
     *
     * @return the item, or {@code null} if the sweep took it first
     */
    public Object swapOut() {
        return ItemSlots.swapOut(refs, ItemSlots.refIndex(sequence, mask));
    }

    /**
     * {@return what the slot of the last successful {@link #poll()} holds: an item, the end marker
     * ({@link ItemSlots#isEndMarker}), or {@code null} if close's sweep took the item} A plain load: call
     * {@link #swapOut()} to take an item.
     */
    public Object peek() {
        return refs[ItemSlots.refIndex(sequence, mask)];
    }

    /** {@return the epoch of the last successful {@link #poll()}'s item: 0 without a load while no epoch was written} */
    public long epochIfWritten() {
        ItemSlots slots = slots();
        return slots.epochsWritten() ? slots.epoch(sequence) : 0L;
    }

    /** Gives the slot of the last successful {@link #poll()} back to the producer. */
    public void release() {
        // Release store: the slot was read (and its reference cleared) before the producer may reuse it.
        own.set(sequence);
    }
}
