package org.spdl4j.engine.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One reusable slot of an item link: the item reference, the epoch it belongs to, and whether it is the end-of-stream
 * marker. Slots are preallocated by the ring and never replaced; producers overwrite them, consumers clear the item
 * reference as soon as they take it so the garbage collector can reclaim the item while the slot waits for reuse.
 *
 * <p><b>Threading:</b> plain fields, no synchronisation of its own. The ring's sequences order the accesses: a
 * producer writes the fields before publishing the slot's sequence (a release store in the Disruptor sequencer), a
 * consumer reads them after its barrier saw the sequence published (an acquire load), and releases the slot with a
 * release store of its own gating sequence after clearing it.
 *
 * <p>Two readers may race for one slot only at the consumer's end while the pipeline closes (the training loop
 * polling on its thread while {@code close()} sweeps leftovers on another); both then use {@link #takeAtomically()},
 * so each item goes to exactly one of them.
 */
public final class ItemSlot {
    private static final VarHandle ITEM;

    static {
        try {
            ITEM = MethodHandles.lookup().findVarHandle(ItemSlot.class, "item", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Object item;
    private long epoch;
    private boolean end;

    /** Creates an empty slot (called by the ring when it preallocates). */
    public ItemSlot() {
        // fields start empty
    }

    /**
     * Fills the slot with an item (producer side, before publish).
     *
     * @param value the item, never {@code null}
     * @param itemEpoch the epoch the item belongs to
     */
    public void set(Object value, long itemEpoch) {
        this.item = value;
        this.epoch = itemEpoch;
        this.end = false;
    }

    /** Marks the slot as the end-of-stream marker (producer side, before publish). */
    public void setEnd() {
        this.item = null;
        this.end = true;
    }

    /** {@return whether this slot carries the end-of-stream marker rather than an item} */
    public boolean isEnd() {
        return end;
    }

    /** {@return the epoch of the item in this slot} */
    public long epoch() {
        return epoch;
    }

    /**
     * Takes the item out of the slot and clears the reference (consumer side, before releasing the sequence).
     *
     * @return the item
     */
    public Object take() {
        Object value = item;
        item = null;
        return value;
    }

    /**
     * Takes the item with an atomic exchange, for a slot another thread may take at the same time (the consumer's
     * buffer during close). One atomic per item: used at the consumer's end only, not between stages.
     *
     * @return the item, or {@code null} if the slot is empty or the other thread took it
     */
    public Object takeAtomically() {
        return ITEM.getAndSet(this, (Object) null); // full fence: exactly one of two racing takers gets the item
    }
}
