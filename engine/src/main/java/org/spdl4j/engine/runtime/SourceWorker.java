package org.spdl4j.engine.runtime;

import org.spdl4j.engine.EngineConfiguration;
import org.spdl4j.engine.PublishBatching;
import org.spdl4j.engine.Source;
import org.spdl4j.engine.ring.BatchingPublisher;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.stats.SampledTaskTimer;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * The source's thread: pulls items from the {@link Source} and publishes them into the first link until the source
 * ends, throws, or the pipeline stops. A throwing source ends the stream normally (what was emitted still flows) and
 * the consumer then gets the source's failure instead of the end. Task time = time inside {@link Source#next()},
 * sampled while calls are short ({@link SampledTaskTimer}).
 *
 * <p><b>Publish batching</b> (only when the builder asked for {@link PublishBatching#SHORT_TASKS}; the default is per
 * item): while the last timed call took less than {@link EngineConfiguration#PUBLISH_BATCH_BELOW_NANOS}, each item is
 * written straight into a claimed slot of the first ring ({@link BatchingPublisher}, in place: the source is the
 * ring's only producer), and the claimed range is published when it is full (a quarter of the ring, at most
 * {@link EngineConfiguration#MAX_RUN}), when the ring is full, before an item that came from a slow call (the batch
 * first, then that item, which keeps the source's order), and at the source's end or failure. Claimed slots are
 * ring slots, so the items in flight stay within the ring's capacity, and a stop leaves them to the close-time sweep.
 */
final class SourceWorker extends StageWorker {
    private final Source<?> source;
    private final BoundedPublisher out;
    private final BatchingPublisher batch; // null: per item
    private final EndOfStream end;
    private final Discarder discarder;
    private final SampledTaskTimer timer;

    SourceWorker(PipelineControl control, String stage, WorkerStats stats, Source<?> source, BoundedPublisher out,
                 BatchingPublisher batch, EndOfStream end, Discarder discarder) {
        super(control, stage, 0, stats);
        this.source = source;
        this.out = out;
        this.batch = batch;
        this.end = end;
        this.discarder = discarder;
        this.timer = new SampledTaskTimer(stats);
    }

    @Override
    void work() {
        boolean ended;
        try {
            ended = loop();
        } finally {
            timer.settle(); // the end, or closed mid-run: count every call that returned
            if (batch != null) {
                batch.discardStaged(discarder::discard); // stopped: items nobody will publish
            }
        }
        if (ended && end.workerFinished()) {
            end.propagate(out);
        }
    }

    /** {@return {@code true} at the source's end or failure, {@code false} when the pipeline stopped} */
    private boolean loop() {
        for (;;) {
            long start = timer.start(); // 0 when this call is not timed
            Object item;
            try {
                item = source.next();
            } catch (Exception e) {
                if (!control.running().isRunning()) {
                    return false; // interrupted by close
                }
                stats.onFailure();
                boolean flushed = flush(); // what was emitted before the failure still flows
                control.sourceFailed(stage, e);
                return flushed;
            }
            timer.stop(start);
            clearTaskInterrupt();
            if (item == null) {
                return flush();
            }
            stats.onItemIn();
            long epoch = source.epoch();
            if (batch != null && timer.lastTimedNanos() < EngineConfiguration.PUBLISH_BATCH_BELOW_NANOS) {
                if (!batch.add(item, epoch)) {
                    discarder.discard(item);
                    return false;
                }
                if (batch.isFull() && !flush()) {
                    return false;
                }
            } else {
                if (!flush() || !out.publish(item, epoch)) {
                    discarder.discard(item);
                    return false;
                }
                stats.onItemOut();
            }
            recordBackPressure(out.takeWaitNanos());
        }
    }

    /** Publishes the staged items; {@code false} if the pipeline stopped (work() discards what is left). */
    private boolean flush() {
        if (batch == null) {
            return true;
        }
        batch.flush(); // counted in items out range by range as it publishes (see batchFor)
        return batch.isEmpty();
    }
}
