package org.spdl4j.engine.stats;

/**
 * One stage's figures at one instant, immutable. Counts and task-time percentiles are cumulative (since the pipeline
 * started, from the stage's accumulated HdrHistogram); rates and time shares are over the interval since the
 * previous snapshot of the same {@link PipelineStats} (so a periodic reporter shows the present, not the average),
 * the first one since that object's start (its creation or {@link PipelineStats#markStarted()}); a
 * {@link PipelineStats#runSnapshot()} covers the whole time since that start.
 *
 * <p>Time shares are per worker slot: {@code 100 * nanos / (interval * workers)}. A wait still in progress counts up
 * to the snapshot's clock reading, so an interval inside one long wait reads about 100% starved or back-pressured.
 * Task time is counted when a task ends, and a few waits are weighed when they end (a reorder window's wait for room,
 * an async stage's results held behind a blocked publish), so a share can still exceed 100 a little; renderers clamp
 * it for display.
 *
 * @param stage                the stage's name
 * @param workers              the stage's workers (or async task slots)
 * @param itemsIn              items taken from the input so far
 * @param itemsOut             items published to the output so far
 * @param failures             failed tasks so far
 * @param tasks                tasks timed so far (the accumulated histogram's total count)
 * @param p50Nanos             median task time, ns (0 when no task ran)
 * @param p90Nanos             90th percentile task time, ns
 * @param p99Nanos             99th percentile task time, ns
 * @param maxNanos             longest task time, ns (within the histogram's precision)
 * @param itemsOutPerSecond    items published per second over the interval
 * @param busyPercent          share of worker time spent in tasks over the interval (an async stage: also its
 *                             slots left idle while its dispatcher ran the function's synchronous part)
 * @param starvedPercent       share of worker time spent waiting for input over the interval
 * @param backPressuredPercent share of worker time spent blocked on a full output over the interval
 * @param ringOccupancy        items waiting in the stage's input ring at the snapshot
 * @param ringCapacity         capacity of that ring (0 when the stage has none, as a source)
 * @param bottleneck           whether the heuristic of {@link PipelineSnapshot#bottleneck()} names this stage
 */
public record StageSnapshot(
        String stage,
        int workers,
        long itemsIn,
        long itemsOut,
        long failures,
        long tasks,
        long p50Nanos,
        long p90Nanos,
        long p99Nanos,
        long maxNanos,
        double itemsOutPerSecond,
        double busyPercent,
        double starvedPercent,
        double backPressuredPercent,
        long ringOccupancy,
        int ringCapacity,
        boolean bottleneck) {

    /** {@return {@code ringOccupancy / ringCapacity} in percent, 0 when the stage has no input ring} */
    public double ringOccupancyPercent() {
        return ringCapacity == 0 ? 0 : 100.0 * ringOccupancy / ringCapacity;
    }
}
