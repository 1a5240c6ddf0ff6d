package org.spdl4j.examples.cli;

import org.spdl4j.engine.stats.PipelineSnapshot;
import org.spdl4j.engine.stats.StageSnapshot;
import org.spdl4j.engine.stats.StatsTable;

/**
 * The {@code --live} part of the progress line: the stage that limits the run now, from one interval's snapshot, and
 * its p99 task time. The stage the engine's bottleneck heuristic names ({@link PipelineSnapshot#bottleneck()}); when
 * the output is blocked, the consumer; when the heuristic names nobody, the busiest stage that timed tasks, marked as
 * only the busiest. Stateless.
 */
final class LiveBottleneck {
    private LiveBottleneck() {
    }

    /**
     * Describes the limiting stage.
     *
     * @param snap one interval's snapshot
     * @return for example {@code bottleneck decode (96% busy, p99 12.30ms)}; empty when no stage timed a task
     */
    static String describe(PipelineSnapshot snap) {
        if (snap.consumerBound()) {
            return "bottleneck: the consumer";
        }
        StageSnapshot named = snap.bottleneck().orElse(null);
        String word = "bottleneck";
        if (named == null) {
            word = "busiest";
            for (StageSnapshot s : snap.stages()) {
                if (s.tasks() > 0 && (named == null || s.busyPercent() > named.busyPercent())) {
                    named = s;
                }
            }
        }
        if (named == null) {
            return "";
        }
        return String.format(java.util.Locale.ROOT, "%s %s (%.0f%% busy, p99 %s)", word, named.stage(),
            Math.clamp(named.busyPercent(), 0.0, 100.0), StatsTable.nanos(named.p99Nanos()));
    }
}
