package org.spdl4j.examples.image;

import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.Slot;

/**
 * Labels by batch object and slot: one entry per slot of each of the assembler's preallocated batch objects, so a
 * consumer holding a batch reads the labels of its samples without any per-batch allocation or search, and a label
 * stays valid until its batch is closed whatever order batches complete in. (Keying by sequence number modulo a ring
 * would not: with completion order, batch {@code k} may still be filling when batch {@code k + batchesInFlight} is
 * claimed, and the two would share ring entries.)
 *
 * <pre>
 *   labels[batch.ordinal() * batchSize + slot index]      batch.ordinal() &lt; batchesInFlight, fixed per object
 * </pre>
 *
 * <p><b>Threading:</b> written by the assign stage only; read by the consumer after the batch was published, which
 * happens-after every write for its samples (the batch's completion is a volatile read-modify-write and the rings
 * publish with release/acquire), so plain array accesses are enough.
 */
final class BatchLabels {
    private final int[] labels;
    private final int batchSize;

    /**
     * Creates the table.
     *
     * @param batchesInFlight the assembler's batch objects
     * @param batchSize       slots per batch
     */
    BatchLabels(int batchesInFlight, int batchSize) {
        this.labels = new int[Math.multiplyExact(batchesInFlight, batchSize)];
        this.batchSize = batchSize;
    }

    /**
     * Records the label of a claimed slot (assign thread).
     *
     * @param slot  the slot
     * @param label its sample's label
     */
    void put(Slot slot, int label) {
        labels[slot.batch().ordinal() * batchSize + slot.index()] = label;
    }

    /**
     * The label of held sample {@code i} of a published batch.
     *
     * @param batch the batch
     * @param i     the held sample's index
     * @return its label
     */
    int get(Batch batch, int i) {
        return labels[batch.ordinal() * batchSize + batch.slotIndex(i)];
    }
}
