package org.spdl4j.examples.slots;

import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.Slot;

/**
 * The discard hook of a pipeline built on {@link SlotStages}: gives back what an object the pipeline drops when it
 * stops early holds, so closing the loader mid-run returns every pooled lease. A finished {@link Batch} (in the
 * consumer's buffer, or the sealed last one) is closed; a {@link Slot} never filled is failed, closing its batch when
 * that was its last pending slot (its item stays in the {@link InFlightTable}, which {@link SlotStages#close()}
 * drains); an item (when the item type is known: fetched items, image items) is released, and so is a source item
 * still in the source's ring (a loader whose source emits the items: there, everything that is neither a batch nor a
 * slot is an item). Anything else (inputs not yet fetched) holds nothing and is ignored.
 *
 * <p><b>Threading:</b> any thread (the engine calls it on the closing thread, and on an async task's thread for a
 * fetch that completes after the stop). Only on the close path: allocates nothing.
 *
 * @param <I> the item type
 */
public final class UndeliveredSlotReleaser<I> implements Consumer<Object> {
    /** Recorded as the cause of each slot failed by close (preallocated: close may discard many slots). */
    private static final CancellationException CLOSED =
        new CancellationException("the loader closed before this sample was written");

    /** The class of the items; null when the source emits the items themselves. */
    private final Class<I> itemType;
    private final Consumer<? super I> release;

    private UndeliveredSlotReleaser(Class<I> itemType, Consumer<? super I> release) {
        this.itemType = itemType;
        this.release = release;
    }

    /**
     * {@return the hook of a loader whose source emits the items: an undelivered object that is neither a batch nor
     * a slot is an item still in the source's ring, and is released}
     *
     * @param release gives back what an item holds
     * @param <I>     the item type
     */
    public static <I> UndeliveredSlotReleaser<I> forSourceItems(Consumer<? super I> release) {
        return new UndeliveredSlotReleaser<>(null, release);
    }

    /**
     * {@return the hook of a loader whose stages before assign deliver items of {@code itemType} (a fetch stage, a
     * read stage): those items are released; other objects (inputs not yet fetched) hold nothing and are ignored}
     *
     * @param itemType the class of the items
     * @param release  gives back what an item holds, whichever stage it got to
     * @param <I>      the item type
     */
    public static <I> UndeliveredSlotReleaser<I> forItemsOf(Class<I> itemType, Consumer<? super I> release) {
        return new UndeliveredSlotReleaser<>(itemType, release);
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
        } else if (itemType == null) {
            release.accept(sourceItem(undelivered));
        } else if (itemType.isInstance(undelivered)) {
            release.accept(itemType.cast(undelivered));
        }
    }

    /** Without a fetch stage only the source emits objects other than slots and batches, and it emits items. */
    @SuppressWarnings("unchecked")
    private static <I> I sourceItem(Object undelivered) {
        return (I) undelivered;
    }
}
