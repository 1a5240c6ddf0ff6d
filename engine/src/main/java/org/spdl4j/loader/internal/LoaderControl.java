package org.spdl4j.loader.internal;

/**
 * Whether the loader is closing: a task that fails because the loader closed under it (an interrupted read) is not a
 * failure of its sample, and is not recorded as settled, so a resumed run reads it again.
 *
 * <p><b>Threading:</b> set once by the closing thread before it stops the pipeline; read by any stage (volatile).
 */
public final class LoaderControl {
    private volatile boolean closing;

    /** A loader that is not closing. */
    public LoaderControl() {
    }

    /** Marks the loader as closing (before its pipeline is stopped). */
    public void closing() {
        closing = true;
    }

    /** {@return whether the loader is closing} */
    public boolean isClosing() {
        return closing;
    }

    /**
     * Records a sample whose read failed as settled (it would fail again), unless the loader is closing: then the
     * close failed it, and a resumed run reads it again. Every read stage's failure path.
     *
     * @param item     the sample
     * @param progress where settled samples are recorded
     */
    public void readFailed(LoaderItem item, Progress progress) {
        if (!closing) {
            progress.settle(item.epoch, item.position);
        }
    }
}
