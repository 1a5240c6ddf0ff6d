package org.spdl4j.examples.report;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Latency-percentile curves, one per stage, in the style of HdrHistogram's plots: the x axis is
 * {@code log10(1 / (1 - percentile))}, so 90%, 99%, 99.9% and 99.99% are evenly spaced and the tail is visible.
 */
public final class PercentileCurves {
    private static final double[] PERCENTILES = {
        0, 10, 25, 50, 75, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999};

    private PercentileCurves() {
    }

    /**
     * Writes the curves of {@code histograms} (values in nanoseconds, shown in milliseconds) to a PNG.
     *
     * @param title      chart title
     * @param histograms stage name to its task-time histogram, in display order
     * @param file       PNG to write
     * @throws IOException when the file cannot be written
     */
    public static void write(String title, Map<String, Histogram> histograms, Path file) throws IOException {
        LineChart chart = new LineChart(title, "percentile", "ms (log)").logY()
            .xTicks(new double[] {0, 1, 2, 3, 4, 5}, PercentileCurves::tickLabel);
        histograms.forEach((stage, h) -> {
            double[] xs = new double[PERCENTILES.length];
            double[] ys = new double[PERCENTILES.length];
            for (int i = 0; i < PERCENTILES.length; i++) {
                xs[i] = position(PERCENTILES[i]);
                ys[i] = h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(PERCENTILES[i]) / 1e6;
            }
            chart.add(stage, xs, ys);
        });
        chart.writePng(file);
    }

    static double position(double percentile) {
        return Math.log10(1.0 / (1.0 - Math.min(percentile, 99.999) / 100.0));
    }

    private static String tickLabel(double x) {
        double p = 100.0 * (1.0 - Math.pow(10, -x));
        if (x == 0) {
            return "0%";
        }
        return (p >= 99.9 ? String.format(java.util.Locale.ROOT, "%.3f", p).replaceAll("0+$", "")
            : String.format(java.util.Locale.ROOT, "%.0f", p)) + "%";
    }
}
