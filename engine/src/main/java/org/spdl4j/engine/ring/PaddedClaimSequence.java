package org.spdl4j.engine.ring;

import com.lmax.disruptor.Sequence;

/**
 * The shared claim counter of a work-sharing consumer group: the highest input sequence some worker of the stage has
 * claimed. Workers claim runs of sequences with a CAS; each sequence is claimed by exactly one worker.
 *
 * <p>Claim protocol ({@link #prepareClaim}, then {@link #tryClaim}; retry from {@code prepareClaim} when the CAS
 * fails): before each CAS attempt the worker raises its own gating sequence to {@code current}. Every sequence up to
 * {@code current} is either already taken by its claimer or protected by that claimer's own gating sequence (which
 * the claimer set below its run before its CAS), so the producer may reuse those slots, while the sequences being
 * claimed ({@code current + 1} onwards) stay protected. Without this an idle worker's stale gating sequence would
 * hold the producer back from publishing the very sequence the worker waits for (deadlock).
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
     * Starts a claim attempt: reads the counter and raises the worker's gating sequence to it.
     *
     * @param workerSequence the claiming worker's gating sequence (written only by that worker)
     * @return the counter's current value; the run to claim starts at the next sequence
     */
    public long prepareClaim(Sequence workerSequence) {
        long current = get(); // volatile read
        // Release store: the producer (acquire load of the gating minimum) may reuse slots up to `current`.
        workerSequence.set(current);
        return current;
    }

    /**
     * Ends a claim attempt: claims {@code current + 1 .. last} if no other worker claimed since
     * {@link #prepareClaim}.
     *
     * @param current the value {@link #prepareClaim} returned
     * @param last    the run's last sequence, at least {@code current + 1}
     * @return {@code true} if the run is now this worker's; {@code false} to start again with {@link #prepareClaim}
     */
    public boolean tryClaim(long current, long last) {
        return compareAndSet(current, last); // full fence: each sequence goes to exactly one claimer
    }
}
