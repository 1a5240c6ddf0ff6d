package org.spdl4j.engine.runtime;

import org.spdl4j.engine.Source;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.stats.SampledTaskTimer;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * The source's thread: pulls items from the {@link Source} and publishes them into the first link until the source
 * ends, throws, or the pipeline stops. A throwing source ends the stream normally (what was emitted still flows) and
 * the consumer then gets the source's failure instead of the end. Task time = time inside {@link Source#next()},
 * sampled while calls are short ({@link SampledTaskTimer}).
 */
final class SourceWorker extends StageWorker {
    private final Source<?> source;
    private final BoundedPublisher out;
    private final EndOfStream end;
    private final Discarder discarder;
    private final SampledTaskTimer timer;

    SourceWorker(PipelineControl control, String stage, WorkerStats stats, Source<?> source, BoundedPublisher out,
                 EndOfStream end, Discarder discarder) {
        super(control, stage, 0, stats);
        this.source = source;
        this.out = out;
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
                control.sourceFailed(stage, e);
                return true;
            }
            timer.stop(start);
            if (item == null) {
                return true;
            }
            stats.onItemIn();
            if (!out.publish(item, source.epoch())) {
                discarder.discard(item);
                return false;
            }
            stats.onItemOut();
            recordBackPressure(out.takeWaitNanos());
        }
    }
}
