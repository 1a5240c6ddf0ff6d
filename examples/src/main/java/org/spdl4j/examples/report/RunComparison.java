package org.spdl4j.examples.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Two runs side by side, stage by stage and figure by figure ({@link StageFigures.Metric}), with a verdict on each
 * change. A change is beyond noise when both hold:
 * <ul>
 *   <li>it is larger than {@value #SIGMAS} standard deviations of the difference, the two runs' noise combined
 *       ({@code sqrt(noiseA^2 + noiseB^2)}, each from a bootstrap over that run's intervals: {@link StageFigures});
 *   <li>it is at least {@value #MIN_CHANGE_PERCENT}% of run A's figure: task times are recorded to 1% (HdrHistogram,
 *       two significant digits), and a run's intervals do not show what changes between runs (the machine's load),
 *       so smaller changes are not called;
 *   <li>each run has at least {@value #MIN_INTERVALS} intervals of the stage (fewer tell too little of the noise);
 *   <li>for a task time, it is at least {@value #MIN_CHANGE_NANOS} ns: below a microsecond a change is the clock's
 *       and the scheduler's, not the stage's.
 * </ul>
 * Immutable.
 *
 * @param rows      one row per stage found in both runs and figure, stages in run A's order
 * @param onlyInA   stages that only run A timed
 * @param onlyInB   stages that only run B timed
 */
public record RunComparison(List<Row> rows, List<String> onlyInA, List<String> onlyInB) {
    /** How many standard deviations of the difference a change must exceed. */
    public static final double SIGMAS = 3;
    /** The smallest relative change that is called, percent. */
    public static final double MIN_CHANGE_PERCENT = 5;
    /** The fewest intervals per run from which noise is estimated; with fewer, no change is called. */
    public static final int MIN_INTERVALS = 5;
    /** The smallest change of a task time that is called, ns. */
    public static final double MIN_CHANGE_NANOS = 1_000;

    /**
     * One figure of one stage in both runs.
     *
     * @param stage  the stage
     * @param metric the figure
     * @param a      run A's value (ns, or tasks/s)
     * @param b      run B's value
     * @param noise  the noise of the difference: {@code sqrt(noiseA^2 + noiseB^2)}
     * @param intervals the fewer of the two runs' intervals of this stage
     */
    public record Row(String stage, StageFigures.Metric metric, double a, double b, double noise, int intervals) {
        /** {@return {@code (b - a) / a} in percent; 0 when both are 0, infinite when only a is} */
        public double changePercent() {
            if (a == 0) {
                return b == 0 ? 0 : Double.POSITIVE_INFINITY;
            }
            return 100 * (b - a) / a;
        }

        /** {@return the noise band a change must clear, in percent of run A's value} */
        public double thresholdPercent() {
            double sigmas = a == 0 ? 0 : 100 * SIGMAS * noise / a;
            return Math.max(sigmas, MIN_CHANGE_PERCENT);
        }

        /** {@return whether both runs have {@value #MIN_INTERVALS} intervals or more: enough to estimate noise} */
        public boolean enoughIntervals() {
            return intervals >= MIN_INTERVALS;
        }

        /** {@return whether the change is beyond noise, by the rule of {@link RunComparison}} */
        public boolean beyondNoise() {
            return enoughIntervals() && Math.abs(b - a) > SIGMAS * noise && Math.abs(changePercent()) >= MIN_CHANGE_PERCENT
                && (metric == StageFigures.Metric.RATE || Math.abs(b - a) >= MIN_CHANGE_NANOS);
        }
    }

    /**
     * Compares two runs.
     *
     * @param a the first run (the baseline)
     * @param b the second
     * @return the comparison
     */
    public static RunComparison of(RunLog a, RunLog b) {
        List<Row> rows = new ArrayList<>();
        List<String> onlyA = new ArrayList<>();
        List<String> onlyB = new ArrayList<>();
        Set<String> stages = new LinkedHashSet<>(a.stages().keySet());
        stages.addAll(b.stages().keySet());
        long seed = 1;
        for (String stage : stages) {
            StageFigures fa = a.stages().containsKey(stage) ? StageFigures.of(a.stages().get(stage), seed++) : null;
            StageFigures fb = b.stages().containsKey(stage) ? StageFigures.of(b.stages().get(stage), seed++) : null;
            if (fa == null && fb == null) {
                continue; // a stage that times no task (the sink) in either run
            }
            if (fa == null || fb == null) {
                (fa == null ? onlyB : onlyA).add(stage);
                continue;
            }
            for (StageFigures.Metric m : StageFigures.Metric.values()) {
                rows.add(new Row(stage, m, fa.value(m), fb.value(m), Math.hypot(fa.noise(m), fb.noise(m)),
                    Math.min(fa.intervals(), fb.intervals())));
            }
        }
        return new RunComparison(List.copyOf(rows), List.copyOf(onlyA), List.copyOf(onlyB));
    }

    /** {@return the rows whose change is beyond noise} */
    public List<Row> changes() {
        return rows.stream().filter(Row::beyondNoise).toList();
    }
}
