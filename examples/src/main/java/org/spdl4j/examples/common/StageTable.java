package org.spdl4j.examples.common;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.spdl4j.engine.stats.StageStats;

/**
 * Prints a pipeline's per-stage summary for the examples: items out (a batching stage emits batches), failures,
 * task time percentiles, time starved (waiting for input) and back-pressured (waiting for room). Allocates; call at
 * the end of a run.
 */
public final class StageTable {
    private StageTable() {
    }

    /**
     * Prints one line per stage.
     *
     * @param stats the stages, source first
     * @param out   where to print
     */
    public static void print(List<StageStats> stats, PrintWriter out) {
        out.printf(Locale.ROOT, "%-10s %8s %5s %10s %10s %10s %10s %10s%n", "stage", "out", "fail", "p50 ms", "p99 ms",
            "max ms", "starved s", "blocked s");
        for (StageStats s : stats) {
            Histogram h = new Histogram(StageStats.HIGHEST_TRACKABLE_NANOS, 2);
            s.addIntervalTaskHistogram(h);
            out.printf(Locale.ROOT, "%-10s %8d %5d %10.3f %10.3f %10.3f %10.2f %10.2f%n", s.stage(), s.itemsOut(), s.failures(),
                h.getValueAtPercentile(50) / 1e6, h.getValueAtPercentile(99) / 1e6, h.getMaxValue() / 1e6,
                s.starvedNanos() / 1e9, s.backPressuredNanos() / 1e9);
        }
    }
}
