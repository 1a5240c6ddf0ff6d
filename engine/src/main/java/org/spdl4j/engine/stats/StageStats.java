package org.spdl4j.engine.stats;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;

/**
 * The statistics of one stage: one {@link WorkerStats} per worker (each written by its own thread only) and the
 * occupancy of the stage's input ring.
 *
 * <p><b>Threading:</b> the engine creates it before the workers start; workers write only their own
 * {@link #worker(int)}, and on the failure path the stage's {@link #recordFailure first failure} (a CAS); readers
 * (reporters, snapshots) may call the read methods from any thread. Taking interval
 * histograms is serialised by a reader-side lock that writers never touch.
 *
 * <p><b>Ownership:</b> one {@link PipelineStats} at a time reads it (a second one is refused until the first is
 * {@link PipelineStats#detach() detached}); that object is the only caller of
 * {@link #addIntervalTaskHistogram(Histogram)}, so every interval reaches every listener exactly once.
 * Names follow {@code <pipeline>:<stage>:<metric>} (see the package documentation).
 *
 * <p><b>Memory:</b> each worker holds three task-time histograms (two in its recorder, one recycled by the reader),
 * about 37 KiB each at the default precision ({@link StatsConfiguration#SIGNIFICANT_DIGITS}).
 */
public final class StageStats {
    /** Task times above this (one hour) are clamped in the histogram. */
    public static final long HIGHEST_TRACKABLE_NANOS = StatsConfiguration.HIGHEST_TRACKABLE_NANOS;

    private final String pipeline;
    private final String stage;
    private final WorkerStats[] workers;
    private final LongSupplier inputOccupancy;
    private final int inputCapacity;
    private final String tag;
    private final int taskSlots;
    /** The stage's first failed task's cause; set once, on the failure path. */
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    /** The one {@link PipelineStats} reading this stage, or null; guarded by this object's (reader-side) monitor. */
    private PipelineStats reader;

    /**
     * Creates the statistics of a stage whose tasks run on its workers (one task per worker at a time).
     *
     * @param pipeline       the pipeline's name
     * @param stage          the stage's name
     * @param workers        how many workers the stage has, at least 1
     * @param inputOccupancy reads how many items wait in the stage's input ring (any thread)
     * @param inputCapacity  the capacity of that ring (0 when the stage has no input ring, as a source)
     */
    public StageStats(String pipeline, String stage, int workers, LongSupplier inputOccupancy, int inputCapacity) {
        this(pipeline, stage, workers, workers, inputOccupancy, inputCapacity);
    }

    /**
     * Creates the statistics of a stage.
     *
     * @param pipeline       the pipeline's name
     * @param stage          the stage's name
     * @param workers        how many writer threads the stage has (an async stage: its one dispatcher), at least 1
     * @param taskSlots      how many tasks can run at once (an async or virtual-thread stage: its concurrency); busy,
     *                       starved and back-pressured shares are per task slot
     * @param inputOccupancy reads how many items wait in the stage's input ring (any thread)
     * @param inputCapacity  the capacity of that ring (0 when the stage has no input ring, as a source)
     */
    public StageStats(String pipeline, String stage, int workers, int taskSlots, LongSupplier inputOccupancy,
                      int inputCapacity) {
        if (workers < 1 || taskSlots < workers) {
            throw new IllegalArgumentException("stage '" + stage + "' needs at least one worker and as many task slots, got "
                + workers + " and " + taskSlots);
        }
        this.taskSlots = taskSlots;
        this.pipeline = pipeline;
        this.stage = stage;
        this.workers = new WorkerStats[workers];
        for (int i = 0; i < workers; i++) {
            this.workers[i] = new WorkerStats(HIGHEST_TRACKABLE_NANOS, StatsConfiguration.SIGNIFICANT_DIGITS);
        }
        this.inputOccupancy = inputOccupancy;
        this.inputCapacity = inputCapacity;
        // (?U): every Unicode whitespace, including NEL and the line and paragraph separators, which HdrHistogram's
        // log reader (a Scanner) takes for line ends: a tag holding one would end its line and the reading.
        this.tag = (pipeline + ":" + stage).replaceAll("(?U)[\\s,]", "_");
    }

