package org.spdl4j.engine;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.spdl4j.engine.affinity.CpuSet;

/**
 * The immutable, validated description of a pipeline: what {@link PipelineBuilder#build()} checked and what the
 * runtime starts. One spec may start several pipelines if its source factory allows (an {@link Iterable} does; an
 * {@link java.util.Iterator} or a {@link java.util.stream.Stream} can be consumed once).
 *
 * @param name             the pipeline's name (thread names {@code spdl4j-<name>-<stage>-<n>}, stats names)
 * @param sourceName       the source stage's name
 * @param source           creates the source for one run
 * @param sourceWaitPolicy how the source waits for room
 * @param sourcePublishBatching whether the source publishes items of short calls in batches or each at once
 * @param sourceCpus       the CPUs the source thread pins itself to, or {@code null} for unpinned
 * @param stages           the stages in order
 * @param sinkBuffer       capacity of the ring the consumer reads, a power of two
 * @param sinkWaitPolicy   how the consumer waits for items
 * @param onDiscard        told of every item the engine drops undelivered when the pipeline stops (see
 *                         {@link PipelineBuilder#onDiscard})
 * @param onFailure        told of every failure counted (see {@link PipelineBuilder#onFailure})
 */
public record PipelineSpec(String name, String sourceName, Supplier<? extends Source<?>> source,
                           WaitPolicy sourceWaitPolicy, PublishBatching sourcePublishBatching, CpuSet sourceCpus,
                           List<StageSpec> stages, int sinkBuffer,
                           WaitPolicy sinkWaitPolicy, Consumer<Object> onDiscard, FailureListener onFailure) {
    /** The name of the consumer's stage in stats and messages. */
    public static final String SINK_NAME = "sink";

    /**
     * Copies the stage list.
     *
     * @param name             pipeline name
     * @param sourceName       source name
     * @param source           source factory
     * @param sourceWaitPolicy source wait policy
     * @param sourcePublishBatching source publish batching
     * @param sourceCpus       source CPUs or {@code null}
     * @param stages           stages
     * @param sinkBuffer       sink ring capacity
     * @param sinkWaitPolicy   consumer wait policy
     * @param onDiscard        the discard hook
     * @param onFailure        the failure listener
     */
    public PipelineSpec {
        stages = List.copyOf(stages);
        Objects.requireNonNull(onDiscard, "onDiscard");
        Objects.requireNonNull(onFailure, "onFailure");
        Objects.requireNonNull(sourcePublishBatching, "sourcePublishBatching");
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("pipeline '").append(name).append("': ").append(sourceName);
        for (StageSpec s : stages) {
            StageOptions o = s.options();
            sb.append(" -> ").append(s.name()).append('[').append(s.getClass().getSimpleName())
                    .append(" x").append(o.concurrency()).append(", ").append(o.order())
                    .append(", ring ").append(o.ringCapacity()).append(", ").append(o.waitPolicy())
                    .append(o.cpus() == null ? "" : ", cpus " + o.cpus()).append(']');
        }
        return sb.append(" -> ").append(SINK_NAME).append("[buffer ").append(sinkBuffer).append(']').toString();
    }
}
