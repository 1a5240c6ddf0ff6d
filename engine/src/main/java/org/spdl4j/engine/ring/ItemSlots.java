package org.spdl4j.engine.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The slots of one {@link ItemLink}, stored as two parallel arrays indexed by sequence: the item references and their
 * epochs. The end-of-stream marker is a private sentinel in the reference array, so a slot needs no flag.
 *
 * <p><b>Why arrays, not slot objects.</b> A ring of slot objects (reference + epoch + flag, 32 bytes with the
 * header) puts two slots on a cache line, and every line of them moves between the producer's and the consumer's
 * cores twice per lap: written by the producer, then written again by the consumer that clears the reference. A
 * reference array puts sixteen slots on a line (eight on heaps of 32 GB or more, without compressed references),
 * like a JCTools queue's buffer. The epoch array
 * is only read in the steady state: {@link #set} stores an epoch only when it differs from the one the slot already
 * holds (within an epoch, every lap finds the same value), so its lines stay shared and never move. Both arrays carry
 * at least 128 bytes of padding at each end, so neither shares a line with whatever the heap puts next to it.
 *
 * <p><b>Threading:</b> plain array accesses (but {@link #swapOut} and {@link #takeAtomically}), no synchronisation
 * of their own. The link's sequences order them: a producer writes a slot then publishes its sequence (a release store
 * in the Disruptor sequencer); a consumer sees the sequence (acquire) then reads the slot, clears the reference and
 * stores its gating sequence (release) before the producer may reuse the slot. Two readers race for one slot only at
 * the consumer's end while the pipeline closes (the training loop polling while {@code close()} sweeps leftovers on
 * another thread): the consumer takes by {@link #swapOut} (one atomic swap), the sweep by {@link #takeAtomically}
 * (compare-and-set), so each item goes to exactly one of them. The consumer's plain read of the slot first (end marker
 * or item) and of the epoch are safe against that sweep: it only ever swaps an item for {@code null}, never writes the
 * end marker or an epoch.
 *
 * <p><b>Allocation:</b> the two arrays at construction, none after.
 */
public final class ItemSlots {
    /** The end-of-stream marker's sentinel: never handed out as an item. */
    private static final Object END = new Object() {
        @Override
        public String toString() {
            return "end-of-stream";
        }
    };
    private static final VarHandle ITEMS = MethodHandles.arrayElementVarHandle(Object[].class);
    /** Padding at each end: 32 references (128 bytes with compressed references) and 16 longs (128 bytes). */
    private static final int REF_PAD = 32;
    private static final int EPOCH_PAD = 16;

    private final Object[] items;
    private final long[] epochs;
    private final int mask;
    /**
     * Whether any producer ever wrote an epoch other than 0 into these slots. A finite source's items are all of
     * epoch 0, so while this is false the epoch array holds only zeros and neither side needs to touch it: the
     * producer skips its read-before-write, a reader walking a run skips its loads ({@link #epochsWritten()}).
     * Written (once, to {@code true}) by a producer before it publishes the slot that needs it, so a reader that
     * acquired that slot's publication sees it; several producers may write it, all the same value.
     */
    private boolean epochsWritten;

    /**
     * Creates the slots of a ring.
     *
     * @param capacity slots, a power of two
     * @throws IllegalArgumentException if capacity is not a positive power of two
     */
    public ItemSlots(int capacity) {
        if (capacity < 1 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two, got " + capacity);
        }
        this.items = new Object[capacity + 2 * REF_PAD];
        this.epochs = new long[capacity + 2 * EPOCH_PAD];
        this.mask = capacity - 1;
    }

    /**
     * {@return the reference array, for a run loop that keeps it in a local} Index it with {@link #refIndex}; read
     * and write it as {@link #takeUnlessEnd} and {@link #set} do (a slot holds an item, {@code null} once taken, or
     * the end marker, {@link #isEndMarker}). A loop holding the array in a local reloads nothing per item after the
     * volatile loads it makes (run flag, interrupt flag), which would force the fields of this object to be read
     * again each time.
     */
    public Object[] refs() {
        return items;
    }

    /** {@return the index mask: capacity - 1} */
    public int mask() {
        return mask;
    }

    /**
     * {@return the index into {@link #refs()} of a sequence's slot}
     *
     * @param sequence the sequence
     * @param mask     {@link #mask()}
     */
    public static int refIndex(long sequence, int mask) {
        return REF_PAD + ((int) sequence & mask);
    }

    /**
     * {@return whether a reference read from {@link #refs()} is the end-of-stream marker}
     *
     * @param ref the reference
     */
    public static boolean isEndMarker(Object ref) {
        return ref == END;
    }

    /** {@return the number of slots} */
    public int capacity() {
        return mask + 1;
    }

    /**
     * Fills the slot of a claimed sequence with an item (producer side, before publish).
     *
     * @param sequence the claimed sequence
     * @param item     the item, never {@code null}
     * @param epoch    the epoch the item belongs to
     */
    public void set(long sequence, Object item, long epoch) {
        int i = (int) sequence & mask;
        items[REF_PAD + i] = item;
        if (epoch != 0 || epochsWritten) {
            if (!epochsWritten) {
                epochsWritten = true; // before the publication of this slot, which orders it for the readers
            }
            // Read before write: in the steady state the slot holds this epoch from the last lap, and a load of a
            // line the consumers only read leaves it shared in every cache, where a store would take it from them
            // each lap.
            if (epochs[EPOCH_PAD + i] != epoch) {
                epochs[EPOCH_PAD + i] = epoch;
            }
        }
    }

    /**
     * {@return whether any slot may hold an epoch other than 0} Read after acquiring a published range: while it is
     * {@code false}, every item of that range is of epoch 0 and a reader may skip the epoch loads. Once true it stays
     * true.
     */
    public boolean epochsWritten() {
        return epochsWritten;
    }

    /**
     * Makes the slot of a claimed sequence the end-of-stream marker (producer side, before publish).
     *
     * @param sequence the claimed sequence
     */
    public void setEnd(long sequence) {
        items[REF_PAD + ((int) sequence & mask)] = END;
    }

    /**
     * {@return whether the slot of a published sequence is the end-of-stream marker}
     *
     * @param sequence the sequence
     */
    public boolean isEnd(long sequence) {
        return items[REF_PAD + ((int) sequence & mask)] == END;
    }

    /**
     * {@return the epoch of the item in the slot of a published sequence}
     *
     * @param sequence the sequence
     */
    public long epoch(long sequence) {
        return epochs[EPOCH_PAD + ((int) sequence & mask)];
    }

    /**
     * Takes the item out of the slot of a published sequence and clears the reference (consumer side, before the
     * consumer releases the sequence), so the garbage collector can reclaim the item while the slot waits for reuse.
     *
     * @param sequence the sequence; its slot holds an item, not the end marker
     * @return the item
     */
    public Object take(long sequence) {
        int i = REF_PAD + ((int) sequence & mask);
        Object item = items[i];
        items[i] = null;
        return item;
    }

    /**
     * Takes the item out of the slot of a published sequence unless the slot is the end-of-stream marker, which stays
     * in place (consumer side, as {@link #take}): one load and, for an item, one store.
     *
     * @param sequence the sequence
     * @return the item, or {@code null} if the slot is the end marker
     */
    public Object takeUnlessEnd(long sequence) {
        int i = REF_PAD + ((int) sequence & mask);
        Object item = items[i];
        if (item == END) {
            return null;
        }
        items[i] = null;
        return item;
    }

    /**
     * Takes the item out of a published slot that does not hold the end marker (the caller read it first) with one
     * atomic swap, for the consumer's end while close's sweep may take the same slot ({@link #takeAtomically}): of the
     * two, exactly one gets the item. The end marker is never written over: the sweep never writes one, and a
     * producer does not reuse a slot before its consumer releases it.
     *
     * @param sequence the sequence, published, its slot not the end marker
     * @return the item, or {@code null} if the sweep took it first
     */
    public Object swapOut(long sequence) {
        return swapOut(items, REF_PAD + ((int) sequence & mask));
    }

    /**
     * {@link #swapOut(long)} for a reader that keeps {@link #refs()} in a field of its own.
     *
     * @param refs  {@link #refs()}
     * @param index {@link #refIndex} of the sequence
     * @return the item, or {@code null} if the sweep took it first
     */
    public static Object swapOut(Object[] refs, int index) {
        return (Object) ITEMS.getAndSet(refs, index, (Object) null);
    }

    /**
     * Takes the item with a compare-and-set, for a slot another thread may take at the same time: close's sweep of
     * leftovers ({@link ItemLink#drainUntaken}), which may race the consumer's {@link #swapOut}. It leaves the end
     * marker in place; never used between stages.
     *
     * @param sequence the sequence
     * @return the item, or {@code null} if the slot is empty, holds the end marker, or the other thread took it
     */
    public Object takeAtomically(long sequence) {
        int i = REF_PAD + ((int) sequence & mask);
        for (;;) {
            Object item = ITEMS.getAcquire(items, i);
            if (item == null || item == END) {
                return null; // taken already, or the end marker, which stays for its reader
            }
            // Full fence: exactly one of two racing takers swaps the item out; the other rereads and sees null.
            if (ITEMS.compareAndSet(items, i, item, (Object) null)) {
                return item;
            }
        }
    }
}
