package org.spdl4j.examples.image;

import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.Slot;

/**
 * Labels by batch and slot: one {@code int[batchSize]} per batch object of the assembler (it preallocates
 * {@code batchesInFlight} of them and reuses them), so a consumer holding a batch reads the labels of its samples
 * without any per-batch allocation, and a label stays valid until its batch is closed whatever order batches
 * complete in. (Keying by sequence number modulo a ring would not: with completion order, batch {@code k} may still
 * be filling when batch {@code k + batchesInFlight} is claimed, and the two would share ring entries.)
 *
 * <pre>
 *   batches[j] -- identity --> labels[j][slot index]      j < batchesInFlight, found by a scan of a few references
 * </pre>
 *
 * <p><b>Threading:</b> written (and batch objects registered) by the assign stage only; read by the consumer after
 * the batch was published, which happens-after every write for its samples and its registration (the batch's
 * completion is a volatile read-modify-write and the rings publish with release/acquire), so plain array accesses
 * are enough. A reader may see another batch's registration late or early: it compares identities, so that is
 * harmless.
 */
final class BatchLabels {
    private final Batch[] batches;
    private final int[][] labels;
    private int registered;

    /**
     * Creates the table.
     *
     * @param batchesInFlight the assembler's batch objects
     * @param batchSize       slots per batch
     */
    BatchLabels(int batchesInFlight, int batchSize) {
        this.batches = new Batch[batchesInFlight];
        this.labels = new int[batchesInFlight][batchSize];
    }

    /**
     * Records the label of a claimed slot (assign thread).
     *
     * @param slot  the slot
     * @param label its sample's label
     */
    void put(Slot slot, int label) {
        Batch b = slot.batch();
        int j = find(b);
        if (j < 0) {
            if (registered == batches.length) {
                throw new IllegalStateException("more batch objects than the " + batches.length + " batches in flight");
            }
            j = registered++;
            batches[j] = b;
        }
        labels[j][slot.index()] = label;
    }

    /**
     * The label of held sample {@code i} of a published batch.
     *
     * @param batch the batch
     * @param i     the held sample's index
     * @return its label
     */
    int get(Batch batch, int i) {
        int j = find(batch);
        if (j < 0) {
            throw new IllegalArgumentException("batch at sequence " + batch.firstSequence() + " is not this loader's");
        }
        return labels[j][(int) (batch.sequence(i) - batch.firstSequence())];
    }

    private int find(Batch b) {
        for (int j = 0; j < batches.length; j++) {
            if (batches[j] == b) {
                return j;
            }
        }
        return -1;
    }
}
