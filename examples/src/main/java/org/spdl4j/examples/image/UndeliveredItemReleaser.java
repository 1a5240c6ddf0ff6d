package org.spdl4j.examples.image;

import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import org.spdl4j.cuda.DeviceBatch;
import org.spdl4j.offheap.batch.Batch;

/**
 * The loader's discard hook: gives back what an item the pipeline will never deliver holds, so closing the loader
 * early (a training loop that breaks out mid-epoch) returns every pooled lease. Per kind of item:
 * a finished {@link Batch} (in the consumer's buffer or the host-to-device stage's input ring) is closed; a
 * {@link DeviceBatch} (a copy that completed after close, or one in the consumer's buffer) is closed, which waits for
 * its copy and returns its device memory and event; an {@link ImageItem} releases its encoded bytes,
 * fails its batch slot (closing the batch if that was its last pending slot) and goes back to the item pool (an item
 * not yet read holds only itself).
 *
 * <p><b>Threading:</b> any thread (the engine calls it on the closing thread, and on a read task's own thread when
 * the task finishes after close). Only on the close path: allocates nothing per delivered image.
 */
final class UndeliveredItemReleaser implements Consumer<Object> {
    /** Recorded as the cause of each slot failed by close (preallocated: close may discard many items). */
    private static final CancellationException CLOSED =
            new CancellationException("the image loader closed before this sample was decoded");

    private final ImageItemPool items;

    UndeliveredItemReleaser(ImageItemPool items) {
        this.items = items;
    }

    @Override
    public void accept(Object undelivered) {
        if (undelivered instanceof Batch batch) {
            batch.close();
        } else if (undelivered instanceof DeviceBatch deviceBatch) {
            deviceBatch.close();
        } else if (undelivered instanceof ImageItem item) {
            release(item);
        }
    }

    private void release(ImageItem item) {
        if (item.flushed != null) {
            item.flushed.close();
        }
        if (item.bytes != null) {
            item.bytes.release();
        }
        if (item.slot != null) {
            Batch done = item.slot.fail(CLOSED);
            if (done != null) {
                done.close();
            }
        }
        items.give(item);
    }
}
