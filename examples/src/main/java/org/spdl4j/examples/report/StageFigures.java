package org.spdl4j.examples.report;

import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * One stage's figures over a whole run ({@link Metric}: task-time percentiles, the longest task, tasks per second)
 * and how much each would move from run to run, estimated from the run itself: a bootstrap over its intervals. The
 * run's interval histograms are drawn with replacement as many times as there are intervals, merged, and the figures
 * taken again, {@value #RESAMPLES} times; a figure's noise is the standard deviation of those draws. So a stage whose
 * p99 swings from interval to interval has a wide noise band, one that is steady a narrow one. What the intervals
 * cannot show (another machine load on another day) is not in it.
 *
 * The longest task is the exception: its noise is the spread of the intervals' longest tasks, since no draw can
 * exceed the largest value seen.
 *
 * <p>The draws merge bucket counts over the distinct values the run recorded (not whole histograms), so a run of a
 * few hundred intervals takes milliseconds. Immutable.
 *
 * @param values the run's figures, indexed by {@link Metric#ordinal()} (ns for times, tasks/s for the rate)
 * @param noise  each figure's standard deviation over the draws, same units
 * @param intervals how many intervals the run had for this stage
 */
public record StageFigures(double[] values, double[] noise, int intervals) {
    /** Bootstrap draws per stage. */
    public static final int RESAMPLES = 300;

    /** A figure of a stage over a run. */
    public enum Metric {
        /** Median task time. */
        P50("p50", 50),
        /** 90th percentile task time. */
        P90("p90", 90),
        /** 99th percentile task time. */
        P99("p99", 99),
        /** 99.9th percentile task time. */
        P999("p99.9", 99.9),
        /** Longest task. */
        MAX("max", 100),
        /** Tasks per second (for the decode stage: samples per second). */
        RATE("rate", Double.NaN);

        private final String label;
        private final double percentile;

        Metric(String label, double percentile) {
            this.label = label;
            this.percentile = percentile;
        }

        /** {@return the short name printed in tables} */
        public String label() {
            return label;
        }
    }

    /**
     * Computes a stage's figures and their noise.
     *
     * @param intervals the stage's intervals, in time order
     * @param seed      the bootstrap's seed (the same seed gives the same noise)
     * @return the figures, or null when the stage timed no task
     */
    public static StageFigures of(List<RunLog.Interval> intervals, long seed) {
        int n = intervals.size();
        TreeMap<Long, Integer> index = new TreeMap<>();
        for (RunLog.Interval i : intervals) {
            for (HistogramIterationValue v : i.histogram().recordedValues()) {
                index.put(v.getValueIteratedTo(), 0);
            }
        }
        if (index.isEmpty()) {
            return null;
        }
        long[] values = new long[index.size()];
        int k = 0;
        for (var e : index.entrySet()) {
            e.setValue(k);
            values[k++] = e.getKey();
        }
        int[][] buckets = new int[n][];
        long[][] counts = new long[n][];
        double[] seconds = new double[n];
        for (int i = 0; i < n; i++) {
            Histogram h = intervals.get(i).histogram();
            int size = 0;
            for (HistogramIterationValue ignored : h.recordedValues()) {
                size++;
            }
            buckets[i] = new int[size];
            counts[i] = new long[size];
            int j = 0;
            for (HistogramIterationValue v : h.recordedValues()) {
                buckets[i][j] = index.get(v.getValueIteratedTo());
                counts[i][j++] = v.getCountAtValueIteratedTo();
            }
            seconds[i] = intervals.get(i).seconds();
        }
        int[] weights = new int[n];
        java.util.Arrays.fill(weights, 1);
        double[] whole = figures(weights, buckets, counts, seconds, values);
        SplittableRandom random = new SplittableRandom(seed);
        Metric[] metrics = Metric.values();
        double[] sum = new double[metrics.length];
        double[] squares = new double[metrics.length];
        for (int r = 0; r < RESAMPLES; r++) {
            java.util.Arrays.fill(weights, 0);
            for (int d = 0; d < n; d++) {
                weights[random.nextInt(n)]++;
            }
            double[] f = figures(weights, buckets, counts, seconds, values);
            for (int m = 0; m < metrics.length; m++) {
                sum[m] += f[m];
                squares[m] += f[m] * f[m];
            }
        }
        double[] noise = new double[metrics.length];
        for (int m = 0; m < metrics.length; m++) {
            double mean = sum[m] / RESAMPLES;
            noise[m] = Math.sqrt(Math.max(0, squares[m] / RESAMPLES - mean * mean));
        }
        noise[Metric.MAX.ordinal()] = spreadOfMaxima(buckets, values);
        return new StageFigures(whole, noise, n);
    }

    /**
     * The standard deviation of the intervals' longest tasks: the noise of the run's longest task. A bootstrap cannot
     * tell it (no draw exceeds the largest value seen), and one run's maximum is one draw from the intervals' maxima.
     */
    private static double spreadOfMaxima(int[][] buckets, long[] values) {
        double sum = 0;
        double squares = 0;
        int n = 0;
        for (int[] b : buckets) {
            if (b.length > 0) {
                double max = values[b[b.length - 1]]; // recorded values iterate in ascending order
                sum += max;
                squares += max * max;
                n++;
            }
        }
        if (n < 2) {
            return 0;
        }
        double mean = sum / n;
        return Math.sqrt(Math.max(0, (squares - n * mean * mean) / (n - 1)));
    }

    /** The figures of the intervals merged with the given weights. */
    private static double[] figures(int[] weights, int[][] buckets, long[][] counts, double[] seconds, long[] values) {
        long[] merged = new long[values.length];
        long total = 0;
        double time = 0;
        for (int i = 0; i < weights.length; i++) {
            if (weights[i] == 0) {
                continue;
            }
            for (int j = 0; j < buckets[i].length; j++) {
                merged[buckets[i][j]] += weights[i] * counts[i][j];
                total += weights[i] * counts[i][j];
            }
            time += weights[i] * seconds[i];
        }
        Metric[] metrics = Metric.values();
        double[] f = new double[metrics.length];
        for (Metric m : metrics) {
            if (m == Metric.RATE) {
                f[m.ordinal()] = time > 0 ? total / time : 0;
            } else if (total > 0) {
                f[m.ordinal()] = values[rank(merged, total, m.percentile)];
            }
        }
        return f;
    }

    /** The bucket holding the value at a percentile: the first whose cumulative count reaches it (as HdrHistogram). */
    private static int rank(long[] merged, long total, double percentile) {
        long wanted = Math.max(1, (long) Math.ceil(percentile / 100.0 * total));
        long seen = 0;
        int last = 0;
        for (int b = 0; b < merged.length; b++) {
            if (merged[b] > 0) {
                seen += merged[b];
                last = b;
                if (seen >= wanted) {
                    return b;
                }
            }
        }
        return last;
    }

    /**
     * {@return a figure}
     *
     * @param metric which
     */
    public double value(Metric metric) {
        return values[metric.ordinal()];
    }

    /**
     * {@return a figure's noise (standard deviation over the bootstrap draws)}
     *
     * @param metric which
     */
    public double noise(Metric metric) {
        return noise[metric.ordinal()];
    }
}
