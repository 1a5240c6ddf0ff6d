package org.spdl4j.engine.stats;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * The figures of a whole pipeline at one instant, immutable: every stage in pipeline order, wall time and throughput.
 * Made by {@link PipelineStats#snapshot()}.
 *
 * @param pipeline           the pipeline's name
 * @param takenAtEpochMillis when the snapshot was taken (milliseconds since the epoch)
 * @param wallNanos          nanoseconds since the pipeline started
 * @param intervalNanos      nanoseconds since the previous snapshot (or the start): the window of the rates
 * @param throughput         items out of the last stage per second since the start
 * @param stages             the stages in pipeline order (source first)
 * @param consumerBound      whether the pipeline's output is blocked at least
 *                           {@link StatsConfiguration#BOTTLENECK_STARVED_PERCENT} of the time (the last stage, or the
 *                           one feeding a passive last buffer such as the engine's {@code sink}, is back-pressured):
 *                           the consumer (the training loop) is the bottleneck and the pipeline keeps up
 */
public record PipelineSnapshot(
        String pipeline,
        long takenAtEpochMillis,
        long wallNanos,
        long intervalNanos,
        double throughput,
        List<StageSnapshot> stages,
        boolean consumerBound) {

    /**
     * Checks and copies the components.
     *
     * @param pipeline           the pipeline's name
     * @param takenAtEpochMillis when the snapshot was taken
     * @param wallNanos          nanoseconds since the start
     * @param intervalNanos      nanoseconds since the previous snapshot
     * @param throughput         items out of the last stage per second since the start
     * @param stages             the stages in pipeline order (copied)
     * @param consumerBound      whether the consumer is the bottleneck
     */
    public PipelineSnapshot {
        stages = List.copyOf(stages);
    }

    /**
     * The stage the bottleneck heuristic names: the busiest stage (at least
     * {@link StatsConfiguration#BOTTLENECK_BUSY_PERCENT} busy) whose next stage is starved (at least
     * {@link StatsConfiguration#BOTTLENECK_STARVED_PERCENT}), or that is the last stage. See the package documentation.
     *
     * @return that stage, or empty when no stage is clearly limiting (idle, balanced, or {@link #consumerBound()})
     */
    public Optional<StageSnapshot> bottleneck() {
        for (StageSnapshot s : stages) {
            if (s.bottleneck()) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /**
     * Finds a stage by name.
     *
     * @param name the stage's name
     * @return its snapshot
     * @throws NoSuchElementException when the pipeline has no stage of that name (the message lists those it has)
     */
    public StageSnapshot stage(String name) {
        for (StageSnapshot s : stages) {
            if (s.stage().equals(name)) {
                return s;
            }
        }
        throw new NoSuchElementException("pipeline '" + pipeline + "' has no stage '" + name + "'; stages: "
                + stages.stream().map(StageSnapshot::stage).toList());
    }

    /**
     * Every figure under its stable name, for export (JFR, metrics systems, CSV): pipeline-wide figures are
     * {@code <pipeline>:<metric>}, stage figures {@code <pipeline>:<stage>:<metric>}; the metric names are listed in
     * the package documentation. Allocates a new map on each call.
     *
     * @return name to value, in pipeline order, unmodifiable
     */
    public Map<String, Number> metrics() {
        Map<String, Number> m = new LinkedHashMap<>();
        m.put(pipeline + ":wall_ns", wallNanos);
        m.put(pipeline + ":interval_ns", intervalNanos);
        m.put(pipeline + ":throughput_per_s", throughput);
        for (StageSnapshot s : stages) {
            String p = pipeline + ":" + s.stage() + ":";
            m.put(p + "workers", s.workers());
            m.put(p + "items_in", s.itemsIn());
            m.put(p + "items_out", s.itemsOut());
            m.put(p + "failures", s.failures());
            m.put(p + "tasks", s.tasks());
            m.put(p + "task_p50_ns", s.p50Nanos());
            m.put(p + "task_p90_ns", s.p90Nanos());
            m.put(p + "task_p99_ns", s.p99Nanos());
            m.put(p + "task_max_ns", s.maxNanos());
            m.put(p + "items_out_per_s", s.itemsOutPerSecond());
            m.put(p + "busy_pct", s.busyPercent());
            m.put(p + "starved_pct", s.starvedPercent());
            m.put(p + "back_pressured_pct", s.backPressuredPercent());
            m.put(p + "ring_occupancy", s.ringOccupancy());
            m.put(p + "ring_capacity", s.ringCapacity());
        }
        return java.util.Collections.unmodifiableMap(m);
    }
}
