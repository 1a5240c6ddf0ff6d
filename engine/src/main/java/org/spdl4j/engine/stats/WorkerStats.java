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
 * <p><b>Waits in progress:</b> starved and back-pressured time are also visible while a wait lasts, not only once
 * it ended: the wait's site calls {@link #waitStarted} when it begins to wait and {@link #waitEnded} when it stops
 * (per wait, never per item), and {@link #starvedNanos(long)} and {@link #backPressuredNanos(long)} add the time of a
 * wait in progress up to the reader's clock reading. So a reader sees a long wait (a paused consumer) grow in every
 * interval it spans, instead of nothing until it ends and then all of it at once.
 *
 * <p>Why a reader never counts a wait twice nor sees a total go backwards:
 * <ul>
 *   <li>The wait's fields (kind, start, slots) and the total it ends into change under a version, a single-writer
 *       seqlock: the worker makes the version odd, changes them, and makes it even again (a release store). A
 *       reader reads the version (acquire), the fields and the total, then the version again, and retries unless it
 *       was even and unchanged. So it sees a wait either in progress with the total before it, or ended with the total
 *       after it: never both (counted twice) nor neither (missed).</li>
 *   <li>The worker reads its end clock before it makes the version odd, so a reader whose clock reading lies in
 *       between sees the wait in progress up to a time a little past its end, and the next reader the shorter true
 *       duration. Each reading is therefore raised to the highest one returned before (a CAS on a reader-only
 *       field), so totals never decrease; the excess is at most that window (nanoseconds, unless the worker is
 *       descheduled in it) and is absorbed by the following waits.</li>
 * </ul>
 * A reader's clock must be {@link System#nanoTime()}'s (the workers' clock); a wait in progress counts from its start
 * to that reading, and not at all when the reading is before the start.
 *
 * <p><b>Layout:</b> the counters are written together by one thread, so they share one cache line; 64 bytes of
 * padding on each side keep a neighbouring worker's counters (another writer) off that line. The wait in progress has
 * a line of its own (written per wait, read by readers).
 * <pre>
 *   long[32]:  [0..7] pad | IN OUT FAILED TASKS STARVED_NS BACK_PRESSURED_NS BUSY_NS - |
 *              WAIT_VERSION WAIT_KIND WAIT_START WAIT_SLOTS - - - - | [24..31] pad
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
    /** Seqlock version of the wait in progress and of the totals it ends into: odd while the worker changes them. */
    private static final int WAIT_VERSION = 16;
    /** The counter the wait in progress ends into ({@link #STARVED_NS} or {@link #BACK_PRESSURED_NS}), 0 when none. */
    private static final int WAIT_KIND = 17;
    private static final int WAIT_START = 18;
    private static final int WAIT_SLOTS = 19;
    private static final int LENGTH = 32;
    /** Reader retries of a seqlock read before they yield instead of spinning (the worker may be descheduled). */
    private static final int SPINS_BEFORE_YIELD = 64;

    private final long[] counters = new long[LENGTH];
    /** Reader-only: the highest starved [0] and back-pressured [1] totals returned so far (see the class notes). */
    private final long[] highestRead = new long[2];
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

    /** The item of the timed task running now (see {@link #taskStarted}), or null. */
    private volatile Object runningItem;
    /** When that task started ({@link System#nanoTime()}), meaningful while {@link #runningItem} is set. */
    private volatile long runningSince;

    /**
     * A timed task starts now on {@code item} (sync map stages; a task the sampled timer leaves untimed is not
     * shown): what {@link StageStats#longestRunningTask} reports while it runs. Two stores per timed task,
     * by the owner only.
     *
     * @param item       the task's item
     * @param startNanos when it started ({@link System#nanoTime()})
     */
    public void taskStarted(Object item, long startNanos) {
        runningSince = startNanos;
        runningItem = item; // volatile store after the start: a reader that sees the item sees its start
    }

    /** The task {@link #taskStarted} announced has returned or thrown: its item is no longer referenced here. */
    public void taskEnded() {
        runningItem = null;
    }

    /** {@return the item of the timed task this worker runs now, or {@code null} (read this before its start)} */
    Object runningItem() {
        return runningItem;
    }

    /** {@return when the task {@link #runningItem()} returned started ({@link System#nanoTime()})} */
    long runningSince() {
        return runningSince;
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
     * The worker begins a wait: until {@link #waitEnded(long)}, readers count it as going on, from {@code startNanos}
     * to their clock reading, for {@code slots} task slots. At most one wait is in progress: a wait still open is
     * ended at {@code startNanos} first. Owner thread only; a few plain and release stores, no allocation.
     *
     * @param kind       what the worker waits for
     * @param startNanos when the wait began, on the {@link System#nanoTime()} clock
     * @param slots      how many task slots the wait leaves idle (1 for a worker; an async dispatcher: its idle
     *                   slots), at least 1
     */
    public void waitStarted(WaitKind kind, long startNanos, int slots) {
        if ((long) LONG.get(counters, WAIT_KIND) != 0) {
            waitEnded(startNanos);
        }
        long v = (long) LONG.get(counters, WAIT_VERSION); // our own field: a plain read
        LONG.setOpaque(counters, WAIT_VERSION, v + 1);
        VarHandle.storeStoreFence(); // the odd version is visible before any field it guards changes
        LONG.setOpaque(counters, WAIT_KIND, kind == WaitKind.STARVED ? STARVED_NS : BACK_PRESSURED_NS);
        LONG.setOpaque(counters, WAIT_START, startNanos);
        LONG.setOpaque(counters, WAIT_SLOTS, slots);
        LONG.setRelease(counters, WAIT_VERSION, v + 2); // release: the fields are visible before the even version
    }

    /**
     * The wait begun by {@link #waitStarted} ended: its time, {@code slots * (endNanos - startNanos)}, moves from in
     * progress to the starved or back-pressured total in one step readers see whole. Nothing happens when no wait is
     * in progress. Owner thread only; no allocation.
     *
     * @param endNanos when the wait ended, on the {@link System#nanoTime()} clock, read before this call
     */
    public void waitEnded(long endNanos) {
        int kind = (int) (long) LONG.get(counters, WAIT_KIND);
        if (kind == 0) {
            return;
        }
        long waited = Math.max(0, endNanos - (long) LONG.get(counters, WAIT_START)) * (long) LONG.get(counters,
                WAIT_SLOTS);
        long v = (long) LONG.get(counters, WAIT_VERSION);
        LONG.setOpaque(counters, WAIT_VERSION, v + 1);
        VarHandle.storeStoreFence(); // the odd version is visible before the total and the kind change
        LONG.setOpaque(counters, kind, (long) LONG.get(counters, kind) + waited);
        LONG.setOpaque(counters, WAIT_KIND, 0L);
        LONG.setRelease(counters, WAIT_VERSION, v + 2); // release: both changes are visible before the even version
    }

    /**
     * {@return nanoseconds this worker waited for input so far, a wait in progress counted up to {@code nowNanos}
     * (any thread; never less than a previous reading)}
     *
     * @param nowNanos the reader's clock reading, on the {@link System#nanoTime()} clock
     */
    public long starvedNanos(long nowNanos) {
        return cumulative(STARVED_NS, 0, nowNanos);
    }

    /**
     * {@return nanoseconds this worker was blocked on a full output so far, a wait in progress counted up to
     * {@code nowNanos} (any thread; never less than a previous reading)}
     *
     * @param nowNanos the reader's clock reading, on the {@link System#nanoTime()} clock
     */
    public long backPressuredNanos(long nowNanos) {
        return cumulative(BACK_PRESSURED_NS, 1, nowNanos);
    }

    /** The seqlock read of a wait total plus its wait in progress, raised to the highest reading so far. */
    private long cumulative(int index, int seen, long nowNanos) {
        long total;
        for (int tries = 0;; tries++) {
            long v = (long) LONG.getAcquire(counters, WAIT_VERSION); // acquire: the reads below come after it
            if ((v & 1) == 0) {
                long recorded = (long) LONG.getOpaque(counters, index);
                long kind = (long) LONG.getOpaque(counters, WAIT_KIND);
                long start = (long) LONG.getOpaque(counters, WAIT_START);
                long slots = (long) LONG.getOpaque(counters, WAIT_SLOTS);
                VarHandle.acquireFence(); // the reads above complete before the version is read again
                if ((long) LONG.getOpaque(counters, WAIT_VERSION) == v) {
                    total = kind == index ? recorded + slots * Math.max(0, nowNanos - start) : recorded;
                    break;
                }
            }
            if (tries < SPINS_BEFORE_YIELD) {
                Thread.onSpinWait(); // the worker is between two stores
            } else {
                Thread.yield(); // it was descheduled there: let it finish
            }
        }
        for (;;) {
            long highest = (long) LONG.getVolatile(highestRead, seen);
            if (total <= highest) {
                return highest;
            }
            if (LONG.compareAndSet(highestRead, seen, highest, total)) {
                return total;
            }
        }
    }

    /**
     * The worker waited {@code nanos} for input (the upstream did not keep up), recorded at once after the fact;
     * a wait that readers should see while it lasts goes through {@link #waitStarted} and {@link #waitEnded}.
     *
     * @param nanos time waited, in nanoseconds
     */
    public void onStarved(long nanos) {
        add(STARVED_NS, nanos);
    }

    /**
     * The worker waited {@code nanos} for room in its output ring (the downstream did not keep up), recorded at once
     * after the fact (see {@link #onStarved(long)}).
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
