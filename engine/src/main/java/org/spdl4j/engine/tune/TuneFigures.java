package org.spdl4j.engine.tune;

import java.util.List;
import org.spdl4j.engine.stats.StageStats;

/**
 * What a tuner measured over one window: the throughput and, per stage, its busy, starved and back-pressured shares
 * per working unit (a tuned sync stage's active threads, a tuned async stage's tasks-in-flight limit, any other
 * stage's task slots), and its mean task time. Counters are read with {@link StageStats}' live readings (waits count
 * while they last), never its interval histograms, so a {@code PipelineStats} on the same pipeline is unaffected.
 *
 * <p><b>Threading:</b> the tuner's thread. <b>Allocation:</b> the counter arrays, once per tuner.
 */
final class TuneFigures {
    private final List<StageStats> stages;
    private final int progressStage;
    private final long[] busy;
    private final long[] starved;
    private final long[] back;
    private final long[] tasks;
    private long items;
    private long at;
    final double[] busyShare;
    final double[] starvedShare;
    final double[] backShare;
    final double[] meanTaskMillis;
    double rate;

    TuneFigures(List<StageStats> stages, int progressStage) {
        this.stages = stages;
        this.progressStage = progressStage;
        int n = stages.size();
        busy = new long[n];
        starved = new long[n];
        back = new long[n];
        tasks = new long[n];
        busyShare = new double[n];
        starvedShare = new double[n];
        backShare = new double[n];
        meanTaskMillis = new double[n];
    }

    /** {@return the index of the stage whose items in are the throughput} */
    int progressIndex() {
        return progressStage;
    }

    /** Starts a window: reads every counter now. */
    void begin() {
        at = System.nanoTime();
        for (int i = 0; i < stages.size(); i++) {
            StageStats s = stages.get(i);
            busy[i] = s.busyNanos();
            starved[i] = s.starvedNanos(at);
            back[i] = s.backPressuredNanos(at);
            tasks[i] = s.tasks();
        }
        items = stages.get(progressStage).itemsIn();
    }

    /**
     * Ends the window: the figures since {@link #begin()}.
     *
     * @param units working units per stage now (threads or task slots)
     */
    void end(int[] units) {
        long now = System.nanoTime();
        double dt = Math.max(1, now - at);
        rate = (stages.get(progressStage).itemsIn() - items) * 1e9 / dt;
        for (int i = 0; i < stages.size(); i++) {
            StageStats s = stages.get(i);
            double slots = Math.max(1, units[i]) * dt;
            busyShare[i] = (s.busyNanos() - busy[i]) / slots;
            starvedShare[i] = (s.starvedNanos(now) - starved[i]) / slots;
            backShare[i] = (s.backPressuredNanos(now) - back[i]) / slots;
            long t = s.tasks() - tasks[i];
            meanTaskMillis[i] = t == 0 ? 0 : (s.busyNanos() - busy[i]) / 1e6 / t;
        }
    }
}
