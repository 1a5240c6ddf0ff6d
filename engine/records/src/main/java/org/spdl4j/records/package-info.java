/**
 * Record rings: pipelines of small fixed-size records in preallocated off-heap blocks (one per ring), with no garbage
 * at all.
 *
 * <p>{@link org.spdl4j.records.RecordRing} owns the block (Agrona, cache-line aligned, layout in
 * {@link org.spdl4j.records.RecordDescriptor}) and a Disruptor sequencer. Stages are chained on the one ring
 * Disruptor-style: each stage's barrier waits on the previous stage's worker sequences, and a worker releases its
 * sequence only after transforming the record in place, so records never move and stay in source order. Workers of a
 * stage share its records with the same CAS claim as item links ({@link org.spdl4j.engine.ring.WorkSharingReader}).
 * Every thread reads and writes through its own {@link org.agrona.concurrent.UnsafeBuffer} flyweight. Slots are a
 * cache line each by default, or packed to a smaller alignment for tiny records
 * ({@link org.spdl4j.records.RecordPipelineBuilder#slotAlignment(int)}); the source publishes each record, or
 * ranges of records from fast calls
 * ({@link org.spdl4j.records.RecordPipelineBuilder#sourcePublishBatching(org.spdl4j.engine.PublishBatching)}).
 * Task times are sampled for short tasks, as on item links.
 *
 * <p>A transfer stage ({@link org.spdl4j.records.RecordMapper}) ends one ring and produces the next: it reads
 * each record and writes its result straight into a slot of a ring of another record size, so a pipeline can change
 * its record format without a copy through the heap.
 *
 * <p>The artifact spdl4j-records; it runs on the engine's sequencing, work sharing, threads, failure handling and
 * stats (spdl4j-engine), so a record pipeline's threads, close, CPU pinning and stats tables are an item pipeline's.
 * Start with {@link org.spdl4j.records.RecordPipelineBuilder}.
 */
package org.spdl4j.records;
