package org.spdl4j.records;

import com.lmax.disruptor.Sequence;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.IdleStrategy;
import org.spdl4j.engine.ring.RunFlag;

/**
 * End of stream for one stage of a record ring. The source publishes {@code ends} end markers (as many as the widest
 * stage has workers); each worker stops at the first one it takes. Workers that stop early leave their sequences at
 * their own end marker, which would keep the next stage from reaching the later markers, so the stage's last worker
 * to stop waits until the source has published the last marker and then moves every sequence of the stage to it.
 * Sequences never pass what the source published (the barriers of the next stage trust them not to).
 *
 * <p><b>Threading:</b> the stage's workers; the last one writes the others' sequences after they have all stopped.
 */
final class RecordStageEnd {
    private final AtomicInteger active;
    private final Sequence[] stageSequences;
    private final RecordRing ring;
    private final int ends;

    RecordStageEnd(Sequence[] stageSequences, RecordRing ring, int ends) {
        this.active = new AtomicInteger(stageSequences.length);
        this.stageSequences = stageSequences;
        this.ring = ring;
        this.ends = ends;
    }

    /**
     * A worker took its end marker.
     *
     * @param endSequence the marker's sequence
     * @param ordinal     the marker's ordinal
     * @param idle        the worker's idle strategy
     * @param running     the pipeline's run flag
     * @return {@code true} for the stage's last worker (after it moved the stage's sequences)
     */
    boolean workerFinished(long endSequence, int ordinal, IdleStrategy idle, RunFlag running) {
        if (active.decrementAndGet() != 0) { // full fence: the other workers' releases happened before
            return false;
        }
        long last = endSequence + (ends - 1 - ordinal);
        idle.reset();
        while (!ring.sequencer().isAvailable(last)) {
            if (!running.isRunning()) {
                return true;
            }
            idle.idle();
        }
        for (Sequence s : stageSequences) {
            s.set(last); // release: the next stage may now read every end marker
        }
        return true;
    }
}
