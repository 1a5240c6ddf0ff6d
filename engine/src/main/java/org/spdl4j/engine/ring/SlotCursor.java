package org.spdl4j.engine.ring;

/**
 * What a reading thread sees of the slot it is at: the last sequence its reader handed out, and that slot's end
 * marker, epoch and item. The two readers of a link ({@link WorkSharingReader} for stage workers,
 * {@link SingleConsumerPoller} for a link's only consumer) move the cursor; reading through it is the same for both.
 *
 * <p><b>Threading:</b> the reader's thread only; the reader's acquire of the publication (the barrier, the cursor, or
 * with several producers the slot's availability flag) orders the slot reads after the producer's writes. Read only
 * after the reader has moved at least once. <b>Allocation:</b> none.
 */
public abstract sealed class SlotCursor permits WorkSharingReader, SingleConsumerPoller {
    private final ItemSlots slots;
    /** The sequence last handed out, -1 before the first; written by the reader that moves the cursor. */
    long sequence = -1L;

    SlotCursor(ItemSlots slots) {
        this.slots = slots;
    }

    /** {@return the sequence of the slot the cursor is at (-1 before the first move)} */
    public final long sequence() {
        return sequence;
    }

    /** {@return whether the slot the cursor is at is the end-of-stream marker} */
    public final boolean isEnd() {
        return slots.isEnd(sequence);
    }

    /** {@return the epoch of the item in the slot the cursor is at} */
    public final long epoch() {
        return slots.epoch(sequence);
    }

    /**
     * Takes the item of the slot the cursor is at and clears the slot's reference, so the garbage collector can have
     * the item once its task is done while the slot waits for reuse. Call only when {@link #isEnd()} is
     * {@code false} (an end slot holds the ring's private marker, not an item), and before the reader releases the
     * slot.
     *
     * @return the item
     */
    public final Object take() {
        return slots.take(sequence);
    }

    /** {@return the slots the cursor reads} */
    final ItemSlots slots() {
        return slots;
    }
}
