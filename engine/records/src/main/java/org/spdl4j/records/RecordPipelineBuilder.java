package org.spdl4j.records;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.spdl4j.engine.affinity.CpuSet;
import org.spdl4j.engine.affinity.ThreadAffinity;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.FailureBudget;
import org.spdl4j.engine.WaitPolicy;

/**
 * Describes a record pipeline: small fixed-size records flowing through an off-heap ring with no garbage at all.
 * The source writes each record into its slot, every stage transforms it in place (workers share a stage's records
 * by CAS), and the consumer reads it, all through flyweights; records stay in source order. A transfer stage writes
 * each result into a new ring of another record size (in completion order when it has several workers).
 *
 * <pre>{@code
 * try (RecordPipeline p = RecordPipelineBuilder.named("ticks").recordLength(32).ringCapacity(4096)
 *         .source(rec -> { rec.putLong(0, nextTick()); return true; })
 *         .stage("scale", rec -> { rec.putDouble(8, rec.getLong(0) * 0.01); return true; }, 2)
 *         .consumer(rec -> sum += rec.getDouble(8))
 *         .build().start()) {
 *     p.awaitCompletion(Duration.ofMinutes(1));
 * }
 * }</pre>
 *
 * <p>One wait policy serves the whole ring (a Disruptor sequencer has one wait strategy for all its barriers).
 * <b>Threading:</b> a builder is mutable; use it from one thread, then {@link #build()}.
 */
public final class RecordPipelineBuilder {
    private final String name;
    private int recordLength = 64;
    private int ringCapacity = EngineConfiguration.DEFAULT_RING_CAPACITY;
    private int slotAlignment = RecordDescriptor.ALIGNMENT;
    private WaitPolicy waitPolicy = EngineConfiguration.DEFAULT_WAIT_POLICY;
    private RecordSource source;
    private PublishBatching sourceBatching = EngineConfiguration.DEFAULT_SOURCE_PUBLISH_BATCHING;
    private RecordConsumer consumer;
    private final List<Stage> stages = new ArrayList<>();
    private final Map<String, CpuSet> cpus = new LinkedHashMap<>();

    /**
     * One stage of a record pipeline: in place ({@code transform} set) or a transfer into a new ring ({@code mapper}
     * set, with the new ring's record length and capacity).
     *
     * @param name            the stage's name
     * @param transform       the in-place transform, or {@code null} for a transfer
     * @param mapper          the transfer's mapper, or {@code null} for an in-place stage
     * @param concurrency     worker threads
     * @param budget          failures tolerated
     * @param outRecordLength transfers: bytes per record of the new ring (0 otherwise)
     * @param outCapacity     transfers: slots of the new ring (0 otherwise)
     */
    public record Stage(String name, RecordTransform transform, RecordMapper mapper, int concurrency,
                        FailureBudget budget, int outRecordLength, int outCapacity) {
        /** {@return whether this stage writes into a new ring} */
        public boolean isTransfer() {
            return mapper != null;
        }
    }

    private RecordPipelineBuilder(String name) {
        this.name = name;
    }

    /**
     * Starts describing a record pipeline.
     *
     * @param pipelineName the name, used in thread names and stats
     * @return the builder
     */
    public static RecordPipelineBuilder named(String pipelineName) {
        return new RecordPipelineBuilder(pipelineName);
    }

    /**
     * Sets the bytes of one record (64 unless set).
     *
     * @param bytes 1 to {@link RecordDescriptor#MAX_RECORD_LENGTH}
     * @return this builder
     */
    public RecordPipelineBuilder recordLength(int bytes) {
        this.recordLength = bytes;
        return this;
    }

    /**
     * Sets the alignment of every ring's slots (default {@link RecordDescriptor#ALIGNMENT}, a cache line: no two
     * records share a line). 8 or 16 packs tiny records several to a line, fewer lines crossing cores per record, for
     * the throughput of pipelines whose stages have one worker each; keep the default where latency matters or a
     * stage has several workers (they would write each other's lines). See {@link RecordDescriptor}.
     *
     * @param bytes a power of two, {@link RecordDescriptor#MIN_SLOT_ALIGNMENT} to
     *              {@link RecordDescriptor#MAX_SLOT_ALIGNMENT}
     * @return this builder
     */
    public RecordPipelineBuilder slotAlignment(int bytes) {
        this.slotAlignment = bytes;
        return this;
    }

