/**
 * The links between stages: Disruptor sequencers over preallocated slot arrays
 * ({@link org.spdl4j.engine.ring.ItemSlots}: item references and epochs, sixteen slots to a cache line with
 * compressed references) and the per-thread pieces that use them.
 *
 * <ul>
 *   <li>{@link org.spdl4j.engine.ring.ItemLink}: one ring, single- or multi-producer, with one gating sequence per
 *       downstream worker and a shared, padded claim sequence ({@link org.spdl4j.engine.ring.PaddedClaimSequence}).</li>
 *   <li>{@link org.spdl4j.engine.ring.WorkSharingReader}: a worker's claim-wait-take-release cycle, by runs of
 *       published sequences (one CAS and one release store per run). Disruptor 4 has no {@code WorkerPool}; this is
 *       ours. A claimer raises its gating sequence to the last claimed sequence before its CAS, so neither can the
 *       producer overwrite a claimed slot nor can an idle worker stall the producer.</li>
 *   <li>{@link org.spdl4j.engine.ring.BoundedPublisher}: {@code tryNext()} (a ring's only producer: its own claim
 *       counter against a cached bound of the consumers) in a loop with an idle strategy, giving up when the pipeline
 *       stops (Disruptor's {@code next()} would spin forever on a full ring).</li>
 *   <li>{@link org.spdl4j.engine.ring.BatchingPublisher}: a thread's staged results, claimed and published as ranges,
 *       for rings of several producers.</li>
 *   <li>{@link org.spdl4j.engine.ring.SingleConsumerPoller}: non-blocking reads for a link's only consumer.</li>
 *   <li>{@link org.spdl4j.engine.ring.SlotCursor}: what both readers share, the slot they are at (end marker, epoch,
 *       item).</li>
 *   <li>{@link org.spdl4j.engine.ring.ReorderWindow}: input order for concurrent workers without a lock.</li>
 *   <li>{@link org.spdl4j.engine.ring.BackoffWaitStrategy}: spin, yield, park; alertable and stateless.</li>
 * </ul>
 *
 * <p>Memory ordering in one line: producers write a slot then publish its sequence (release); consumers see the
 * sequence (acquire) then read the slot; consumers clear the slot then store their gating sequence (release);
 * producers read the minimum gating sequence (acquire) before reusing a slot.
 */
package org.spdl4j.engine.ring;
