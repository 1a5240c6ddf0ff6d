package org.spdl4j.engine.stats;

import java.util.function.LongSupplier;

/**
 * The statistics of one stage: one {@link WorkerStats} per worker (each written by its own thread only) and the
 * occupancy of the stage's input ring.
 *
 * <p><b>Threading:</b> the engine creates it before the workers start; workers write only their own
 * {@link #worker(int)}; readers (reporters, snapshots) may call the read methods from any thread.
 * Names follow {@code <pipeline>:<stage>:<metric>}.
 */
public final class StageStats {
    /** Task times above this (one hour) are clamped in the histogram. */
    public static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;

    private final String pipeline;
    private final String stage;
    private final WorkerStats[] workers;
    private final LongSupplier inputOccupancy;
    private final int inputCapacity;

    /**
     * Creates the statistics of a stage.
     *
     * @param pipeline       the pipeline's name
     * @param stage          the stage's name
     * @param workers        how many workers (or task slots) the stage has, at least 1
     * @param inputOccupancy reads how many items wait in the stage's input ring (any thread)
     * @param inputCapacity  the capacity of that ring (0 when the stage has no input ring, as a source)
     */
    public StageStats(String pipeline, String stage, int workers, LongSupplier inputOccupancy, int inputCapacity) {
        if (workers < 1) {
            throw new IllegalArgumentException("stage '" + stage + "' needs at least one worker, got " + workers);
        }
        this.pipeline = pipeline;
        this.stage = stage;
        this.workers = new WorkerStats[workers];
        for (int i = 0; i < workers; i++) {
            this.workers[i] = new WorkerStats(HIGHEST_TRACKABLE_NANOS);
        }
        this.inputOccupancy = inputOccupancy;
        this.inputCapacity = inputCapacity;
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

    /** {@return the pipeline's name} */
    public String pipeline() {
        return pipeline;
    }

    /** {@return the stage's name} */
    public String stage() {
        return stage;
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

    /** {@return failed tasks so far} */
    public long failures() {
        return sum(WorkerStats.FAILED);
    }

    /** {@return nanoseconds all workers together spent waiting for input} */
    public long starvedNanos() {
        return sum(WorkerStats.STARVED_NS);
    }

    /** {@return nanoseconds all workers together spent blocked on a full output} */
    public long backPressuredNanos() {
        return sum(WorkerStats.BACK_PRESSURED_NS);
    }

    /** {@return nanoseconds all workers together spent running tasks} */
    public long busyNanos() {
        return sum(WorkerStats.BUSY_NS);
    }

    /**
     * Adds every worker's task-time histogram since the last call into {@code into}.
     * Called by one reader thread at a time (the reporter); the workers are never blocked.
     *
     * @param into the histogram to add to
     */
    public void addIntervalTaskHistogram(org.HdrHistogram.Histogram into) {
        for (WorkerStats w : workers) {
            into.add(w.recorder().getIntervalHistogram());
        }
    }
}
