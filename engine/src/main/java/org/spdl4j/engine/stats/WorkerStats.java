package org.spdl4j.engine.stats;

import org.HdrHistogram.SingleWriterRecorder;

/**
 * Counters and the task-time histogram of one worker of one stage.
 *
 * <p><b>Threading:</b> single writer. Only the worker thread that owns this object calls the {@code on*} methods;
 * any thread may read the counters (plain {@code volatile} reads, possibly a few increments stale) and take interval
 * histograms through {@link StageStats}. Writes are ordered stores ({@code setRelease}) of values only the owner
 * changes, so no read-modify-write and no lock is needed.
 *
 * <p><b>Allocation:</b> none; the recorder's histograms are preallocated and recycled.
 */
public final class WorkerStats {
    private static final java.lang.invoke.VarHandle LONG;

    static {
        try {
            LONG = java.lang.invoke.MethodHandles.arrayElementVarHandle(long[].class);
        } catch (IllegalArgumentException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // Slot indices in the padded counter array; each counter lives on its own 64-byte line group.
    static final int IN = 8;
    static final int OUT = 16;
    static final int FAILED = 24;
    static final int STARVED_NS = 32;
    static final int BACK_PRESSURED_NS = 40;
    static final int BUSY_NS = 48;
    private static final int LENGTH = 64;

    private final long[] counters = new long[LENGTH];
    private final SingleWriterRecorder taskNanos;
    private final long highestTrackableNanos;

    WorkerStats(long highestTrackableNanos) {
        this.highestTrackableNanos = highestTrackableNanos;
        this.taskNanos = new SingleWriterRecorder(1, highestTrackableNanos, 3);
    }

    private void add(int index, long delta) {
        // Single writer: a plain read of our own value and a release store publish it without a CAS.
        long v = (long) LONG.get(counters, index);
        LONG.setRelease(counters, index, v + delta);
    }

    long read(int index) {
        return (long) LONG.getAcquire(counters, index);
    }

    SingleWriterRecorder recorder() {
        return taskNanos;
    }

    /** An item was taken from the input ring. */
    public void onItemIn() {
        add(IN, 1);
    }

    /** An item (or aggregate) was published to the output ring. */
    public void onItemOut() {
        add(OUT, 1);
    }

    /** A task threw (or timed out); the item was dropped. */
    public void onFailure() {
        add(FAILED, 1);
    }

    /**
     * A task ran for {@code nanos}: recorded in the stage's task-time histogram and in busy time.
     *
     * @param nanos the task's duration in nanoseconds; values past the histogram's range are clamped
     */
    public void onTask(long nanos) {
        taskNanos.recordValue(Math.min(Math.max(nanos, 1), highestTrackableNanos));
        add(BUSY_NS, nanos);
    }

    /**
     * The worker waited {@code nanos} for input (the upstream did not keep up).
     *
     * @param nanos time waited, in nanoseconds
     */
    public void onStarved(long nanos) {
        add(STARVED_NS, nanos);
    }

    /**
     * The worker waited {@code nanos} for room in its output ring (the downstream did not keep up).
     *
     * @param nanos time blocked, in nanoseconds
     */
    public void onBackPressured(long nanos) {
        add(BACK_PRESSURED_NS, nanos);
    }
}
