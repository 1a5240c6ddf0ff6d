package org.spdl4j.engine.ring;

import com.lmax.disruptor.Sequence;

/**
 * The shared claim counter of a work-sharing consumer group: the highest input sequence some worker of the stage has
 * claimed. Workers advance it with a CAS; each sequence is claimed by exactly one worker.
 *
 * <p>It extends Disruptor's {@link Sequence}, which pads its value on both sides to its own cache line so the CAS
 * traffic of the workers does not false-share with the ring's cursor or the workers' gating sequences.
 *
 * <p><b>Threading:</b> lock-free; any number of claiming threads.
 */
public final class PaddedClaimSequence extends Sequence {
    /** Creates a claim counter before the first sequence (-1: nothing claimed yet). */
    public PaddedClaimSequence() {
        super(-1L);
    }

    /**
     * Claims the next sequence for one worker. Before each CAS attempt the worker raises its own
     * gating sequence to {@code current}: every sequence up to {@code current} is either already taken by its
     * claimer or protected by that claimer's own gating sequence, so the producer may reuse those slots, while the
     * sequence being claimed ({@code current + 1}) stays protected. Without this an idle worker's stale gating
     * sequence would hold the producer back from publishing the very sequence the worker waits for (deadlock).
     *
     * @param workerSequence the claiming worker's gating sequence (written only by that worker)
     * @return the claimed sequence
     */
    public long claimNext(Sequence workerSequence) {
        long current;
        do {
            current = get();
            // Release store: the producer (acquire load of the gating minimum) may reuse slots up to `current`.
            workerSequence.set(current);
        } while (!compareAndSet(current, current + 1)); // full fence: one claimer per sequence
        return current + 1;
    }
}
