package org.spdl4j.examples.slots;

import java.util.function.Consumer;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.Slot;

/**
 * The items and labels of the samples in flight, one entry per slot of each of the assembler's batch objects: the
 * assign stage puts each item at its slot, the fill stage takes it out, and the consumer reads the label of a sample
 * of a batch it holds. No per-item object, no lock, no search.
 *
 * <pre>
 *   entry = batch.ordinal() * batchSize + slot index      batch.ordinal() &lt; batchesInFlight, fixed per object
 *   items[entry]   the item, from assign until fill takes it
 *   labels[entry]  its label, until the batch object is claimed again (after the consumer closed the batch)
 * </pre>
 *
 * <p><b>Why by batch object, not by sequence number:</b> batches complete in any order (one slow sample holds its
 * batch open while later batches are published, closed and their objects claimed again), so a ring indexed by
 * sequence modulo {@code batchesInFlight x batchSize} would hand a slow batch's entries to the batch claimed
 * {@code batchesInFlight} after it. A batch object holds one open or unclosed batch at a time, so its entries belong
 * to that batch until it is closed.
 *
 * <p><b>Threading:</b> written by the single assign thread; read by fill workers and the consumer after the rings
 * (release on publish, acquire on read) or the batch's completion (a volatile read-modify-write) ordered the write
 * before the read, so plain array accesses suffice. Entries of a batch are written again only after the batch object
 * went back to the assembler's free list (a queue: release on offer, acquire on poll) when its batch was closed.
 *
 * @param <I> the item type
 */
final class InFlightTable<I> {
    private final Object[] items;
    private final int[] labels;
    private final int batchSize;

    /**
     * Creates the table.
     *
     * @param batchesInFlight the assembler's batch objects (its {@code batchesInFlight()})
     * @param batchSize       slots per batch
     */
    InFlightTable(int batchesInFlight, int batchSize) {
        this.items = new Object[Math.multiplyExact(batchesInFlight, batchSize)];
        this.labels = new int[items.length];
        this.batchSize = batchSize;
    }

    void put(Slot slot, I item, int label) {
        int i = entry(slot.batch(), slot.index());
        items[i] = item;
        labels[i] = label;
    }

    /** Takes the item out (the entry no longer keeps it reachable); the label stays for the consumer. */
    @SuppressWarnings("unchecked") // only put(Slot, I, int) stores into items
    I take(Slot slot) {
        int i = entry(slot.batch(), slot.index());
        I item = (I) items[i];
        items[i] = null;
        return item;
    }

    /** The label of held sample {@code i} of a published batch (valid until the batch is closed). */
    int label(Batch batch, int i) {
        return labels[entry(batch, batch.slotIndex(i))];
    }

    private int entry(Batch batch, int slotIndex) {
        return batch.ordinal() * batchSize + slotIndex;
    }

    /** Items put but never taken (a pipeline closed early); call only once every stage thread has stopped. */
    @SuppressWarnings("unchecked") // only put(Slot, I, int) stores into items
    void drain(Consumer<? super I> release) {
        for (int i = 0; i < items.length; i++) {
            if (items[i] != null) {
                I item = (I) items[i];
                items[i] = null;
                release.accept(item);
            }
        }
    }
}
