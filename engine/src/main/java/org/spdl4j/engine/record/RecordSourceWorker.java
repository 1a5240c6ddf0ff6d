package org.spdl4j.engine.record;

import com.lmax.disruptor.Sequencer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.runtime.PipelineControl;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * The record pipeline's source thread: claims a slot ({@code tryNext} with an idle strategy, bounded by the run
 * flag), lets the {@link RecordSource} write the record into it through a flyweight, and publishes it. At the end
 * (or when the source throws an exception) it publishes {@code ends} end markers; an {@link Error} from the source
 * fails the pipeline instead ({@link RecordWorkerBody#runGuarded}).
 *
 * <p><b>Allocation:</b> none per record.
 */
final class RecordSourceWorker implements Runnable {
    private final PipelineControl control;
    private final String stage;
    private final RecordRing ring;
    private final Sequencer sequencer;
    private final RecordSource source;
    private final WorkerStats stats;
    private final BoundedPublisher claimer;
    private final int ends;
    private final UnsafeBuffer record = new UnsafeBuffer(0, 0);

    RecordSourceWorker(PipelineControl control, String stage, RecordRing ring, RecordSource source,
                       WorkerStats stats, IdleStrategy idle, int ends) {
        this.control = control;
        this.stage = stage;
        this.ring = ring;
        this.sequencer = ring.sequencer();
        this.source = source;
        this.stats = stats;
        this.claimer = BoundedPublisher.forSequencer(sequencer, idle, control.running());
        this.ends = ends;
    }

    @Override
    public void run() {
        // An Exception from the source ends the stream (delivering what came before); anything else it throws (an
        // Error) escapes the loop and fails the pipeline here, so awaitCompletion() does not wait for end markers
        // that will never come.
        RecordWorkerBody.runGuarded(control, stage, this::work);
    }

    private void work() {
        long s;
        for (;;) {
            s = claim();
            if (s < 0) {
                return;
            }
            ring.kind(s, RecordDescriptor.KIND_RECORD);
            ring.wrapRecord(record, s);
            long start = System.nanoTime();
            boolean more;
            try {
                more = source.next(record);
            } catch (Exception e) {
                if (!control.running().isRunning()) {
                    return;
                }
                stats.onFailure();
                control.sourceFailed(stage, e);
                more = false;
            }
            stats.onTask(System.nanoTime() - start);
            if (!more) {
                break;
            }
            stats.onItemIn();
            sequencer.publish(s); // release: the record bytes are visible before the sequence
            stats.onItemOut();
        }
        ring.writeEnd(s, 0); // the slot claimed for the record that never came carries the first end marker
        sequencer.publish(s);
        for (int i = 1; i < ends; i++) {
            s = claim();
            if (s < 0) {
                return;
            }
            ring.writeEnd(s, i);
            sequencer.publish(s);
        }
    }

    private long claim() {
        long s = claimer.claimSlot();
        long waited = claimer.takeWaitNanos();
        if (waited > 0) {
            stats.onBackPressured(waited);
        }
        return s;
    }
}