    /**
     * Sets the slots of the ring.
     *
     * @param slots a power of two, at least the largest stage concurrency
     * @return this builder
     */
    public RecordPipelineBuilder ringCapacity(int slots) {
        this.ringCapacity = slots;
        return this;
    }

    /**
     * Sets how every thread of the pipeline waits.
     *
     * @param policy the policy
     * @return this builder
     */
    public RecordPipelineBuilder waitPolicy(WaitPolicy policy) {
        this.waitPolicy = Objects.requireNonNull(policy, "policy");
        return this;
    }

    /**
     * Sets how the source publishes its records. The default,
     * {@link EngineConfiguration#DEFAULT_SOURCE_PUBLISH_BATCHING}, is {@link PublishBatching#PER_ITEM}: each record is
     * visible to the first stage as soon as it is written. {@link PublishBatching#SHORT_TASKS} holds the records of
     * fast calls and publishes them as one range (up to a quarter of the ring, at most
     * {@link EngineConfiguration#MAX_RUN}): one cursor store instead of one per record, for generators and replays of
     * tiny records. Not for a source whose {@code next} may block (on external input, or on something downstream
     * does): the records held so far would wait with it.
     *
     * @param batching the batching
     * @return this builder
     */
    public RecordPipelineBuilder sourcePublishBatching(PublishBatching batching) {
        this.sourceBatching = Objects.requireNonNull(batching, "batching");
        return this;
    }

    /**
     * Sets the source.
     *
     * @param recordSource writes records into slots on the source thread
     * @return this builder
     */
    public RecordPipelineBuilder source(RecordSource recordSource) {
        this.source = Objects.requireNonNull(recordSource, "recordSource");
        return this;
    }

    /**
     * Adds an in-place stage with unlimited failures.
     *
     * @param stageName   the stage's name
     * @param transform   transforms a record in place; {@code false} drops it
     * @param concurrency worker threads sharing the stage's records
     * @return this builder
     */
    public RecordPipelineBuilder stage(String stageName, RecordTransform transform, int concurrency) {
        return stage(stageName, transform, concurrency, FailureBudget.UNLIMITED);
    }

    /**
     * Adds an in-place stage.
     *
     * @param stageName   the stage's name
     * @param transform   transforms a record in place; {@code false} drops it; throwing fails the record
     * @param concurrency worker threads sharing the stage's records
     * @param budget      failures tolerated before the pipeline fails
     * @return this builder
     */
    public RecordPipelineBuilder stage(String stageName, RecordTransform transform, int concurrency,
                                       FailureBudget budget) {
        stages.add(new Stage(stageName, Objects.requireNonNull(transform, "transform"), null, concurrency,
                Objects.requireNonNull(budget, "budget"), 0, 0));
        return this;
    }

    /**
     * Adds a transfer stage: its workers read each record of the current ring and write the result straight into a
     * slot of a new ring of {@code outRecordLength}-byte records; later stages and the consumer use the new ring.
     * With concurrency above 1 the new ring is in completion order.
     *
     * @param stageName       the stage's name
     * @param outRecordLength bytes per record of the new ring
     * @param outCapacity     slots of the new ring, a power of two
     * @param mapper          reads a record and writes its result; {@code false} drops it; throwing fails it
     * @param concurrency     worker threads
     * @param budget          failures tolerated before the pipeline fails
     * @return this builder
     */
    public RecordPipelineBuilder transfer(String stageName, int outRecordLength, int outCapacity, RecordMapper mapper,
                                          int concurrency, FailureBudget budget) {
        stages.add(new Stage(stageName, null, Objects.requireNonNull(mapper, "mapper"), concurrency,
                Objects.requireNonNull(budget, "budget"), outRecordLength, outCapacity));
        return this;
    }

    /**
     * Pins the threads of the source, the consumer or a stage to these CPUs: each pins itself when it starts. For
     * busy-spinning threads on cores reserved for them; pinning more spinning threads than cores is usually slower
     * than leaving the scheduler free. {@link #build()} rejects unknown names, empty sets and CPUs outside this
     * process's affinity mask; a set the kernel refuses when a thread starts leaves the threads unpinned, with one
     * warning per stage.
     *
     * @param threadsOf {@value RecordPipeline#SOURCE}, {@value RecordPipeline#CONSUMER} or a stage's name
     * @param set       the CPUs, or {@code null} to leave them unpinned
     * @return this builder
     */
    public RecordPipelineBuilder cpus(String threadsOf, CpuSet set) {
        if (set == null) {
            cpus.remove(threadsOf);
        } else {
            cpus.put(Objects.requireNonNull(threadsOf, "threadsOf"), set);
        }
        return this;
    }

