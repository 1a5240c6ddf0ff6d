package org.spdl4j.records;

import com.lmax.disruptor.Sequencer;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.runtime.PipelineControl;
import org.spdl4j.engine.stats.SampledTaskTimer;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * The record pipeline's source thread: claims a slot ({@code tryNext} with an idle strategy, bounded by the run
 * flag), lets the {@link RecordSource} write the record into it through a flyweight, and publishes it. At the end
 * (or when the source throws an exception) it publishes {@code ends} end markers; an {@link Error} from the source
 * fails the pipeline instead ({@link RecordWorkerBody#runGuarded}).
 *
 * <p><b>Publish batching</b> ({@link PublishBatching#SHORT_TASKS}; the default is per record): while the last timed
 * call took less than {@link EngineConfiguration#PUBLISH_BATCH_BELOW_NANOS}, written records are held and published
 * as one range (one release store of the cursor) when the range is full (a quarter of the ring, at most
 * {@link EngineConfiguration#MAX_RUN}), before the source waits for room, after a record that came from a slow call,
 * and at the end. Each claimed slot is written before the next claim, because Disruptor's single-producer
 * {@code tryNext} may store the cursor up to its last claim: a held record may so become visible early, never
 * unwritten. A stop leaves held records unpublished; nothing in a record ring needs releasing.
 *
 * <p>Task time = time inside {@link RecordSource#next}, sampled while calls are short ({@link SampledTaskTimer}); the
 * counts are settled before the source waits for room and when it leaves.
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
    private final boolean batching;
    private final int maxHeld;
    private final SampledTaskTimer timer;
    private final UnsafeBuffer record = new UnsafeBuffer(0, 0);
    private long firstHeld = -1; // first written, unpublished record's sequence; -1 when none is held
    private long lastHeld;
    private int held;

    RecordSourceWorker(PipelineControl control, String stage, RecordRing ring, RecordSource source,
                       WorkerStats stats, IdleStrategy idle, int ends, PublishBatching batching) {
        this.control = control;
        this.stage = stage;
        this.ring = ring;
        this.sequencer = ring.sequencer();
        this.source = source;
        this.stats = stats;
        this.claimer = BoundedPublisher.forSequencer(sequencer, idle, control.running());
        claimer.reportWaitsTo(stats); // waits for room are reported while they last
        this.ends = ends;
        this.batching = batching == PublishBatching.SHORT_TASKS;
        this.maxHeld = Math.max(1, Math.min(ring.capacity() / 4, EngineConfiguration.MAX_RUN));
        this.timer = new SampledTaskTimer(stats);
    }

    @Override
    public void run() {
        // An Exception from the source ends the stream (delivering what came before); anything else it throws (an
        // Error) escapes the loop and fails the pipeline here, so awaitCompletion() does not wait for end markers
        // that will never come.
        RecordWorkerBody.runGuarded(control, stage, this::work);
    }

    private void work() {
        try {
            loop();
        } finally {
            timer.settle(); // the end, or closed mid-run: count every call that returned
        }
    }

    private void loop() {
        long s;
        for (;;) {
            s = claim();
            if (s < 0) {
                return;
            }
            ring.kind(s, RecordDescriptor.KIND_RECORD);
            ring.wrapRecord(record, s);
            long start = timer.start(); // 0 when this call is not timed
            boolean more;
            try {
                more = source.next(record);
                control.clearTaskInterrupt();
            } catch (Exception e) {
                if (!control.running().isRunning()) {
                    return;
                }
                stats.onFailure();
                control.sourceFailed(stage, e);
                more = false;
            }
            timer.stop(start);
            if (!more) {
                break;
            }
            stats.onItemIn();
            if (firstHeld < 0) {
                firstHeld = s;
            }
            lastHeld = s;
            held++;
            boolean slowCall = timer.lastTimedNanos() >= EngineConfiguration.PUBLISH_BATCH_BELOW_NANOS;
            if (!batching || held >= maxHeld || slowCall) {
                publishHeld();
            }
        }
        // The slot claimed for the record that never came carries the first end marker, after what is held. The
        // counts go first: whoever sees an end marker may read them, and they must be exact by then.
        timer.settle();
        ring.writeEnd(s, 0);
        if (firstHeld < 0) {
            sequencer.publish(s);
        } else {
            stats.onItemsOut(held);
            sequencer.publish(firstHeld, s);
            firstHeld = -1;
            held = 0;
        }
        for (int i = 1; i < ends; i++) {
            s = claim();
            if (s < 0) {
                return;
            }
            ring.writeEnd(s, i);
            sequencer.publish(s);
        }
    }

    /** Publishes the held records as one range (release: their bytes are visible before the cursor). */
    private void publishHeld() {
        if (firstHeld < 0) {
            return;
        }
        if (firstHeld == lastHeld) {
            sequencer.publish(lastHeld);
        } else {
            sequencer.publish(firstHeld, lastHeld);
        }
        stats.onItemsOut(held);
        firstHeld = -1;
        held = 0;
    }

    private long claim() {
        long s = claimer.tryClaim();
        if (s >= 0) {
            return s;
        }
        publishHeld(); // the consumers need what we hold before they can free a slot
        timer.settle(); // we may wait: make the counts exact first
        return claimer.claimSlot(); // the claimer reports its wait for room as back-pressure
    }
}
