package org.spdl4j.examples.report;

import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Latency-percentile curves, one per stage, in the style of HdrHistogram's plots: the x axis is
 * {@code log10(1 / (1 - percentile))} ({@link ChartAxis.Scale#PERCENTILE}), so 90%, 99%, 99.9% and 99.99% are evenly
 * spaced and the tail is visible; the y axis is task time in milliseconds on decades.
 */
public final class PercentileCurves {
    private static final double[] PERCENTILES = {
        0, 10, 25, 50, 75, 80, 90, 95, 97.5, 99, 99.5, 99.75, 99.9, 99.95, 99.99, 99.995, 99.999};

    private PercentileCurves() {
    }

    /**
     * Charts the curves of {@code histograms} (values in nanoseconds, shown in milliseconds); a stage with no
     * recorded value is left out.
     *
     * @param title      chart title
     * @param histograms stage name to its task-time histogram, in display order
     * @return the chart
     */
    public static SvgChart chart(String title, Map<String, Histogram> histograms) {
        SvgChart chart = newChart(title);
        int color = 0;
        for (Map.Entry<String, Histogram> e : histograms.entrySet()) {
            if (e.getValue().getTotalCount() > 0) {
                addCurve(chart, e.getKey(), e.getValue(), color, false);
            }
            color++;
        }
        return chart;
    }

    /**
     * Charts two runs' curves on one chart: each stage in its own colour, run A solid, run B dashed.
     *
     * @param title  chart title
     * @param nameA  run A's name in the legend
     * @param a      run A's stages
     * @param nameB  run B's name
     * @param b      run B's stages
     * @return the chart
     */
    public static SvgChart overlay(String title, String nameA, Map<String, Histogram> a, String nameB,
                                   Map<String, Histogram> b) {
        SvgChart chart = newChart(title);
        java.util.LinkedHashSet<String> stages = new java.util.LinkedHashSet<>(a.keySet());
        stages.addAll(b.keySet());
        int color = 0;
        for (String stage : stages) {
            Histogram ha = a.get(stage);
            Histogram hb = b.get(stage);
            if (ha != null && ha.getTotalCount() > 0) {
                addCurve(chart, stage + " (" + nameA + ")", ha, color, false);
            }
            if (hb != null && hb.getTotalCount() > 0) {
                addCurve(chart, stage + " (" + nameB + ")", hb, color, true);
            }
            color++;
        }
        return chart;
    }

    private static SvgChart newChart(String title) {
        return new SvgChart(title, new ChartAxis("percentile", ChartAxis.Scale.PERCENTILE),
            new ChartAxis("task time, ms", ChartAxis.Scale.LOG10));
    }

    private static void addCurve(SvgChart chart, String name, Histogram h, int color, boolean dashed) {
        double[] xs = new double[PERCENTILES.length];
        double[] ys = new double[PERCENTILES.length];
        for (int i = 0; i < PERCENTILES.length; i++) {
            xs[i] = PERCENTILES[i];
            ys[i] = h.getValueAtPercentile(PERCENTILES[i]) / 1e6;
        }
        chart.add(name, xs, ys, color, dashed);
    }
}
