package org.spdl4j.examples.slots;

import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.Slot;

/**
 * A {@link SlotBatchLoader}'s discard hook: gives back what an object the pipeline drops when it stops early holds,
 * so closing the loader mid-run returns every pooled lease. A finished {@link Batch} (in the consumer's buffer, or the
 * sealed last one) is closed; a {@link Slot} never filled is failed, closing its batch when that was its last pending
 * slot (its item stays in the {@link InFlightTable}, which the loader drains); a fetched item (when the item type is
 * known) is released. Inputs not yet fetched hold nothing.
 *
 * <p><b>Threading:</b> any thread (the engine calls it on the closing thread, and on an async task's thread for a
 * fetch that completes after the stop). Only on the close path: allocates nothing.
 *
 * @param <I> the item type
 */
final class UndeliveredSlotReleaser<I> implements Consumer<Object> {
    /** Recorded as the cause of each slot failed by close (preallocated: close may discard many slots). */
    private static final CancellationException CLOSED =
        new CancellationException("the loader closed before this sample was written");

    private final Class<I> itemType;
    private final Consumer<? super I> release;

    /**
     * @param itemType the class of fetched items, or null when items come straight from the source (holding nothing
     *                 the engine could drop before they reach the slot table)
     * @param release  gives back what an item holds
     */
    UndeliveredSlotReleaser(Class<I> itemType, Consumer<? super I> release) {
        this.itemType = itemType;
        this.release = release;
    }

    @Override
    public void accept(Object undelivered) {
        if (undelivered instanceof Batch batch) {
            batch.close();
        } else if (undelivered instanceof Slot slot) {
            Batch done = slot.fail(CLOSED);
            if (done != null) {
                done.close();
            }
        } else if (itemType != null && itemType.isInstance(undelivered)) {
            release.accept(itemType.cast(undelivered));
        }
    }
}
