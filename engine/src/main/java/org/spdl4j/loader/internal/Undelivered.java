package org.spdl4j.loader.internal;

import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import org.spdl4j.offheap.batch.Batch;
import org.spdl4j.offheap.batch.Slot;

/**
 * The loader's discard hook: gives back what an object the pipeline drops when it stops early holds, so closing a
 * loader mid-run returns every pooled lease. An item (read or not) goes back to the pool; a {@link Slot} never filled
 * is failed, closing its batch when that was its last pending slot (its item stays in the {@link SlotTable}, which
 * the loader drains); a finished {@link Batch} or {@link BatchRecord} is closed, and so is a transferred batch.
 *
 * <p>An item discarded while the loader is <em>not</em> closing is the late result of a read that ran past its
 * timeout: the engine has already failed it (and may still be naming it in its failure log), so it is retired, not
 * reused, and settled as failed, as a read that throws is; else the epoch would keep a hole no checkpoint closes.
 *
 * <p><b>Threading:</b> any thread (the closing thread; an async task's thread for a fetch, read or copy that
 * completes after the stop or after its timeout).
 */
final class Undelivered implements Consumer<Object> {
    /** Recorded as the cause of each slot failed by close (preallocated: close may discard many slots). */
    private static final CancellationException CLOSED =
        new CancellationException("the loader closed before this sample was written");

    private final LoaderItemPool items;
    private final LoaderControl control;
    private final Progress progress;

    Undelivered(LoaderItemPool items, LoaderControl control, Progress progress) {
        this.items = items;
        this.control = control;
        this.progress = progress;
    }

    @Override
    public void accept(Object undelivered) {
        if (undelivered instanceof LoaderItem item) {
            if (control.isClosing()) {
                items.release(item);
            } else {
                control.readFailed(item, items, progress); // a timed-out read's late result
            }
        } else if (undelivered instanceof Slot slot) {
            Batch done = slot.fail(CLOSED);
            if (done != null) {
                done.close();
            }
        } else if (undelivered instanceof Batch batch) {
            batch.close();
        } else if (undelivered instanceof BatchRecord record) {
            record.close();
        } else if (undelivered instanceof AutoCloseable transferred) {
            try {
                transferred.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing an undelivered transferred batch failed: " + e, e);
            }
        }
    }
}
