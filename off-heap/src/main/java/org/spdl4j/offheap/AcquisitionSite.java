package org.spdl4j.offheap;

import java.io.Serial;

/**
 * Where a tracked lease was acquired: its stack trace is the acquiring thread's stack. Created once per tracked
 * acquire (every acquire when paranoid, a sample when sampled); never thrown, only attached to leak reports.
 */
public final class AcquisitionSite extends Throwable {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long nanoTime;

    /**
     * Records the current thread's stack.
     *
     * @param description which lease, of which pool, acquired by which thread
     */
    AcquisitionSite(String description) {
        super(description, null, false, true);
        this.nanoTime = System.nanoTime();
    }

    /** {@return {@link System#nanoTime()} at acquisition} */
    public long nanoTime() {
        return nanoTime;
    }
}
