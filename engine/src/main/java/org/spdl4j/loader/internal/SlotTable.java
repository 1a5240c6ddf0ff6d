package org.spdl4j.loader.internal;

import java.util.List;
import java.util.function.Consumer;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.Slot;

/**
 * The samples in flight, one entry per slot of each of the assembler's batch objects: the assign stage puts each
 * item at its slot with what names it (key, label, epoch, position), the decode stage takes the item out, and the
 * stage that completes a batch copies the names of its samples into the batch's record. No per-item object, no lock,
 * no search. The record also names the batch's failed samples: they are settled with it, so a resumed run gives them
 * their slots again and every later sample the batch it had.
 *
 * <pre>
 *   entry = batch.ordinal() * batchSize + slot index      batch.ordinal() &lt; batchesInFlight, fixed per object
 *   items[entry]   the item, from assign until fill takes it
 *   keys, labels, epochs, positions [entry]   what names it, until the batch object is claimed again
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
 */
final class SlotTable {
    private final LoaderItem[] items;
    private final String[] keys;
    private final int[] labels;
    private final long[] epochs;
    private final long[] positions;
    private final int batchSize;
    /** The text fields' names, and per entry its texts ({@code entry * names + field}); empty without text fields. */
    private final List<String> textNames;
    private final String[] texts;

    /**
     * Creates the table.
     *
     * @param batchesInFlight the assembler's batch objects (its {@code batchesInFlight()})
     * @param batchSize       slots per batch
     * @param textNames       the text fields delivered with each sample (empty for none)
     */
    SlotTable(int batchesInFlight, int batchSize, List<String> textNames) {
        this.items = new LoaderItem[Math.multiplyExact(batchesInFlight, batchSize)];
        this.keys = new String[items.length];
        this.labels = new int[items.length];
        this.epochs = new long[items.length];
        this.positions = new long[items.length];
        this.batchSize = batchSize;
        this.textNames = List.copyOf(textNames);
        this.texts = new String[Math.multiplyExact(items.length, this.textNames.size())];
    }

    void put(Slot slot, LoaderItem item) {
        int i = entry(slot.batch(), slot.index());
        items[i] = item;
        keys[i] = item.key;
        labels[i] = item.label;
        epochs[i] = item.epoch;
        positions[i] = item.position;
        int n = textNames.size();
        for (int f = 0; f < n; f++) {
            texts[i * n + f] = item.texts == null ? null : item.texts[f];
        }
    }

    /** Takes the item out (the entry no longer keeps it reachable); what names it stays for the batch's record. */
    LoaderItem take(Slot slot) {
        int i = entry(slot.batch(), slot.index());
        LoaderItem item = items[i];
        items[i] = null;
        return item;
    }

    /**
     * Copies what names each held sample of a completed batch into its record, in held order.
     *
     * @param batch  the completed batch
     * @param record where the names go
     */
    void describe(Batch batch, BatchRecord record) {
        for (int k = 0, n = batch.size(); k < n; k++) {
            int i = entry(batch, batch.slotIndex(k));
            record.keys[k] = keys[i];
            record.labels[k] = labels[i];
            record.epochs[k] = epochs[i];
            record.positions[k] = positions[i];
            if (!textNames.isEmpty()) { // no text fields: nothing to copy per sample
                System.arraycopy(texts, i * textNames.size(), record.texts, k * textNames.size(), textNames.size());
            }
        }
        for (int k = 0, n = batch.failedCount(); k < n; k++) {
            int i = failedEntry(batch, k);
            record.failedEpochs[k] = epochs[i];
            record.failedPositions[k] = positions[i];
        }
    }

    /**
     * Settles every sample of a batch the assembler dropped (every sample failed, or {@code dropLast}): no record
     * will settle them.
     *
     * @param batch    the completed, dropped batch
     * @param progress where they are settled
     */
    void settleDropped(Batch batch, Progress progress) {
        for (int k = 0, n = batch.size(); k < n; k++) {
            int i = entry(batch, batch.slotIndex(k));
            progress.settle(epochs[i], positions[i]);
        }
        for (int k = 0, n = batch.failedCount(); k < n; k++) {
            int i = failedEntry(batch, k);
            progress.settle(epochs[i], positions[i]);
        }
    }

    private int failedEntry(Batch batch, int k) {
        return entry(batch, (int) (batch.failedSequence(k) - batch.firstSequence()));
    }

    /** {@return the text fields delivered with each sample, in the order records hold them} */
    List<String> textNames() {
        return textNames;
    }

    private int entry(Batch batch, int slotIndex) {
        return batch.ordinal() * batchSize + slotIndex;
    }

    /** Items put but never taken (a pipeline closed early); call only once every stage thread has stopped. */
    void drain(Consumer<? super LoaderItem> release) {
        for (int i = 0; i < items.length; i++) {
            if (items[i] != null) {
                LoaderItem item = items[i];
                items[i] = null;
                release.accept(item);
            }
        }
    }
}