    /**
     * Sets the consumer, which runs on its own thread and sees every kept record in source order.
     *
     * @param recordConsumer reads records
     * @return this builder
     */
    public RecordPipelineBuilder consumer(RecordConsumer recordConsumer) {
        this.consumer = Objects.requireNonNull(recordConsumer, "recordConsumer");
        return this;
    }

    /**
     * Validates the description and allocates the ring's block; starts no thread.
     *
     * @return the pipeline
     * @throws IllegalArgumentException listing every problem found
     */
    public RecordPipeline build() {
        List<String> problems = new ArrayList<>();
        if (name == null || !name.matches("[A-Za-z0-9_.\\-]{1,64}")) {
            problems.add("pipeline name '" + name + "' must be 1-64 letters, digits, '.', '_' or '-'");
        }
        if (source == null) {
            problems.add("no source: call source(...)");
        }
        if (consumer == null) {
            problems.add("no consumer: call consumer(...)");
        }
        if (recordLength < 1 || recordLength > RecordDescriptor.MAX_RECORD_LENGTH) {
            problems.add("record length " + recordLength + " must be in [1, " + RecordDescriptor.MAX_RECORD_LENGTH
                    + "]");
        }
        if (!RecordDescriptor.isValidSlotAlignment(slotAlignment)) {
            problems.add("slot alignment " + slotAlignment + " must be a power of two in ["
                    + RecordDescriptor.MIN_SLOT_ALIGNMENT + ", " + RecordDescriptor.MAX_SLOT_ALIGNMENT + "]");
        }
        if (ringCapacity < 1 || Integer.bitCount(ringCapacity) != 1) {
            problems.add("ring capacity " + ringCapacity + " must be a power of two");
        }
        Set<String> names = new HashSet<>(List.of(RecordPipeline.SOURCE, RecordPipeline.CONSUMER));
        int capacity = ringCapacity; // of the ring the stage reads
        for (Stage s : stages) {
            if (s.name() == null || !s.name().matches("[A-Za-z0-9_.\\-]{1,64}") || !names.add(s.name())) {
                problems.add("stage '" + s.name() + "': name must be unique and 1-64 letters, digits, '.', '_' or "
                        + "'-' ('source' and 'consumer' are taken)");
            }
            if (s.concurrency() < 1 || s.concurrency() > capacity) {
                problems.add("stage '" + s.name() + "': concurrency " + s.concurrency() + " must be in [1, ring "
                        + "capacity " + capacity + "] (each worker needs its own end marker in the ring)");
            }
            if (s.isTransfer()) {
                if (s.outRecordLength() < 1 || s.outRecordLength() > RecordDescriptor.MAX_RECORD_LENGTH) {
                    problems.add("stage '" + s.name() + "': output record length " + s.outRecordLength()
                            + " must be in [1, " + RecordDescriptor.MAX_RECORD_LENGTH + "]");
                }
                if (s.outCapacity() < 1 || Integer.bitCount(s.outCapacity()) != 1) {
                    problems.add("stage '" + s.name() + "': output ring capacity " + s.outCapacity()
                            + " must be a power of two");
                }
                capacity = s.outCapacity();
            }
        }
        for (Map.Entry<String, CpuSet> e : cpus.entrySet()) {
            String who = e.getKey();
            if (!names.contains(who)) {
                problems.add("CPUs for '" + who + "': no such stage (name the source, the consumer or a stage)");
            }
            ThreadAffinity.problemWith(e.getValue()).ifPresent(p -> problems.add(
                    (RecordPipeline.SOURCE.equals(who) || RecordPipeline.CONSUMER.equals(who) ? "" : "stage ")
                            + "'" + who + "': " + p));
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("invalid record pipeline '" + name + "':\n  - "
                    + String.join("\n  - ", problems));
        }
        return new RecordPipeline(name, recordLength, ringCapacity, slotAlignment, waitPolicy, source,
                sourceBatching, List.copyOf(stages), consumer, Map.copyOf(cpus));
    }
}
