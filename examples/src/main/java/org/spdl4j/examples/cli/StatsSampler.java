package org.spdl4j.examples.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.spdl4j.engine.stats.PipelineSnapshot;
import org.spdl4j.engine.stats.PipelineStats;
import org.spdl4j.engine.stats.StageSnapshot;
import org.spdl4j.engine.stats.StageStats;
import org.spdl4j.engine.stats.StageStatsEvent;
import org.spdl4j.loader.Loader;

/**
 * A daemon thread ({@code spdl4j-run-sampler}) that every interval takes a stats snapshot (which also feeds the
 * {@code .hlog} writer), emits it as {@code org.spdl4j.StageStats} JFR events and updates the progress line (with
 * {@code --live}, also the current bottleneck: {@link LiveBottleneck}); between snapshots, at the finer step of a
 * {@link RunTimeline}, it reads the live counters (images so far, ring occupancy) for the report's plots.
 *
 * <p>{@link #close()} takes one last snapshot, so the run's tail (the part of an interval after the last periodic
 * sample) is in JFR and in the plots, and a run shorter than one interval still has an event per stage. When a
 * snapshot was taken less than a tenth of an interval before and no image moved since, there is no last snapshot:
 * it would repeat the one just taken.
 */
final class StatsSampler implements AutoCloseable {
    private final PipelineStats stats;
    private final long intervalMs;
    private final ProgressLine progress;
    private final boolean live;
    private final RunTimeline timeline;
    private final List<StageStats> rings = new ArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    StatsSampler(PipelineStats stats, long intervalMs, ProgressLine progress, boolean live) {
        this.stats = stats;
        this.intervalMs = intervalMs;
        this.progress = progress;
        this.live = live;
        List<String> names = new ArrayList<>();
        for (StageStats s : stats.stages()) {
            if (s.inputCapacity() > 0) {
                rings.add(s);
                names.add(s.stage());
            }
        }
        this.timeline = new RunTimeline(System.nanoTime(), names);
        this.thread = Thread.ofPlatform().daemon().name("spdl4j-run-sampler").unstarted(this::loop);
    }

    void start() {
        thread.start();
    }

    private void loop() {
        long intervalNanos = TimeUnit.MILLISECONDS.toNanos(intervalMs);
        long lastSnapshotNanos = System.nanoTime();
        long lastSnapshotImages = 0;
        boolean snapshotTaken = false;
        while (true) {
            // Parked, not slept: close() wakes it with unpark, never an interrupt, since an interrupt landing while
            // the snapshot spills the .hlog writer's buffer would close its (interruptible) file channel.
            long until;
            synchronized (timeline) {
                until = Math.min(lastSnapshotNanos + intervalNanos, timeline.nextSampleNanos());
            }
            for (long left = until - System.nanoTime(); running && left > 0; left = until - System.nanoTime()) {
                LockSupport.parkNanos(this, left);
            }
            boolean closing = !running;
            long now = System.nanoTime();
            long imagesNow = imagesIn(stats.stages());
            synchronized (timeline) {
                if (closing) {
                    timeline.last(now, imagesNow, ringPercent());
                } else if (now >= timeline.nextSampleNanos()) {
                    timeline.sample(now, imagesNow, ringPercent());
                }
            }
            if (closing && snapshotTaken && now - lastSnapshotNanos < intervalNanos / 10
                    && imagesNow == lastSnapshotImages) {
                return; // a snapshot was just taken and no image moved since: a last one would repeat it
            }
            if (!closing && now - lastSnapshotNanos < intervalNanos) {
                continue;
            }
            PipelineSnapshot snap = stats.snapshot();
            // One JFR event per stage when a recording wants them. Not before JFR is initialised (a recording
            // started): initialising an event class initialises JFR, about 70 ms of CPU inside every run.
            if (jdk.jfr.FlightRecorder.isInitialized()) {
                StageStatsEvent.emit(snap);
            }
            long images = imagesIn(snap);
            double rate = (images - lastSnapshotImages) / ((now - lastSnapshotNanos) / 1e9);
            lastSnapshotNanos = now;
            lastSnapshotImages = images;
            snapshotTaken = true;
            if (closing) {
                return; // the run's summary draws the progress line's final state
            }
            if (progress != null) {
                progress.update(images, rate, now, live ? LiveBottleneck.describe(snap) : null);
            }
        }
    }

    private double[] ringPercent() {
        double[] percent = new double[rings.size()];
        for (int i = 0; i < percent.length; i++) {
            StageStats s = rings.get(i);
            percent[i] = 100.0 * s.inputOccupancy() / s.inputCapacity();
        }
        return percent;
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

    /** {@return (seconds since start, images/s) pairs at the timeline's step, the last one up to {@link #close()}} */
    List<double[]> throughputSeries() {
        synchronized (timeline) {
            return timeline.throughput();
        }
    }

    /** {@return each sampled ring's (seconds since start, occupancy percent) pairs} */
    Map<String, List<double[]>> ringSeries() {
        synchronized (timeline) {
            return timeline.ringOccupancy();
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
