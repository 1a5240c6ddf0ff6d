package org.spdl4j.records;

import com.lmax.disruptor.AlertException;
import java.util.concurrent.CountDownLatch;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.UnsafeBuffer;
import org.spdl4j.engine.ring.WorkSharingReader;
import org.spdl4j.engine.runtime.PipelineControl;
import org.spdl4j.engine.runtime.StageFailures;
import org.spdl4j.engine.stats.SampledTaskTimer;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * A worker of an in-place record stage, or the consumer: claims the next sequence (shared with its stage), waits until
 * the stage before has released it, runs the transform (or the consumer) on a flyweight over the slot, and releases
 * the sequence only after, so the next stage sees the transformed bytes. Dropped and failed records are marked
 * {@link RecordDescriptor#KIND_DROPPED} and skipped downstream. Slots stay in source order throughout. A single
 * worker releases once per run of sequences it found published ({@link WorkSharingReader}). Task times are sampled
 * for short tasks ({@link SampledTaskTimer}).
 *
 * <p><b>Allocation:</b> none per record (a failure allocates its log message).
 */
final class RecordStageWorker implements Runnable {
    private final PipelineControl control;
    private final String stage;
    private final RecordRing ring;
    private final WorkSharingReader in;
    private final RecordTransform transform;
    private final RecordConsumer consumer;
    private final WorkerStats stats;
    private final SampledTaskTimer timer;
    private final StageFailures failures;
    private final RecordStageEnd end;
    private final IdleStrategy idle;
    private final CountDownLatch done;
    private final UnsafeBuffer record = new UnsafeBuffer(0, 0);

    RecordStageWorker(PipelineControl control, String stage, RecordRing ring, WorkSharingReader in,
                      RecordTransform transform, RecordConsumer consumer, WorkerStats stats, StageFailures failures,
                      RecordStageEnd end, IdleStrategy idle, CountDownLatch done) {
        this.control = control;
        this.stage = stage;
        this.ring = ring;
        this.in = in;
        in.reportWaitsTo(stats); // waits for input are reported while they last
        this.transform = transform;
        this.consumer = consumer;
        this.stats = stats;
        this.timer = new SampledTaskTimer(stats);
        this.failures = failures;
        this.end = end;
        this.idle = idle;
        this.done = done;
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
            if (!in.hasRunLeft()) {
                timer.settle(); // the next claim may wait: make the counts exact first
            }
            long s = in.next(); // acquire: the previous stage's writes to this slot are visible
            int kind = ring.kind(s);
            if (kind == RecordDescriptor.KIND_END) {
                timer.settle(); // before the marker is released: whoever sees the end may read exact counts
                in.releaseThroughCurrent(); // the run may go on past the marker
                if (end.workerFinished(s, ring.endOrdinal(s), idle, control.running()) && done != null) {
                    done.countDown();
                }
                return;
            }
            if (kind == RecordDescriptor.KIND_RECORD) {
                process(s);
            }
            in.release(); // release: this stage's writes to the slot happen before the next stage reads it
        }
    }

    private void process(long s) {
        stats.onItemIn();
        ring.wrapRecord(record, s);
        long start = timer.start(); // 0 when this task is not timed
        boolean keep;
        try {
            if (transform != null) {
                keep = transform.apply(record);
            } else {
                consumer.accept(record);
                keep = true;
            }
        } catch (RuntimeException e) {
            keep = false;
            failures.onFailure(stats, "record at sequence " + s, e);
        }
        timer.stop(start);
        control.clearTaskInterrupt();
        if (keep) {
            stats.onItemOut();
        } else {
            ring.kind(s, RecordDescriptor.KIND_DROPPED);
        }
    }
}