    /**
     * The stats of worker {@code index}; to be written only by that worker's thread.
     *
     * @param index the worker's index, 0 to {@code workerCount() - 1}
     * @return that worker's stats
     */
    public WorkerStats worker(int index) {
        return workers[index];
    }

    /** {@return the number of workers} */
    public int workerCount() {
        return workers.length;
    }

    /** {@return how many tasks can run at once: the workers, or an async stage's concurrency} */
    public int taskSlots() {
        return taskSlots;
    }

    /** {@return the pipeline's name} */
    public String pipeline() {
        return pipeline;
    }

    /** {@return the stage's name} */
    public String stage() {
        return stage;
    }

    /** {@return {@code <pipeline>:<stage>}, the prefix of this stage's metric names and its {@code .hlog} tag} */
    public String name() {
        return pipeline + ":" + stage;
    }

    /**
     * {@return {@link #name()} with whitespace (any Unicode whitespace, line separators included) and commas replaced
     * by {@code _}: the stage's tag in {@code .hlog} files and on interval histograms (HdrHistogram tags cannot hold
     * them)}
     */
    public String tag() {
        return tag;
    }

    /** {@return items waiting in the stage's input ring now} */
    public long inputOccupancy() {
        return inputOccupancy.getAsLong();
    }

    /** {@return the capacity of the stage's input ring, 0 when it has none} */
    public int inputCapacity() {
        return inputCapacity;
    }

    private long sum(int index) {
        long s = 0;
        for (WorkerStats w : workers) {
            s += w.read(index);
        }
        return s;
    }

    /** {@return items taken from the input so far} */
    public long itemsIn() {
        return sum(WorkerStats.IN);
    }

    /** {@return items published to the output so far} */
    public long itemsOut() {
        return sum(WorkerStats.OUT);
    }

    /** {@return tasks recorded so far (the total count of the task-time histograms, intervals included)} */
    public long tasks() {
        return sum(WorkerStats.TASKS);
    }

    /** {@return failed tasks so far} */
    public long failures() {
        return sum(WorkerStats.FAILED);
    }

    /**
     * Keeps the cause of the stage's first failed task; later ones are ignored (the count is in {@link #failures()}).
     * Called on the failure path only, by any worker.
     *
     * @param cause what the failed task threw
     */
    public void recordFailure(Throwable cause) {
        firstFailure.compareAndSet(null, cause);
    }

    /** {@return the cause of the stage's first failed task, or {@code null} when none has failed} */
    public Throwable firstFailure() {
        return firstFailure.get();
    }

    /** {@return nanoseconds all workers together spent waiting for input, waits in progress counted up to now} */
    public long starvedNanos() {
        return starvedNanos(System.nanoTime());
    }

    /**
     * {@return nanoseconds all workers together spent waiting for input, waits in progress counted up to
     * {@code nowNanos} (never less than a previous reading; see {@link WorkerStats})}
     *
     * @param nowNanos the reader's clock reading, on the {@link System#nanoTime()} clock
     */
    public long starvedNanos(long nowNanos) {
        long s = 0;
        for (WorkerStats w : workers) {
            s += w.starvedNanos(nowNanos);
        }
        return s;
    }

    /** {@return nanoseconds all workers together spent blocked on a full output, waits in progress up to now} */
    public long backPressuredNanos() {
        return backPressuredNanos(System.nanoTime());
    }

