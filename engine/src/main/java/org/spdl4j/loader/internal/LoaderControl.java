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
}
