package org.spdl4j.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import java.util.concurrent.atomic.AtomicBoolean;
import org.spdl4j.offheap.Lease;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The arrays' count on a batch's leases: attached to the batch's own {@link NDManager}, it is closed with it, and
 * then closes every array made over the leases (also one that was detached or attached elsewhere: its next use fails
 * in DJL, "Native resource has been release already", instead of reading memory a later batch owns) before it
 * releases the leases.
 *
 * <p><b>Threading:</b> closed once, from any thread; a second close does nothing. <b>Checked mode:</b> an array
 * still open and no longer under the batch's manager when the hold closes is logged at ERROR with the stack of the
 * adapt call that made it.
 */
final class BatchMemoryHold implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(BatchMemoryHold.class);

    private final NDManager owner;
    private final Lease[] leases;
    private final NDArray[] arrays;
    private final Throwable adaptedAt;
    private final AtomicBoolean closed = new AtomicBoolean();

    BatchMemoryHold(NDManager owner, Lease[] leases, NDArray[] arrays, Throwable adaptedAt) {
        this.owner = owner;
        this.leases = leases;
        this.arrays = arrays;
        this.adaptedAt = adaptedAt;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            for (NDArray a : arrays) {
                if (a == null) {
                    continue;
                }
                if (adaptedAt != null && !a.isReleased() && !under(a.getManager(), owner)) {
                    LOG.error("an array over a loader batch ({}) left the batch's NDManager and was still open when "
                        + "the batch was released; it is closed now, and any later use of it fails", a.getShape(),
                        adaptedAt);
                }
                a.close(); // idempotent in DJL; before the release below: no array outlives the memory
            }
        } finally {
            for (Lease l : leases) {
                l.release();
            }
        }
    }

    boolean isClosed() {
        return closed.get();
    }

    private static boolean under(NDManager m, NDManager ancestor) {
        for (NDManager cur = m; cur != null; cur = cur.getParentManager()) {
            if (cur == ancestor) {
                return true;
            }
            if (cur.getParentManager() == cur) {
                return false;
            }
        }
        return false;
    }
}