    /**
     * {@return nanoseconds all workers together spent blocked on a full output, waits in progress counted up to
     * {@code nowNanos} (never less than a previous reading; see {@link WorkerStats})}
     *
     * @param nowNanos the reader's clock reading, on the {@link System#nanoTime()} clock
     */
    public long backPressuredNanos(long nowNanos) {
        long s = 0;
        for (WorkerStats w : workers) {
            s += w.backPressuredNanos(nowNanos);
        }
        return s;
    }

    /**
     * The longest-running task of a stage right now: its worker, item and how long it has run so far.
     *
     * @param stage       the stage
     * @param worker      the worker's index
     * @param item        the item it runs on
     * @param runningNanos how long it has run, at the reader's clock reading
     */
    public record RunningTask(String stage, int worker, Object item, long runningNanos) {
    }

    /**
     * {@return the task of this stage that has run longest so far, among the timed tasks running now (sync map
     * stages), or {@code null} when none runs}
     *
     * @param nowNanos the reader's clock reading ({@link System#nanoTime()})
     */
    public RunningTask longestRunningTask(long nowNanos) {
        RunningTask longest = null;
        for (int w = 0; w < workers.length; w++) {
            Object item = workers[w].runningItem(); // first: a start read after it is its task's or a later one's
            if (item != null) {
                long ran = Math.max(0, nowNanos - workers[w].runningSince());
                if (longest == null || ran > longest.runningNanos()) {
                    longest = new RunningTask(stage, w, item, ran);
                }
            }
        }
        return longest;
    }

    /** {@return nanoseconds all workers together spent running tasks} */
    public long busyNanos() {
        return sum(WorkerStats.BUSY_NS);
    }

    /**
     * Adds every worker's task-time histogram since the last call into {@code into}: each worker's recorder swaps
     * its active histogram (wait-free for the worker) and the previous interval is recycled, so this allocates
     * nothing after the first call. Nothing recorded is lost or counted twice across calls.
     *
     * <p>Readers are serialised by a lock on this object (never taken by workers). Normally only
     * {@link PipelineStats} calls it; a second caller would take intervals away from it.
     *
     * @param into the histogram to add to; it must track values up to {@link #HIGHEST_TRACKABLE_NANOS}
     *             (see {@link #newTaskHistogram()})
     */
    public synchronized void addIntervalTaskHistogram(Histogram into) {
        for (WorkerStats w : workers) {
            into.add(w.takeIntervalHistogram());
        }
    }

    /**
     * Makes {@code stats} this stage's one reader.
     *
     * @throws IllegalStateException when another {@link PipelineStats} reads it
     */
    synchronized void attach(PipelineStats stats) {
        if (reader != null && reader != stats) {
            throw new IllegalStateException("stage '" + name() + "' is already read by another PipelineStats: two"
                    + " would take each other's interval histograms (task counts, percentiles and .hlog intervals"
                    + " would go missing from both). Reuse the first one, or detach() it before creating another");
        }
        reader = stats;
    }

    /** Gives up {@code stats}' reading of this stage, if it is the reader. */
    synchronized void detach(PipelineStats stats) {
        if (reader == stats) {
            reader = null;
        }
    }

    /**
     * {@return the stage's counters in one line, for logs and debuggers: "decode x2: in 2000, out 63, failed 0, busy
     * 1.84 s, starved 0.04 s, back-pressured 0.00 s"} Percentiles need a {@link PipelineStats} reading the stage's
     * histograms ({@link StatsTable} renders them).
     */
    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "%s x%d: in %d, out %d, failed %d, busy %.2f s, starved %.2f s,"
                + " back-pressured %.2f s", name(), workerCount(), itemsIn(), itemsOut(), failures(), busyNanos() / 1e9,
                starvedNanos() / 1e9, backPressuredNanos() / 1e9);
    }

    /** {@return an empty histogram with the range and precision of task times, for intervals and accumulations} */
    public static Histogram newTaskHistogram() {
        return new Histogram(1, HIGHEST_TRACKABLE_NANOS, StatsConfiguration.SIGNIFICANT_DIGITS);
    }
}
