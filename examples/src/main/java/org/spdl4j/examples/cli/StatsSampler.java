package org.spdl4j.examples.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongToDoubleFunction;
import org.spdl4j.engine.stats.PipelineSnapshot;
import org.spdl4j.engine.stats.PipelineStats;
import org.spdl4j.engine.stats.StageSnapshot;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.engine.stats.StageStatsEvent;
import org.spdl4j.loader.Loader;

/**
 * A daemon thread ({@code spdl4j-run-sampler}) that every interval takes a stats snapshot (which also feeds the
 * {@code .hlog} writer), emits it as {@code org.spdl4j.StageStats} JFR events, updates the progress line and records
 * images/s over time for the throughput plot.
 *
 * <p>{@link #close()} takes one last snapshot, so the run's tail (the part of an interval after the last periodic
 * sample) is in the plot and in JFR, and a run shorter than one interval still has a point and an event per stage.
 * A tail shorter than a tenth of an interval is not plotted as a point of its own (its rate over so short a time
 * is noise): the previous point is widened to cover it. When a sample was taken that recently and no image moved
 * since, there is no last snapshot at all: it would repeat the one just taken.
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
        long intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMs);
        Points points = new Points(intervalNanos, System.nanoTime());
        while (true) {
            // Parked, not slept: close() wakes it with unpark, never an interrupt, since an interrupt landing while
            // the snapshot spills the .hlog writer's buffer would close its (interruptible) file channel.
            long until = System.nanoTime() + intervalNanos;
            for (long left = intervalNanos; running && left > 0; left = until - System.nanoTime()) {
                LockSupport.parkNanos(this, left);
            }
            boolean closing = !running;
            if (closing && points.justSampled(System.nanoTime()) && imagesIn(stats.stages()) == points.lastImages()) {
                return; // a sample was just taken and no image moved since: a last snapshot would repeat it
            }
            PipelineSnapshot snap = stats.snapshot();
            StageStatsEvent.emit(snap); // one JFR event per stage when a recording wants them
            long now = System.nanoTime();
            long images = imagesIn(snap);
            double rate;
            synchronized (series) {
                rate = points.add(now, images, closing, series, metrics::elapsedSeconds);
            }
            if (closing) {
                return; // the run's summary draws the progress line's final state
            }
            if (progress != null) {
                progress.update(images, rate, now);
            }
        }
    }

    /**
     * The throughput plot's bookkeeping, kept apart from the clock and the thread so that it can be tested with
     * made-up readings: each sample appends (seconds, images/s over the interval since the previous sample); the
     * last sample, when it comes less than a tenth of an interval after the one before, replaces that one's point
     * with a point over both intervals. Used by one thread.
     */
    static final class Points {
        private final long intervalNanos;
        private long lastNanos;
        private long lastImages;
        private long priorNanos;
        private long priorImages;
        private boolean sampled;

        /**
         * Creates the bookkeeping of one run.
         *
         * @param intervalNanos the sampling interval
         * @param startNanos    when counting started (zero images then)
         */
        Points(long intervalNanos, long startNanos) {
            this.intervalNanos = intervalNanos;
            this.lastNanos = startNanos;
            this.priorNanos = startNanos;
        }

        /**
         * {@return whether a sample taken now would come less than a tenth of an interval after the previous one}
         *
         * @param nowNanos the clock now
         */
        boolean justSampled(long nowNanos) {
            return sampled && nowNanos - lastNanos < intervalNanos / 10;
        }

        /** {@return images counted at the previous sample (0 before the first)} */
        long lastImages() {
            return lastImages;
        }

        /**
         * Adds a sample's point to {@code series}, or for a last sample close behind the previous one widens that
         * one's point.
         *
         * @param nowNanos the sample's clock reading
         * @param images   images counted so far
         * @param last     whether this is the last sample
         * @param series   the points: (x, images/s)
         * @param x        the x of a clock reading
         * @return images/s over the interval since the previous sample
         */
        double add(long nowNanos, long images, boolean last, List<double[]> series, LongToDoubleFunction x) {
            double rate = (images - lastImages) / ((nowNanos - lastNanos) / 1e9);
            if (last && justSampled(nowNanos) && !series.isEmpty()) {
                double widened = (images - priorImages) / ((nowNanos - priorNanos) / 1e9);
                series.set(series.size() - 1, new double[] {x.applyAsDouble(nowNanos), widened});
            } else {
                series.add(new double[] {x.applyAsDouble(nowNanos), rate});
                priorNanos = lastNanos;
                priorImages = lastImages;
            }
            lastNanos = nowNanos;
            lastImages = images;
            sampled = true;
            return rate;
        }
    }

    /**
     * Images into the stage that decodes them into batch slots (the loader's {@value Loader#DECODE_STAGE}): one item
     * per image there. The stage before the sink (the fallback, for other pipelines) is not it when a transfer stage
     * follows, which takes batches.
     */
    static long imagesIn(PipelineSnapshot snap) {
        List<StageSnapshot> stages = snap.stages();
        for (StageSnapshot s : stages) {
            if (countsImages(s.stage())) {
                return s.itemsIn();
            }
        }
        return stages.size() < 2 ? 0 : stages.get(stages.size() - 2).itemsIn();
    }

    /** {@return images so far, as {@link #imagesIn(PipelineSnapshot)} counts them, read from the live counters} */
    private static long imagesIn(List<StageStats> stages) {
        for (StageStats s : stages) {
            if (countsImages(s.stage())) {
                return s.itemsIn();
            }
        }
        return stages.size() < 2 ? 0 : stages.get(stages.size() - 2).itemsIn();
    }

    private static boolean countsImages(String stage) {
        return stage.equals(Loader.DECODE_STAGE);
    }

    /** {@return (seconds since start, images/s) pairs, one per interval, the last one up to {@link #close()}} */
    List<double[]> throughputSeries() {
        synchronized (series) {
            return List.copyOf(series);
        }
    }

    @Override
    public void close() {
        running = false;
        LockSupport.unpark(thread); // it takes the last snapshot, then ends
        try {
            thread.join(10_000); // the last snapshot is quick; bounded all the same
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
