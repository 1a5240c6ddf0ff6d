package org.spdl4j.engine.runtime;

import org.spdl4j.engine.Source;
import org.spdl4j.engine.ring.BoundedPublisher;
import org.spdl4j.engine.stats.WorkerStats;

/**
 * The source's thread: pulls items from the {@link Source} and publishes them into the first link until the source
 * ends, throws, or the pipeline stops. A throwing source ends the stream normally (what was emitted still flows) and
 * the consumer then gets the source's failure instead of the end. Task time = time inside {@link Source#next()}.
 */
final class SourceWorker extends StageWorker {
    private final Source<?> source;
    private final BoundedPublisher out;
    private final EndOfStream end;
    private final Discarder discarder;

    SourceWorker(PipelineControl control, String stage, WorkerStats stats, Source<?> source, BoundedPublisher out,
                 EndOfStream end, Discarder discarder) {
        super(control, stage, 0, stats);
        this.source = source;
        this.out = out;
        this.end = end;
        this.discarder = discarder;
    }

    @Override
    void work() {
        for (;;) {
            long start = System.nanoTime();
            Object item;
            try {
                item = source.next();
            } catch (Exception e) {
                if (!control.running().isRunning()) {
                    return; // interrupted by close
                }
                stats.onFailure();
                control.sourceFailed(stage, e);
                break;
            }
            stats.onTask(System.nanoTime() - start);
            if (item == null) {
                break;
            }
            stats.onItemIn();
            if (!out.publish(item, source.epoch())) {
                discarder.discard(item);
                return;
            }
            stats.onItemOut();
            recordBackPressure(out.takeWaitNanos());
        }
        if (end.workerFinished()) {
            end.propagate(out);
        }
    }
}
