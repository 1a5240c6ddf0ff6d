package org.spdl4j.engine.stats;

/**
 * Times a worker's tasks into its {@link WorkerStats}, reading the clock for only one in {@code period} tasks while
 * tasks are short: for a trivial task the two {@link System#nanoTime()} reads (25-50 ns each on common VMs) would
 * cost more than the task.
 *
 * <p><b>Sampling:</b> a task is timed when the last timed task took at least {@code shortBelowNanos}, or when
 * {@code period - 1} tasks have run untimed since the last timed one ({@code tinyPeriod - 1} while the last timed
 * task took less than {@code tinyBelowNanos}: for tasks of a few tens of ns even one sample in 64 costs them several
 * percent of their time); the first task is always timed. A timed task is
 * recorded with a count of one plus the untimed tasks before it ({@code recordValueWithCount}): it stands for them.
 * {@link #settle()} records the untimed tasks left over with the last timed duration; workers call it before they
 * may wait and when they finish, so at every quiet point (and at the end of a run) the histogram's total count, the
 * task count and the items taken agree exactly. Settling does not restart the period: a worker settles after every
 * input run, which may be far shorter than the period, and the next task is still timed {@code period} tasks after
 * the last timed one. While items flow, the counts trail by fewer than {@code period} tasks per worker
 * ({@code tinyPeriod} while tasks are tiny). Whether a task is timed depends only on earlier tasks, never on its own
 * duration, so the histogram is a systematic sample of the task times with each sample weighted by the tasks it
 * stands for: its percentiles estimate the true ones (exact when every task is timed, as for tasks of
 * {@code shortBelowNanos} or more); busy time is the same estimate summed.
 *
 * <p><b>Threading:</b> single writer, the worker that owns the {@link WorkerStats}. <b>Allocation:</b> none.
 */
public final class SampledTaskTimer {
    private final WorkerStats stats;
    private final int period;
    private final long shortBelowNanos;
    private final int tinyPeriod;
    private final long tinyBelowNanos;
    private int untimed; // untimed tasks not recorded yet (settle records them)
    private int sinceTimed; // tasks since the last timed one: when to time the next
    private long lastNanos = Long.MAX_VALUE; // nothing timed yet: time the first task
    private boolean timing;

    /**
     * Creates a timer with the configured sampling ({@link StatsConfiguration#TIMING_SAMPLE_PERIOD},
     * {@link StatsConfiguration#TIMING_SAMPLE_BELOW_NANOS}).
     *
     * @param stats the worker's stats
     */
    public SampledTaskTimer(WorkerStats stats) {
        this(stats, StatsConfiguration.TIMING_SAMPLE_PERIOD, StatsConfiguration.TIMING_SAMPLE_BELOW_NANOS,
                StatsConfiguration.TIMING_TINY_SAMPLE_PERIOD, StatsConfiguration.TIMING_TINY_BELOW_NANOS);
    }

    /**
     * Creates a timer.
     *
     * @param stats           the worker's stats
     * @param period          time one in this many short tasks (1: every task)
     * @param shortBelowNanos tasks are sampled only while the last timed one took less than this
     */
    public SampledTaskTimer(WorkerStats stats, int period, long shortBelowNanos) {
        this(stats, period, shortBelowNanos, period, 0);
    }

    /**
     * Creates a timer with a second, longer period for tiny tasks.
     *
     * @param stats           the worker's stats
     * @param period          time one in this many short tasks (1: every task)
     * @param shortBelowNanos tasks are sampled only while the last timed one took less than this
     * @param tinyPeriod      time one in this many tiny tasks
     * @param tinyBelowNanos  tasks are tiny while the last timed one took less than this (at most
     *                        {@code shortBelowNanos}; 0: none is)
     */
    public SampledTaskTimer(WorkerStats stats, int period, long shortBelowNanos, int tinyPeriod,
                            long tinyBelowNanos) {
        this.stats = stats;
        this.period = Math.max(1, period);
        this.shortBelowNanos = shortBelowNanos;
        this.tinyPeriod = Math.max(this.period, tinyPeriod);
        this.tinyBelowNanos = Math.min(tinyBelowNanos, shortBelowNanos);
    }

    /** {@return the period that applies now: by the last timed task's duration} */
    private int currentPeriod() {
        return lastNanos < tinyBelowNanos ? tinyPeriod : period;
    }

    /**
     * {@return a timer that times every task (for workers that need each task's start time anyway)}
     *
     * @param stats the worker's stats
     */
    public static SampledTaskTimer everyTask(WorkerStats stats) {
        return new SampledTaskTimer(stats, 1, 0);
    }

    /**
     * A task starts.
     *
     * @return the task's start ({@link System#nanoTime()}) when it is timed, otherwise 0
     */
    public long start() {
        if (lastNanos < shortBelowNanos && sinceTimed + 1 < currentPeriod()) {
            timing = false;
            return 0L;
        }
        timing = true;
        return System.nanoTime();
    }

    /**
     * The task begun by the last {@link #start()} ended: records it (timed) or counts it (untimed).
     *
     * @param start what {@link #start()} returned
     */
    public void stop(long start) {
        if (!timing) {
            untimed++;
            sinceTimed++;
            return;
        }
        long nanos = System.nanoTime() - start;
        stats.onTasks(nanos, untimed + 1L);
        untimed = 0;
        sinceTimed = 0;
        lastNanos = nanos;
    }

    /**
     * {@return how long the last timed task took, {@link Long#MAX_VALUE} before the first} The worker's current
     * estimate of its task time: at most {@code period - 1} tasks old while tasks are short, the last task's own
     * time otherwise. Workers use it to decide whether to batch their results (see
     * {@link org.spdl4j.engine.PublishBatching}).
     */
    public long lastTimedNanos() {
        return lastNanos;
    }

    /**
     * {@return how many tasks may run untimed from now before {@link #start()} would time one} For a worker that
     * walks a run of short tasks in a loop of its own: it calls the task directly while this budget lasts, tells
     * the count with {@link #addUntimed}, and times the next one through {@link #start()} and {@link #stop}. Zero
     * while tasks are not short, or when every task is timed.
     */
    public int untimedBudget() {
        return lastNanos < shortBelowNanos ? Math.max(0, currentPeriod() - 1 - sinceTimed) : 0;
    }

    /**
     * Counts tasks that ran untimed within the budget {@link #untimedBudget()} gave.
     *
     * @param n how many, 0 or more
     */
    public void addUntimed(int n) {
        untimed += n;
        sinceTimed += n;
    }

    /**
     * Records the untimed tasks not recorded yet with the last timed duration, so the counts are exact. The sampling
     * period goes on: the next timed task is still one period after the last.
     */
    public void settle() {
        if (untimed > 0) {
            stats.onTasks(lastNanos, untimed);
            untimed = 0;
        }
    }
}
