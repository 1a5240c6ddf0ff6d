package org.spdl4j.engine.runtime;

import com.lmax.disruptor.AlertException;
import org.spdl4j.engine.Aggregator;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.ring.WorkSharingReader;
import org.spdl4j.engine.stats.SampledTaskTimer;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * The single worker of an aggregate stage: feeds each item to the {@link Aggregator} and publishes what it completes;
 * at end of stream publishes the aggregator's flush. An aggregate carries the epoch of the item that completed it.
 * A throwing aggregator counts as a failed task (the item is dropped). An aggregate that cannot be published because
 * the pipeline stopped goes to the {@link Discarder}; what the aggregator still holds is its owner's to clean up.
 * Task times are sampled for short tasks ({@link SampledTaskTimer}).
 */
final class AggregateWorker extends StageWorker {
    private final WorkSharingReader in;
    private final BoundedPublisher out;
    private final Aggregator<Object, ?> aggregator;
    private final StageFailures failures;
    private final EndOfStream end;
    private final Discarder discarder;
    private boolean flushed; // written by the worker thread; read by the closing thread after joining it
    private final SampledTaskTimer timer;

    AggregateWorker(PipelineControl control, String stage, WorkerStats stats, WorkSharingReader in,
                    BoundedPublisher out, Aggregator<Object, ?> aggregator, StageFailures failures, EndOfStream end,
                    Discarder discarder) {
        super(control, stage, 0, stats);
        this.in = in;
        this.out = out;
        in.reportWaitsTo(stats); // the reader and publisher report their waits while they last
        out.reportWaitsTo(stats);
        this.aggregator = aggregator;
        this.failures = failures;
        this.end = end;
        this.discarder = discarder;
        this.timer = new SampledTaskTimer(stats);
    }

    @Override
    void work() throws AlertException, InterruptedException {
        try {
            aggregate();
        } finally {
            timer.settle(); // the end, or closed mid-run: count every task that ran
        }
    }

    private void aggregate() throws AlertException, InterruptedException {
        long lastEpoch = 0;
        for (;;) {
            if (!in.hasRunLeft()) {
                timer.settle(); // the next claim may wait: make the counts exact first
            }
            in.next();
            if (in.isEnd()) {
                in.releaseAndRetire();
                timer.settle(); // before the end goes downstream: whoever sees it may read exact counts
                break;
            }
            lastEpoch = in.epoch();
            Object item = in.take();
            in.release();
            stats.onItemIn();
            long start = timer.start(); // 0 when this task is not timed
            Object aggregate;
            try {
                aggregate = aggregator.add(item);
            } catch (RuntimeException e) {
                timer.stop(start);
                clearTaskInterrupt();
                failures.onFailure(stats, item, e);
                continue;
            }
            timer.stop(start);
            clearTaskInterrupt();
            if (aggregate != null) {
                if (!out.publish(aggregate, lastEpoch)) {
                    discarder.discard(aggregate);
                    return;
                }
                stats.onItemOut();
            }
        }
        flushed = true;
        Object last;
        try {
            last = aggregator.flush();
        } catch (RuntimeException e) {
            // A custom aggregator's last aggregate failed: a task failure like a failing add, counted against the
            // budget; the end of stream still goes downstream (else the consumer would wait for it forever).
            last = null;
            failures.onFailure(stats, "the last aggregate (flush at end of stream)", e);
        }
        clearTaskInterrupt();
        discarder.discard(aggregator.takeUndelivered()); // what flush dropped (a dropLast batch's items)
        if (last != null) {
            if (!out.publish(last, lastEpoch)) {
                discarder.discard(last);
                return;
            }
            stats.onItemOut();
        }
        if (end.workerFinished()) {
            end.propagate(out);
        }
    }

    /**
     * Called by the closing thread after this worker's thread has ended (the join orders its writes before), once
     * the rings are swept: flushes what the aggregator still holds (a partial aggregate) into the discarder, unless
     * end of stream already flushed it. What the aggregator still holds ({@link Aggregator#takeUndelivered()}) is
     * discarded also when its flush throws, as at end of stream.
     *
     * @throws RuntimeException what the aggregator's flush (or takeUndelivered) threw
     */
    void flushOnStop() {
        if (flushed) {
            return;
        }
        flushed = true;
        try {
            discarder.discard(aggregator.flush());
        } catch (RuntimeException e) {
            try {
                discarder.discard(aggregator.takeUndelivered());
            } catch (RuntimeException also) {
                e.addSuppressed(also);
            }
            throw e;
        }
        discarder.discard(aggregator.takeUndelivered());
    }
}
