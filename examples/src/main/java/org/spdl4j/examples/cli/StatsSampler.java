package org.spdl4j.examples.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.spdl4j.engine.stats.PipelineSnapshot;
import org.spdl4j.engine.stats.PipelineStats;
import org.spdl4j.engine.stats.StageSnapshot;
import org.spdl4j.engine.stats.StageStatsEvent;

/**
 * A daemon thread ({@code spdl4j-run-sampler}) that every interval takes a stats snapshot (which also feeds the
 * {@code .hlog} writer), updates the progress line and records images/s over time for the throughput plot.
 */
final class StatsSampler implements AutoCloseable {
    private final PipelineStats stats;
    private final long intervalMs;
    private final ProgressLine progress;
    private final RunMetrics metrics;
    private final List<double[]> series = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    StatsSampler(PipelineStats stats, long intervalMs, ProgressLine progress, RunMetrics metrics) {
        this.stats = stats;
        this.intervalMs = intervalMs;
        this.progress = progress;
        this.metrics = metrics;
        this.thread = Thread.ofPlatform().daemon().name("spdl4j-run-sampler").unstarted(this::loop);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        long lastImages = 0;
        long lastNanos = System.nanoTime();
        while (running) {
            // Parked, not slept: close() wakes it with unpark, never an interrupt, since an interrupt landing while
            // the snapshot spills the .hlog writer's buffer would close its (interruptible) file channel.
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(intervalMs);
            for (long left = intervalMs * 1_000_000L; running && left > 0; left = until - System.nanoTime()) {
                java.util.concurrent.locks.LockSupport.parkNanos(this, left);
            }
            if (!running) {
                return;
            }
            PipelineSnapshot snap = stats.snapshot();
            StageStatsEvent.emit(snap); // one JFR event per stage when a recording wants them
            long now = System.nanoTime();
            long images = imagesIn(snap);
            double rate = (images - lastImages) / ((now - lastNanos) / 1e9);
            synchronized (series) {
                series.add(new double[] {metrics.elapsedSeconds(now), rate});
            }
            if (progress != null) {
                progress.update(images, rate, now);
            }
            lastImages = images;
            lastNanos = now;
        }
    }

    /**
     * Images into the stage that decodes them into batch slots ({@code decode}, or a slot loader's fill stage): one
     * item per image there. The stage before the sink (the fallback, for other pipelines) is not it when an
     * {@code h2d} stage follows, which takes batches.
     */
    static long imagesIn(PipelineSnapshot snap) {
        List<StageSnapshot> stages = snap.stages();
        for (StageSnapshot s : stages) {
            if (s.stage().equals("decode") || s.stage().equals(org.spdl4j.examples.slots.SlotStages.DEFAULT_FILL_STAGE)) {
                return s.itemsIn();
            }
        }
        return stages.size() < 2 ? 0 : stages.get(stages.size() - 2).itemsIn();
    }

    /** {@return (seconds since start, images/s) pairs, one per interval} */
    List<double[]> throughputSeries() {
        synchronized (series) {
            return List.copyOf(series);
        }
    }

    @Override
    public void close() {
        running = false;
        java.util.concurrent.locks.LockSupport.unpark(thread);
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
