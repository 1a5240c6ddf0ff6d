package org.spdl4j.engine.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

/**
 * Counters and the task-time histogram of one worker of one stage.
 *
 * <p><b>Threading:</b> single writer. Only the worker thread that owns this object calls the {@code on*} methods;
 * any thread may read the counters (acquire reads, possibly a few increments stale), and one reader at a time
 * (serialised by {@link StageStats}) takes interval histograms. Writes are release stores of values only the owner
 * changes, so no read-modify-write, CAS or lock is needed on the worker's side.
 *
 * <p><b>Allocation:</b> none on the writer's side: the recorder's two histograms are preallocated and swapped; the
 * reader's side recycles the histogram it got last time ({@link #takeIntervalHistogram()}).
 *
 * <p><b>Layout:</b> the counters are written together by one thread, so they share one cache line; 64 bytes of
 * padding on each side keep a neighbouring worker's counters (another writer) off that line.
 * <pre>
 *   long[24]:  [0..7] pad | IN OUT FAILED TASKS STARVED_NS BACK_PRESSURED_NS BUSY_NS - | [16..23] pad
 * </pre>
 */
public final class WorkerStats {
    private static final VarHandle LONG = MethodHandles.arrayElementVarHandle(long[].class);

    static final int IN = 8;
    static final int OUT = 9;
    static final int FAILED = 10;
    static final int TASKS = 11;
    static final int STARVED_NS = 12;
    static final int BACK_PRESSURED_NS = 13;
    static final int BUSY_NS = 14;
    private static final int LENGTH = 24;

    private final long[] counters = new long[LENGTH];
    private final SingleWriterRecorder taskNanos;
    private final long highestTrackableNanos;
    /** Reader-owned: the interval histogram handed back to the recorder on the next swap (null before the first). */
    private Histogram recycled;

    WorkerStats(long highestTrackableNanos, int significantDigits) {
        this.highestTrackableNanos = highestTrackableNanos;
        this.taskNanos = new SingleWriterRecorder(1, highestTrackableNanos, significantDigits);
    }

    private void add(int index, long delta) {
        // Single writer: a plain read of our own last value, then a release store so a reader's acquire load sees
        // a value no older than the writes this thread made before it (no lost update is possible: nobody else writes).
        long v = (long) LONG.get(counters, index);
        LONG.setRelease(counters, index, v + delta);
    }

    long read(int index) {
        // Acquire pairs with the writer's release store in add().
        return (long) LONG.getAcquire(counters, index);
    }

    /**
     * Swaps the recorder's active histogram and returns everything recorded since the previous swap. The returned
     * histogram belongs to the caller until its next call, when it goes back to the recorder (no allocation after
     * the first call). Only one reader at a time (callers hold the {@link StageStats} reader lock).
     */
    Histogram takeIntervalHistogram() {
        recycled = taskNanos.getIntervalHistogram(recycled);
        return recycled;
    }

    /** An item was taken from the input ring. */
    public void onItemIn() {
        add(IN, 1);
    }

    /**
     * {@code n} items were taken from the input ring (a run, counted when it is done).
     *
     * @param n how many, 0 or more
     */
    public void onItemsIn(int n) {
        if (n > 0) {
            add(IN, n);
        }
    }

    /** An item (or aggregate) was published to the output ring. */
    public void onItemOut() {
        add(OUT, 1);
    }

    /**
     * {@code n} items were published to the output ring at once (a batch).
     *
     * @param n how many, 0 or more
     */
    public void onItemsOut(int n) {
        if (n > 0) {
            add(OUT, n);
        }
    }

    /** A task threw (or timed out); the item was dropped. */
    public void onFailure() {
        add(FAILED, 1);
    }

    /**
     * A task ran for {@code nanos}: recorded in the stage's task-time histogram, in the task count and in busy time.
     *
     * @param nanos the task's duration in nanoseconds; values outside the histogram's range (1 ns to
     *              {@link StageStats#HIGHEST_TRACKABLE_NANOS}) are clamped into it
     */
    public void onTask(long nanos) {
        onTasks(nanos, 1);
    }

    /**
     * {@code count} tasks represented by one measured duration (a sample, see {@link SampledTaskTimer}): recorded
     * with that count in the histogram, added to the task count, and {@code count * nanos} to busy time.
     *
     * @param nanos the measured duration, clamped into the histogram's range as in {@link #onTask(long)}
     * @param count how many tasks the measurement stands for, at least 1
     */
    public void onTasks(long nanos, long count) {
        taskNanos.recordValueWithCount(Math.min(Math.max(nanos, 1), highestTrackableNanos), count);
        add(TASKS, count);
        add(BUSY_NS, Math.max(nanos, 0) * count);
    }

    /**
     * Busy time outside any task: the slots of an async stage that sat idle while its dispatcher ran the synchronous
     * part of the function (they could take no task meanwhile). Added to busy time only, not to the task count or
     * histogram.
     *
     * @param nanos slot time, in nanoseconds
     */
    public void onBusy(long nanos) {
        if (nanos > 0) {
            add(BUSY_NS, nanos);
        }
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

    /** {@return items this worker took from its input so far (any thread)} */
    public long itemsIn() {
        return read(IN);
    }

    /** {@return items this worker published so far (any thread)} */
    public long itemsOut() {
        return read(OUT);
    }

    /**
     * {@return tasks this worker recorded with {@link #onTask(long)} or {@link #onTasks(long, long)} so far (any
     * thread); a sampling worker's count trails by its untimed tasks until it settles them}
     */
    public long tasks() {
        return read(TASKS);
    }
}
