package org.spdl4j.records;

import com.lmax.disruptor.AlertException;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.ring.WorkSharingReader;
import org.spdl4j.engine.runtime.PipelineControl;
import org.spdl4j.engine.runtime.StageFailures;
import org.spdl4j.engine.stats.SampledTaskTimer;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * A worker of a transfer stage: the last stage on one record ring and the producer of the next. It claims an input
 * record (shared with its stage), claims an output slot (waiting while the next ring is full), lets the
 * {@link RecordMapper} read the one and write the other through flyweights, and publishes the output; then releases
 * the input. A dropped or failed record still publishes its claimed output slot, marked
 * {@link RecordDescriptor#KIND_DROPPED} (a claimed sequence cannot be given back). With several workers the output
 * is in completion order. The stage's last worker to finish publishes the next ring's end markers.
 *
 * <p>Task times are sampled for short tasks ({@link SampledTaskTimer}); the counts are settled before the worker may
 * wait (for input, or for room in the next ring) and when it leaves.
 *
 * <p><b>Allocation:</b> none per record.
 */
final class RecordTransferWorker implements Runnable {
    private final PipelineControl control;
    private final String stage;
    private final RecordRing in;
    private final RecordRing out;
    private final WorkSharingReader reader;
    private final BoundedPublisher claimer;
    private final RecordMapper mapper;
    private final WorkerStats stats;
    private final StageFailures failures;
    private final RecordStageEnd end;
    private final IdleStrategy idle;
    private final int outEnds;
    private final UnsafeBuffer inRecord = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer outRecord = new UnsafeBuffer(0, 0);
    private final SampledTaskTimer timer;

    RecordTransferWorker(PipelineControl control, String stage, RecordRing in, RecordRing out,
                         WorkSharingReader reader, RecordMapper mapper, WorkerStats stats, StageFailures failures,
                         RecordStageEnd end, IdleStrategy idle, IdleStrategy backPressure, int outEnds) {
        this.control = control;
        this.stage = stage;
        this.in = in;
        this.out = out;
        this.reader = reader;
        this.claimer = BoundedPublisher.forSequencer(out.sequencer(), backPressure, control.running());
        reader.reportWaitsTo(stats); // waits for input and for room are reported while they last
        claimer.reportWaitsTo(stats);
        this.mapper = mapper;
        this.stats = stats;
        this.timer = new SampledTaskTimer(stats);
        this.failures = failures;
        this.end = end;
        this.idle = idle;
        this.outEnds = outEnds;
    }

    @Override
    public void run() {
        RecordWorkerBody.runGuarded(control, stage, this::work);
    }

    private void work() throws AlertException, InterruptedException {
        try {
            loop();
        } finally {
            timer.settle(); // closed or failed mid-run: still count every task that ran
        }
    }

    private void loop() throws AlertException, InterruptedException {
        for (;;) {
            if (!reader.hasRunLeft()) {
                timer.settle(); // the next claim may wait: make the counts exact first
            }
            long s = reader.next(); // acquire: the previous stage's writes to this slot are visible
            int kind = in.kind(s);
            if (kind == RecordDescriptor.KIND_END) {
                reader.releaseThroughCurrent(); // the run may go on past the marker
                timer.settle(); // before the stage's end: whoever sees it may read exact counts
                if (end.workerFinished(s, in.endOrdinal(s), idle, control.running())) {
                    publishEnds();
                }
                return;
            }
            if (kind == RecordDescriptor.KIND_RECORD && !map(s)) {
                return; // stopped while waiting for room
            }
            reader.release(); // the input slot may be reused once the output is published
        }
    }

    private boolean map(long s) {
        stats.onItemIn();
        long t = claim();
        if (t < 0) {
            return false;
        }
        in.wrapRecord(inRecord, s);
        out.wrapRecord(outRecord, t);
        long start = timer.start(); // 0 when this task is not timed
        boolean keep;
        try {
            keep = mapper.apply(inRecord, outRecord);
        } catch (RuntimeException e) {
            keep = false;
            failures.onFailure(stats, "record at sequence " + s, e);
        }
        timer.stop(start);
        control.clearTaskInterrupt();
        out.kind(t, keep ? RecordDescriptor.KIND_RECORD : RecordDescriptor.KIND_DROPPED);
        out.sequencer().publish(t); // release: the output bytes and kind are visible before the sequence
        if (keep) {
            stats.onItemOut();
        }
        return true;
    }

    private long claim() {
        long t = claimer.tryClaim();
        if (t >= 0) {
            return t;
        }
        timer.settle(); // the next ring is full and we may wait: make the counts exact first
        return claimer.claimSlot(); // the claimer reports its wait for room as back-pressure
    }

    private void publishEnds() {
        for (int i = 0; i < outEnds; i++) {
            long t = claim();
            if (t < 0) {
                return;
            }
            out.writeEnd(t, i);
            out.sequencer().publish(t);
        }
    }
}
